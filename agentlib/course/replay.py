"""A recorded run of a real model, played back offline: no key, no cost, the same replies.

    stats.trace.save("run.json")                                      # once, with a key
    answer, stats = run_agent(ReplayModel.load("run.json"), question)  # anyone, any time, offline

A replay is honest only while the conversation is the recorded one, so every step compares the
messages it is given with the recording and stops, with one sentence, where they differ.
Deliberately left out: replaying a run whose question, prompt, tools or docs changed.
"""

import json
from pathlib import Path

from ..errors import ModelError, explain
from ..models import Call, Message, Usage
from ..trace import Trace
from .text import say

TEXT = {
    # ReplayModel's failures, worded like the API's.
    "unknown_question": {
        "de": "Keine Aufnahme beantwortet die Frage {question!r}: Eine Wiedergabe braucht die aufgenommene Frage "
              "Wort für Wort; nimm diese erst mit einem echten Modell auf.",
        "en": "No recording answers the question {question!r}: replay needs the recorded question word for word; "
              "record this one with a real model first.",
    },
    "diverged": {
        "de": "Das Gespräch weicht bei Nachricht {index} von der Aufnahme ab ({what}): Die Wiedergabe passt nur zum"
              " aufgenommenen Lauf mit derselben Frage, demselben Systemprompt, denselben Tools und Dokumenten; "
              "nimm die Änderung zurück oder nimm einen neuen Lauf mit einem echten Modell auf.",
        "en": "The conversation left the recording at message {index} ({what}): the replay only fits the recorded "
              "run with the same question, system prompt, tools and docs; undo the change or record a new run with "
              "a real model.",
    },
    "ended": {
        "de": "Die Aufnahme hat nur {steps} Schritte (der aufgenommene Lauf endete: {why}): Spiel sie mit max_steps"
              " von höchstens {steps} ab.",
        "en": "The recording has only {steps} steps (the recorded run stopped: {why}): replay it with a max_steps "
              "of {steps} or less.",
    },
    # How a conversation left the recording (the {what} of diverged).
    "departed_length": {"de": "{got} Nachrichten statt der aufgenommenen {expected}",
                        "en": "{got} messages instead of the recorded {expected}"},
    "departed_system": {"de": "ein anderer Systemprompt", "en": "another system prompt"},
    "departed_user": {"de": "eine andere Frage", "en": "another question"},
    "departed_tool": {"de": "ein anderes Ergebnis von {name}", "en": "another result from {name}"},
    "departed_assistant": {"de": "eine andere Antwort des Modells", "en": "another model reply"},
    "departed_tools": {"de": "andere Tools als bei der Aufnahme", "en": "other tools than were recorded"},
}



class ReplayModel:
    """Answers each step with the recorded reply, after checking the conversation is the recorded one.

    Holds one or several traces (e.g. a recorded evaluation) and picks the one whose question is
    asked. `name` is the recorded model's, and so are the tokens.
    Example: ReplayModel.load("runs/")(messages, tools) -> (Message, Usage) of the recorded step
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
            raise explain("unknown_question", self.language, TEXT, question=question[:80])
        step = sum(m["role"] == "assistant" for m in given)
        problems = [divergence(t, step, given, tools, self.language) for t in candidates]
        if all(problems):
            raise explain("diverged", self.language, TEXT, **problems[0])
        trace = candidates[problems.index(None)]
        if step == len(trace.records):  # the recorded run stopped before this step
            if trace.stop_reason == "error":
                raise ModelError(trace.stop_message, "replayed_error")
            raise explain("ended", self.language, TEXT, steps=step, why=trace.stop_message or trace.stop_reason)
        record = trace.records[step]
        recorded = trace.messages[record["at"]]
        calls = [Call(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in recorded.get("tool_calls", [])]
        extra = {k: v for k, v in recorded.items() if k not in ("role", "content", "tool_calls")}  # reasoning_content
        usage = record["usage"] and Usage(**{k: v for k, v in record["usage"].items() if k in Usage.__dataclass_fields__})
        return Message(recorded.get("content"), calls or None, record["finish_reason"], extra), usage


def divergence(trace, step, given, tools, language):
    """None when `given` is what the recording showed the model at `step`, else where it differs.
    Example: another system prompt -> {"index": 1, "what": "another system prompt"}"""
    if trace.tools and json.loads(json.dumps(tools)) != trace.tools:  # only traces that saved their tools
        return {"index": 0, "what": say(TEXT, "departed_tools", language)}
    at = trace.records[step]["at"] if step < len(trace.records) else len(trace.messages)
    expected = trace.messages[:at]
    for index, (old, new) in enumerate(zip(expected, given), 1):
        if old != new:
            name = next((c["function"]["name"] for m in expected for c in m.get("tool_calls", [])
                         if c["id"] == old.get("tool_call_id")), "a tool")
            role = old["role"] if old["role"] in ("system", "user", "tool") else "assistant"
            return {"index": index, "what": say(TEXT, f"departed_{role}", language, name=name)}
    if len(expected) != len(given):
        return {"index": min(len(expected), len(given)) + 1,
                "what": say(TEXT, "departed_length", language, got=len(given), expected=len(expected))}
    return None
