"""Exercise 4 (notebook 07): a question the docs do not answer; read the run's trace.

q = exercise(4, "de")
q.check(stats4, tool_steps, keywords)
"""

import json

from ...loop import Stats
from ...messages import Call, Message
from ..text import LANGUAGES, say
from .base import NOT_ATTEMPTED, Exercise, short
from .skeleton import cells

TEXT = {
    "hint": {
        "de": 'Blättere im Trace-Viewer Schritt für Schritt durch den Lauf. Jeder Schritt mit "Das Modell ruft auf" zählt, egal welches Werkzeug. Die Stichwörter stehen in den Argumenten von grep_docs, z. B. {{"keyword": "timeout"}}.',
        "en": 'Step through the run in the trace viewer. Every step with "The model calls" counts, whichever tool it calls. The keywords are in grep_docs\'s arguments, e.g. {{"keyword": "timeout"}}.',
    },
    "question": {
        "de": "Unterstützt httpx HTTP/3? Belege es mit der Doku.",
        "en": "Does httpx support HTTP/3? Cite the docs.",
    },
    "script_answer": {
        "de": 'Die Doku erwähnt HTTP/3 nirgends: Die Suche nach "HTTP/3" und "http3" fand nichts. Sie beschreibt HTTP/2 als optionale Fähigkeit des Clients (http2.md, Zeilen 1-5). Ob httpx HTTP/3 kann, kann ich mit dieser Doku also nicht belegen.',
        "en": 'The docs never mention HTTP/3: searching for "HTTP/3" and "http3" found nothing. They describe HTTP/2 as an optional client feature (http2.md, lines 1-5). So I cannot show from these docs whether httpx supports HTTP/3.',
    },
    "missing_one": {
        "de": "Es fehlt noch ein Stichwort: grep_docs wurde öfter aufgerufen, als deine Liste Einträge hat.",
        "en": "One keyword is still missing: grep_docs was called more often than your list has entries.",
    },
    "missing_more": {
        "de": "Es fehlt noch mehr als ein Stichwort: grep_docs wurde öfter aufgerufen, als deine Liste Einträge hat.",
        "en": "More than one keyword is still missing: grep_docs was called more often than your list has entries.",
    },
    "one_step": {
        "de": "{calling} Schritt mit Werkzeugaufruf, gesucht wurde nach {searched}. {honest}",
        "en": "{calling} step with tool calls; the searches were for {searched}. {honest}",
    },
    "steps": {
        "de": "{calling} Schritte mit Werkzeugaufruf, gesucht wurde nach {searched}. {honest}",
        "en": "{calling} steps with tool calls; the searches were for {searched}. {honest}",
    },
    "nothing": {"de": "nichts", "en": "nothing"},
    "note.steps": {
        "de": "eine Zahl: in wie vielen Schritten rief das Modell ein Werkzeug auf?",
        "en": "a number: in how many steps did the model call a tool?",
    },
    "note.keywords": {
        "de": 'die Stichwörter von grep_docs, der Reihe nach, z. B. ["timeout"]',
        "en": 'the keywords grep_docs was given, in order, e.g. ["timeout"]',
    },
    "note.how": {
        "de": "im Trace ablesen, oder Python zählen lassen:",
        "en": "read it off the trace, or let Python count:",
    },
    "gap_left": {
        "de": "Bei {open_gaps} steht noch ... : Trag dort ein, was du im Trace abgelesen hast, und prüfe dann noch einmal.",
        "en": "{open_gaps} still holds ... : fill in what you read off the trace, then check again.",
    },
    "not_stats": {
        "de": "Übergib als Erstes die Statistik des Laufs (stats4).",
        "en": "Pass the run's stats (stats4) first.",
    },
    "not_a_number": {
        "de": "tool_steps ist {tool_steps}, keine Zahl. Schreib die Zahl ohne Anführungszeichen, z. B. tool_steps = 5.",
        "en": "tool_steps is {tool_steps}, not a number. Write the number without quotes, e.g. tool_steps = 5.",
    },
    "wrong_steps": {
        "de": "tool_steps = {tool_steps} passt nicht zum Trace. Zähle jeden Schritt, in dem das Modell mindestens ein Werkzeug aufruft, egal welches: Suchen und Lesen zählen, der Schritt mit der Antwort ruft keins auf.",
        "en": "tool_steps = {tool_steps} does not match the trace. Count every step in which the model calls at least one tool, whichever it is: searching and reading count, the step with the answer calls none.",
    },
    "not_a_list": {
        "de": 'keywords ist {keywords}; notiere die Stichwörter als Liste von Texten, z. B. ["timeout", "pool"].',
        "en": 'keywords is {keywords}; note the keywords as a list of texts, e.g. ["timeout", "pool"].',
    },
    "never_sent": {
        "de": "{never} hat grep_docs in diesem Lauf nie bekommen. Schau in jedem grep_docs-Aufruf nach dem Argument keyword, genau so geschrieben.",
        "en": "grep_docs was never given {never} in this run. Look at the argument keyword of each grep_docs call, spelt exactly as there.",
    },
    "order": {
        "de": "Die Stichwörter stimmen, aber nicht ihre Reihenfolge oder Anzahl: Notiere jedes so oft und in der Reihenfolge, wie grep_docs es bekam.",
        "en": "The keywords are right, but not their order or number: note each one as often and in the order grep_docs was given it.",
    },
    "read_answer": {
        "de": "Lies jetzt die Antwort: Sagt sie ehrlich, dass die Doku dazu nichts enthält, oder rät sie? Genau dafür steht im Systemprompt der Satz über fehlende Belege.",
        "en": "Now read the answer: does it say honestly that the docs have nothing on it, or does it guess? That is what the system prompt's sentence about missing evidence is for.",
    },
}

