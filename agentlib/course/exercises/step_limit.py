"""Exercise 2 (notebook 05): run with max_steps=2 and watch the limit fire.

q = exercise(2, "de")
q.check(answer2, stats2)
"""

from ...loop import Stats
from .base import INCORRECT, Exercise, short
from .skeleton import cells

TEXT = {
    "hint": {
        "de": "run_agent hat einen Parameter, der die Zahl der Schritte begrenzt; help(run_agent) zeigt seine Parameter. Übergib ihn als Schlüsselwort und pack das Ergebnis wie gewohnt in zwei Namen aus.",
        "en": "run_agent has a parameter that limits the number of steps; help(run_agent) shows its parameters. Pass it as a keyword and unpack the result into two names, as usual.",
    },
    "ended_answer": {"de": "mit einer Antwort", "en": "with an answer"},
    "ended_limit": {"de": "am Schrittlimit", "en": "at the step limit"},
    "ended_error": {"de": "mit einem Fehler", "en": "with an error"},
    "wrong_run": {
        "de": "Der Lauf hatte {steps} Schritte und endete {ended}. Das Limit, um das es hier geht, sind zwei Schritte.",
        "en": "The run had {steps} steps and ended {ended}. The limit this exercise is about is two steps.",
    },
    "note.what": {
        "de": "answer2, stats2 = run_agent(...), mit höchstens zwei Schritten",
        "en": "answer2, stats2 = run_agent(...), with two steps at most",
    },
    "unpack": {
        "de": "answer2 und stats2 sind beide das ganze Paar, das run_agent zurückgibt: Die Kette mit zwei Gleichheitszeichen gibt beiden Namen dasselbe. Pack das Paar in zwei Namen aus – durch ein Komma getrennt, mit einem einzigen Gleichheitszeichen.",
        "en": "answer2 and stats2 both hold the whole pair run_agent returns: a chain of two equals signs gives both names the same thing. Unpack the pair into two names – separated by a comma, with a single equals sign.",
    },
    "not_stats": {
        "de": "stats2 sollte die Statistik sein, die run_agent(...) als Zweites zurückgibt, ist aber {stats}.",
        "en": "stats2 should be the stats run_agent(...) returns second, but it is {stats}.",
    },
    "correct": {
        "de": "Nach zwei Schritten war Schluss: Die Schleife hat das Modell nicht noch einmal gefragt, und run_agent gibt None als Antwort zurück. Die Suche war schon bezahlt, die Antwort fehlt. Ein zu knappes Limit verschwendet also Geld, ein zu großes auch.",
        "en": "After two steps it was over: the loop did not ask the model again, and run_agent returns None as the answer. The searching was paid for, the answer is missing. A limit that is too tight wastes money, and so does one that is too loose.",
    },
    "answered_early": {
        "de": "Das Modell hat schon nach höchstens zwei Schritten geantwortet, das Limit musste gar nicht greifen. Probier es mit dem Skriptmodell, um das Limit zuschlagen zu sehen.",
        "en": "The model answered within two steps, so the limit never had to fire. Try the scripted model to watch the limit strike.",
    },
}


class StepLimit(Exercise):
    """answer2, stats2 = run_agent(model, question, max_steps=2): the limit fires, the answer is None."""

    AREA, TEXT, NAME = "step_limit", TEXT, "stats2"
    SKELETON = cells(TEXT, "\nanswer2 = stats2 = ...  # <what>\n")
    SOLUTION = cells(
        TEXT, "\nanswer2, stats2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=2)\n"
    )

    def judge(self, *work):
        """Takes (answer2, stats2) as the notebook unpacks them, or the pair in one, or the stats alone."""
        if len(work) == 2 and work[0] is work[1] and isinstance(work[0], tuple) and len(work[0]) == 2:
            return INCORRECT, self.say("unpack")  # answer2 = stats2 = run_agent(...): both hold the pair
        if len(work) == 1 and isinstance(work[0], tuple) and len(work[0]) == 2:
            work = work[0]
        if len(work) == 2:  # the answer is None when the limit fires: the stats tell what happened
            work = (work[1] if work[1] is not None else ...,)
        return super().judge(*work)

    def evaluate(self, stats):
        if not isinstance(stats, Stats):
            raise self.wrong("not_stats", stats=short(stats))
        trace = stats.trace
        if trace.stop_reason == "max_steps" and stats.steps == 2:
            return self.say("correct")
        if trace.stop_reason == "answer" and stats.steps <= 2:
            return self.say("answered_early")
        ended = self.say({"answer": "ended_answer", "max_steps": "ended_limit"}.get(trace.stop_reason, "ended_error"))
        raise self.wrong("wrong_run", steps=stats.steps, ended=ended)
