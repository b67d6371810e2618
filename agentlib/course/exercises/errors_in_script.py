"""Exercise 1 (notebook 05): two broken calls in the script, and the loop still ends with an answer.

    q = exercise(1, "de")
    q.check(my_script, run_agent)   # the loop is optional: the student's, as the set-up cell hands it on
"""

import json

from ...lesson import QUESTION
from ...loop import run_agent
from ...models import Message, ScriptedModel
from ..text import LANGUAGES
from .base import Exercise, short

TEXT = {
    "hint": {"de": 'Nimm lesson_script(LANGUAGE) als Ausgangspunkt und stelle zwei Schritte davor: Message(tool_calls=[Call("x1", "search_web", {{"query": "httpx timeout"}})]) und einen read_doc-Aufruf mit {{"path": "advanced/timeouts.md", "start": "abc"}}. Jeder Schritt ist eine Message; die letzte muss eine Antwort ohne Werkzeugaufruf sein.',
             "en": 'Start from lesson_script(LANGUAGE) and put two steps in front of it: Message(tool_calls=[Call("x1", "search_web", {{"query": "httpx timeout"}})]) and a read_doc call with {{"path": "advanced/timeouts.md", "start": "abc"}}. Each step is one Message; the last one must be an answer without tool calls.'},
    "nested_list": {"de": "my_script enthält an Stelle {index} eine Liste statt einer Message: Eine Liste in der Liste ist kein Schritt. Die Schritte von lesson_script(...) gehören einzeln hinein – pack die Liste aus.",
                    "en": "my_script holds a list at position {index} instead of a Message: a list inside the list is no step. The steps of lesson_script(...) belong in it one by one – unpack that list."},
    "not_a_script": {"de": "my_script sollte eine Liste von Message-Objekten sein, wie lesson_script(...) sie liefert.",
                     "en": "my_script should be a list of Message objects, like the one lesson_script(...) returns."},
    "no_unknown_tool": {"de": 'Im Skript fehlt ein Aufruf des Werkzeugs search_web, das es nicht gibt: Call("x1", "search_web", {{"query": "..."}}).',
                        "en": 'The script lacks a call to the tool search_web, which does not exist: Call("x1", "search_web", {{"query": "..."}}).'},
    "no_bad_start": {"de": 'Im Skript fehlt ein read_doc-Aufruf mit falsch getyptem start, z. B. start="abc".',
                     "en": 'The script lacks a read_doc call with a wrongly typed start, e.g. start="abc".'},
    "no_answer": {"de": 'Der Lauf endete ohne Antwort: {why_stopped} Lass das Skript mit einer Antwort enden: Message(content="...").',
                  "en": 'The run ended without an answer: {why_stopped} End the script with an answer: Message(content="...").'},
    "no_error": {"de": "{name}({arguments}) hat keinen Fehler gemeldet, sondern {observation}.",
                 "en": "{name}({arguments}) reported no error but {observation}."},
    "correct": {"de": "Die Schleife ist nicht abgestürzt. Beide Fehler kamen als Text zum Modell zurück:\n- {observation}\n- {typed_0_observation}\nDaraus kann das Modell ablesen, was es als Nächstes tun soll.",
                "en": "The loop did not crash. Both failures went back to the model as text:\n- {observation}\n- {typed_0_observation}\nA model can read from them what to do next."},
    "script_ran_out": {"de": "Nach {length} Schritten war das Skript zu Ende, und der letzte Schritt rief noch ein Werkzeug auf.",
                       "en": "after {length} steps the script had run out, and its last step still called a tool."},
    "model_error": {"de": "Das Modell meldete einen Fehler (Meldung: {stop_message}).",
                    "en": "the model reported an error (message: {stop_message})."},
    "limit_reached": {"de": "Das Schrittlimit ({steps}) war erreicht.", "en": "the step limit ({steps}) was reached."},
}


class ErrorsInScript(Exercise):
    """my_script must call search_web and read_doc(start="abc") and still end with an answer."""

    AREA, TEXT, NAME = "errors_in_script", TEXT, "run_agent(ScriptedModel(my_script), …)"
    SOLUTION = dict.fromkeys(LANGUAGES, '''my_script = [
    Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]),
    Message(tool_calls=[Call("x2", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
    *lesson_script(LANGUAGE),
]''')

    def judge(self, script, loop=None):
        self.loop = loop or run_agent  # whose loop plays the script: the notebook's, else agentlib's
        return super().judge(script)

    def evaluate(self, script):
        if isinstance(script, list) and any(isinstance(m, (list, tuple)) for m in script):
            raise self.wrong("nested_list", index=next(i for i, m in enumerate(script) if isinstance(m, (list, tuple))))
        if not isinstance(script, list) or not all(isinstance(m, Message) for m in script):
            raise self.wrong("not_a_script")
        answer, stats = self.loop(ScriptedModel(script), QUESTION[self.language], max_steps=len(script) + 1)
        print()
        calls = [call for step in stats.trace.steps for call in step.calls]
        unknown = [c for c in calls if c.name == "search_web"]
        typed = [c for c in calls if c.name == "read_doc" and bad_start(c.arguments)]
        if not unknown:
            raise self.wrong("no_unknown_tool")
        if not typed:
            raise self.wrong("no_bad_start")
        if stats.trace.stop_reason != "answer":
            raise self.wrong("no_answer", why_stopped=self.why_stopped(stats, len(script)))
        failed = [c for c in unknown + typed if not failure(c)]
        if failed:
            raise self.wrong("no_error", name=failed[0].name, arguments=failed[0].arguments,
                             observation=short(failed[0].observation))
        return self.say("correct", observation=unknown[0].observation, typed_0_observation=typed[0].observation)

    def why_stopped(self, stats, length):
        if stats.trace.stop_reason == "error" and stats.steps == length:  # the model was asked for one step more
            return self.say("script_ran_out", length=length)
        if stats.trace.stop_reason == "error":
            return self.say("model_error", stop_message=short(stats.trace.stop_message))
        return self.say("limit_reached", steps=stats.steps)


def failure(call):
    """True when a call's observation reports a failure, in any loop's words. Example: "Error: no tool ..." -> True"""
    said = (call.observation or "").lower()
    return call.error or any(word in said for word in ("error", "fehler", "no tool", "kein werkzeug"))


def bad_start(arguments):
    """True when the JSON arguments carry a `start` that is no whole number. Example: '{"start": "abc"}' -> True"""
    try:
        start = json.loads(arguments).get("start")
    except (json.JSONDecodeError, AttributeError):
        return False
    return start is not None and not (isinstance(start, int) or (isinstance(start, str) and start.strip().isdigit()))