HTTP3_QUESTION = {language: say(TEXT, "question", language) for language in LANGUAGES}


class Unanswerable(Exercise):
    """Read a run's trace: in how many steps the model called a tool, and which keywords grep_docs got."""

    AREA, TEXT, NAME = "unanswerable", TEXT, "stats4"
    SKELETON = cells(TEXT, "\ntool_steps = ...  # <steps>\nkeywords = ...  # <keywords>\n")
    SOLUTION = cells(
        TEXT,
        """
import json

# <how>
tool_steps = sum(1 for step in stats4.trace.steps if step.calls)
keywords = [json.loads(call.arguments)["keyword"]
            for step in stats4.trace.steps for call in step.calls if call.name == "grep_docs"]
""",
    )

    def judge(self, stats, tool_steps, keywords):
        open_gaps = [
            name
            for name, value in (("tool_steps", tool_steps), ("keywords", keywords))
            if value is ... or value is None or (isinstance(value, list) and ... in value)
        ]
        if len(open_gaps) == 2:  # the run is given; the readings are the work
            return super().judge(...)
        if open_gaps:
            return NOT_ATTEMPTED, self.say("gap_left", open_gaps=open_gaps[0])
        return super().judge(stats, tool_steps, keywords)

    def evaluate(self, stats, tool_steps, keywords):
        if not isinstance(stats, Stats):
            raise self.wrong("not_stats")
        steps = stats.trace.steps
        calling = sum(1 for step in steps if step.calls)
        sent = [keyword(c.arguments) for step in steps for c in step.calls if c.name == "grep_docs"]
        if isinstance(tool_steps, bool) or not isinstance(tool_steps, int):
            raise self.wrong("not_a_number", tool_steps=short(tool_steps))
        if tool_steps != calling:
            raise self.wrong("wrong_steps", tool_steps=tool_steps)
        if not isinstance(keywords, (list, tuple)) or not all(isinstance(k, str) for k in keywords):
            raise self.wrong("not_a_list", keywords=short(keywords))
        if list(keywords) != sent:
            never = [k for k in keywords if k not in sent]
            if never:
                raise self.wrong("never_sent", never=short(never[0]))
            if len(keywords) < len(sent):
                raise self.wrong("missing_one" if len(sent) - len(keywords) == 1 else "missing_more")
            raise self.wrong("order")
        return self.say(
            "one_step" if calling == 1 else "steps",
            calling=calling,
            searched=", ".join(sent) or self.say("nothing"),
            honest=self.say("read_answer"),
        )


def keyword(arguments):
    """The keyword of grep_docs's JSON arguments, None where a real model sent none or broken JSON.

    Example: keyword('{"keyword": "http3"}') -> "http3"; keyword('{"keyword": ') -> None
    """
    try:
        found = json.loads(arguments or "{}")
    except ValueError:
        return None
    return found.get("keyword") if isinstance(found, dict) else None


def http3_script(language="en"):
    """A scripted agent that searches for HTTP/3, finds nothing, and says so."""
    return [
        Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "HTTP/3"})]),
        Message(tool_calls=[Call("c2", "grep_docs", {"keyword": "http3"})]),
        Message(tool_calls=[Call("c3", "read_doc", {"path": "http2.md", "start": 1, "end": 20})]),
        Message(content=say(TEXT, "script_answer", language)),
    ]
