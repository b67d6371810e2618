"""Replay a recorded run of a real model, offline and free.

Record once, with a key: `answer, stats = run_agent(RealModel(), question)`,
then `stats.trace.save("run.json")`. Anyone can replay it without a key:
`run_agent(ReplayModel.load("run.json"), question)` prints the same steps.

A replay is honest only while the conversation is the one recorded. So at
every step the model compares the messages it is given with the recording
and stops with a ModelError that says where they differ: another question,
another system prompt, a tool that now returns something else.

Deliberately left out: replaying with changes ("what if step 2 had read
another file") — that question needs a real model.
"""

import json
from pathlib import Path

from .errors import ModelError, explain
from .models import Call, Message, Usage
from .trace import Trace

SENTENCES = {
    "unknown_question": {
        "en": "No recording answers the question {question!r}: replay needs the recorded question word for "
              "word; record this one with a real model first.",
        "de": "Keine Aufnahme beantwortet die Frage {question!r}: Eine Wiedergabe braucht die aufgenommene Frage "
              "Wort für Wort; nimm diese erst mit einem echten Modell auf."},
    "diverged": {
        "en": "The conversation left the recording at message {index} ({what}): the replay only fits the "
              "recorded run with the same question, system prompt, tools and docs; undo the change or record "
              "a new run with a real model.",
        "de": "Das Gespräch weicht bei Nachricht {index} von der Aufnahme ab ({what}): Die Wiedergabe passt nur "
              "zum aufgenommenen Lauf mit derselben Frage, demselben Systemprompt, denselben Tools und Dokumenten; "
              "nimm die Änderung zurück oder nimm einen neuen Lauf mit einem echten Modell auf."},
    "ended": {
        "en": "The recording has only {steps} steps (the recorded run stopped: {why}): replay it with a "
              "max_steps of {steps} or less.",
        "de": "Die Aufnahme hat nur {steps} Schritte (der aufgenommene Lauf endete: {why}): Spiel sie mit "
              "max_steps von höchstens {steps} ab."},
}
WHAT = {
    "en": {"length": "{got} messages instead of the recorded {expected}", "system": "another system prompt",
           "user": "another question", "tool": "another result from {name}", "assistant": "another model reply",
           "tools": "other tools than were recorded"},
    "de": {"length": "{got} Nachrichten statt der aufgenommenen {expected}", "system": "ein anderer Systemprompt",
           "user": "eine andere Frage", "tool": "ein anderes Ergebnis von {name}",
           "assistant": "eine andere Antwort des Modells", "tools": "andere Tools als bei der Aufnahme"},
}


class ReplayModel:
    """Answers each step with the recorded reply, after checking the conversation is the recorded one.

    Holds one or several traces (e.g. a recorded evaluation) and picks the
    one whose question is asked. `name` is the recorded model's: every reply
    is that model's, and so are the reported tokens.
    """

    def __init__(self, traces, language="en"):
        self.traces = [traces] if isinstance(traces, Trace) else list(traces)
        if not self.traces:
            raise ValueError("ReplayModel needs at least one recorded trace")
        self.language = language
        self.name = ", ".join(sorted({trace.model or "unknown model" for trace in self.traces}))

    @classmethod
    def load(cls, path, language="en"):
        """Load one saved trace, or every *.json trace in a folder."""
        path = Path(path)
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        if not files or not files[0].exists():
            raise FileNotFoundError(f"no recording at {str(path)!r}; save one with stats.trace.save(path)")
        return cls([Trace.load(file) for file in files], language)

    def __call__(self, messages, tools):
        given = json.loads(json.dumps(messages))  # the recording went through JSON too
        question = next(m["content"] for m in given if m["role"] == "user")
        candidates = [t for t in self.traces if t.question == question]
        if not candidates:
            raise explain("unknown_question", self.language, SENTENCES, question=question[:80])
        step = sum(m["role"] == "assistant" for m in given)
        problems = [divergence(t, step, given, tools, self.language) for t in candidates]
        if all(problems):
            raise explain("diverged", self.language, SENTENCES, **problems[0])
        trace = candidates[problems.index(None)]
        if step == len(trace.records):  # the recorded run stopped before this step
            if trace.stop_reason == "error":
                raise ModelError(trace.stop_message, "replayed_error")
            raise explain("ended", self.language, SENTENCES, steps=step,
                          why=trace.stop_message or trace.stop_reason)
        return reply(trace, step)


def divergence(trace, step, given, tools, language):
    """None when `given` is what the recording showed the model at `step`, else where it differs.

    Example: the recording had system prompt A, now it is B -> {"index": 1, "what": "another system prompt"}
    """
    what = WHAT.get(language, WHAT["en"])
    recorded_tools = getattr(trace, "tools", None)  # only traces that saved their tools can check them
    if recorded_tools and json.loads(json.dumps(tools)) != recorded_tools:
        return {"index": 0, "what": what["tools"]}
    at = trace.records[step]["at"] if step < len(trace.records) else len(trace.messages)
    expected = trace.messages[:at]
    for index, (old, new) in enumerate(zip(expected, given), 1):
        if old != new:
            name = next((c["function"]["name"] for m in expected for c in m.get("tool_calls", [])
                         if c["id"] == old.get("tool_call_id")), "a tool")
            return {"index": index, "what": what.get(old["role"], what["assistant"]).format(name=name)}
    if len(expected) != len(given):
        return {"index": min(len(expected), len(given)) + 1,
                "what": what["length"].format(got=len(given), expected=len(expected))}
    return None


def reply(trace, step):
    """The recorded reply of `step` as (Message, Usage), shaped as the model sent it."""
    record = trace.records[step]
    recorded = trace.messages[record["at"]]
    calls = [Call(c["function"]["name"], c["function"]["arguments"], c["id"])
             for c in recorded.get("tool_calls", [])]
    extra = {k: v for k, v in recorded.items() if k not in ("role", "content", "tool_calls")}
    usage = record["usage"] and Usage(**record["usage"])
    return Message(recorded.get("content"), calls or None, record["finish_reason"], extra), usage
