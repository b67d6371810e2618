"""Learner-facing text: the exercise framework: headings, not attempted, gaps, pick."""

TEXT = {
    "check.heading.correct": {
        "de": "✓ Richtig",
        "en": "✓ Correct",
    },
    "check.heading.incorrect": {
        "de": "✗ Noch nicht richtig",
        "en": "✗ Not quite",
    },
    "check.heading.not_attempted": {
        "de": "○ Noch nicht bearbeitet",
        "en": "○ Not attempted yet",
    },
    "check.heading.hint": {
        "de": "Tipp",
        "en": "Hint",
    },
    "check.heading.solution": {
        "de": "Lösung",
        "en": "Solution",
    },
    "check.marker": {
        "de": "# DEIN CODE HIER",
        "en": "# YOUR CODE HERE",
    },
    "check.not_attempted": {
        "de": "Ersetze das ... in der Übungszelle durch deine Lösung, führe sie aus und prüfe dann "
              "noch einmal.",
        "en": "Replace the ... in the exercise cell with your solution, run it, then check again.",
    },
    "check.still_reference": {
        "de": "{name} ist noch agentlibs Fassung: Die Übungszelle wurde nicht ausgeführt. Fülle ihre "
              "Lücken (...), führe sie aus und prüfe dann noch einmal.",
        "en": "{name} is still agentlib's version: the exercise cell has not been run. Fill in its "
              "gaps (...), run it, then check again.",
    },
    "check.untouched": {
        "de": "Die Übungszelle enthält noch das unveränderte Gerüst. Fülle die Lücken (...), führe die "
              "Zelle aus und prüfe dann noch einmal.",
        "en": "The exercise cell still holds the untouched skeleton. Fill in the gaps (...), run the "
              "cell, then check again.",
    },
    "check.one_gap": {
        "de": "In deinem Code ist noch eine Lücke (...) offen. Fülle sie aus, führe die Zelle aus und "
              "prüfe dann noch einmal.",
        "en": "Your code still has one open gap (...). Fill in it, run the cell, then check again.",
    },
    "check.gaps": {
        "de": "In deinem Code sind noch {gaps} Lücken (...) offen. Fülle alle aus, führe die Zelle aus "
              "und prüfe dann noch einmal.",
        "en": "Your code still has {gaps} open gaps (...). Fill in all of them, run the cell, then "
              "check again.",
    },
    "check.pick_own": {
        "de": "Die folgenden Zellen verwenden deine Fassung von {name}.",
        "en": "The following cells use your {name}.",
    },
    "check.pick_reference": {
        "de": "Die folgenden Zellen verwenden agentlibs {name}, weil deine Fassung die Prüfung noch "
              "nicht bestanden hat.",
        "en": "The following cells use agentlib's {name}, because your version has not passed the "
              "check yet.",
    },
}
