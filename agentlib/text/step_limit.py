"""Learner-facing text: exercise 2 (notebook 05): max_steps=2."""

TEXT = {
    "step_limit.hint": {
        "de": "run_agent hat einen Parameter, der die Zahl der Schritte begrenzt; help(run_agent) "
              "zeigt seine Parameter. Übergib ihn als Schlüsselwort und pack das Ergebnis wie gewohnt "
              "in zwei Namen aus.",
        "en": "run_agent has a parameter that limits the number of steps; help(run_agent) shows its "
              "parameters. Pass it as a keyword and unpack the result into two names, as usual.",
    },
    "step_limit.ended_answer": {
        "de": "mit einer Antwort",
        "en": "with an answer",
    },
    "step_limit.ended_limit": {
        "de": "am Schrittlimit",
        "en": "at the step limit",
    },
    "step_limit.ended_error": {
        "de": "mit einem Fehler",
        "en": "with an error",
    },
    "step_limit.wrong_run": {
        "de": "Der Lauf hatte {steps} Schritte und endete {ended}. Das Limit, um das es hier geht, "
              "sind zwei Schritte.",
        "en": "The run had {steps} steps and ended {ended}. The limit this exercise is about is two "
              "steps.",
    },
    "step_limit.note.what": {
        "de": "answer2, stats2 = run_agent(...), mit höchstens zwei Schritten",
        "en": "answer2, stats2 = run_agent(...), with two steps at most",
    },
    "step_limit.not_stats": {
        "de": "stats2 sollte die Statistik sein, die run_agent(...) als Zweites zurückgibt, ist aber "
              "{stats}.",
        "en": "stats2 should be the stats run_agent(...) returns second, but it is {stats}.",
    },
    "step_limit.correct": {
        "de": "Nach zwei Schritten war Schluss: Die Schleife hat das Modell nicht noch einmal gefragt, "
              "und run_agent gibt None als Antwort zurück. Die Suche war schon bezahlt, die Antwort "
              "fehlt. Ein zu knappes Limit verschwendet also Geld, ein zu großes auch.",
        "en": "After two steps it was over: the loop did not ask the model again, and run_agent "
              "returns None as the answer. The searching was paid for, the answer is missing. A limit "
              "that is too tight wastes money, and so does one that is too loose.",
    },
    "step_limit.answered_early": {
        "de": "Das Modell hat schon nach höchstens zwei Schritten geantwortet, das Limit musste gar "
              "nicht greifen. Probier es mit dem Skriptmodell, um das Limit zuschlagen zu sehen.",
        "en": "The model answered within two steps, so the limit never had to fire. Try the scripted "
              "model to watch the limit strike.",
    },
}
