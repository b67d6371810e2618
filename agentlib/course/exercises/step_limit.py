"""Exercise 2 (notebook 05): run with max_steps=2 and watch the limit fire.

    q = exercise(2, "de")
    q.check(answer2, stats2)
"""

from ...loop import Stats
from .base import INCORRECT, Exercise, both, short
from .skeleton import cells


class StepLimit(Exercise):
    """answer2, stats2 = run_agent(model, question, max_steps=2): the limit fires, the answer is None."""

    AREA = "step_limit"
    NAME = "stats2"

    def judge(self, *work):
        """Takes (answer2, stats2) as the notebook unpacks them, or the pair in one, or the stats alone."""
        if len(work) == 2 and work[0] is work[1] and isinstance(work[0], tuple) and len(work[0]) == 2:
            return INCORRECT, self.say("unpack")  # answer2 = stats2 = run_agent(...): both hold the pair
        if len(work) == 1 and isinstance(work[0], tuple) and len(work[0]) == 2:
            work = work[0]
        if len(work) == 2 and work[1] is not ... and work[1] is not None:
            work = (work[1],)  # the answer is None when the limit fires: the stats tell what happened
        elif len(work) == 2:
            work = (...,)
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

    HINT = both("step_limit.hint")
    SKELETON = cells("step_limit", "\nanswer2 = stats2 = ...  # <what>\n")
    SOLUTION = cells("step_limit", "\nanswer2, stats2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], "
                                   "max_steps=2)\n")
