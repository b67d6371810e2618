"""Exercise 4 (notebook 07): a question the docs do not answer; read the run's trace.

    q = exercise(4, "de")
    q.check(stats4, tool_steps, keywords)
"""

import json

from ...loop import Stats
from ...models import Call, Message
from ...text import say
from .base import LANGUAGES, NOT_ATTEMPTED, Exercise, both, short
from .skeleton import cells


HTTP3_QUESTION = {language: say("unanswerable.question", language) for language in LANGUAGES}


class Unanswerable(Exercise):
    """Read a run's trace: in how many steps the model called a tool, and which keywords grep_docs got."""

    AREA = "unanswerable"
    NAME = "stats4"

    def judge(self, stats, tool_steps, keywords):
        open_gaps = [name for name, value in (("tool_steps", tool_steps), ("keywords", keywords))
                     if value is ... or value is None or (isinstance(value, list) and ... in value)]
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
        sent = [json.loads(c.arguments or "{}").get("keyword") for step in steps for c in step.calls
                if c.name == "grep_docs"]
        if isinstance(tool_steps, str) or isinstance(tool_steps, bool) or not isinstance(tool_steps, int):
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
                one = len(sent) - len(keywords) == 1
                raise self.wrong("missing_one" if one else "missing_more")
            raise self.wrong("order")
        honest = self.say("read_answer")
        return self.say("one_step" if calling == 1 else "steps", calling=calling,
                        searched=", ".join(sent) or self.say("nothing"), honest=honest)

    HINT = both("unanswerable.hint")
    SKELETON = cells("unanswerable", '''
tool_steps = ...  # <steps>
keywords = ...  # <keywords>
''')
    SOLUTION = cells("unanswerable", '''
import json

# <how>
tool_steps = sum(1 for step in stats4.trace.steps if step.calls)
keywords = [json.loads(call.arguments)["keyword"]
            for step in stats4.trace.steps for call in step.calls if call.name == "grep_docs"]
''')


def http3_script(language="en"):
    """A scripted agent that searches for HTTP/3, finds nothing, and says so."""
    answer = say("unanswerable.script_answer", language)
    return [Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "HTTP/3"})]),
            Message(tool_calls=[Call("c2", "grep_docs", {"keyword": "http3"})]),
            Message(tool_calls=[Call("c3", "read_doc", {"path": "http2.md", "start": 1, "end": 20})]),
            Message(content=answer)]
