"""Exercise 1 (notebook 05): two broken calls in a script, the loop still ends with an answer, and the verdict
says what each failure's text really tells the model.

    q = exercise(1, "de")
    q.check(my_script, run_agent)   # the loop is optional: the student's, as the set-up cell hands it on
"""

import json

from ...lesson import QUESTION
from ...loop import run_agent
from ...messages import Message
from ...models import ScriptedModel
from ..text import LANGUAGES, say
from .base import INCORRECT, Exercise, short
from .skeleton import cells

TEXT = {
    "hint": {
        "de": 'Fülle die drei Lücken mit je einer Message: Message(tool_calls=[Call("x1", "search_web", {{"query": "httpx timeout"}})]), dann ein read_doc-Aufruf mit {{"path": "advanced/timeouts.md", "start": "abc"}}, zuletzt eine Antwort ohne Werkzeugaufruf: Message(content="...").',
        "en": 'Fill each of the three gaps with a Message: Message(tool_calls=[Call("x1", "search_web", {{"query": "httpx timeout"}})]), then a read_doc call with {{"path": "advanced/timeouts.md", "start": "abc"}}, last an answer without tool calls: Message(content="...").',
    },
    "gap.unknown": {
        "de": "ein Aufruf von search_web, einem Werkzeug, das es nicht gibt",
        "en": "a call to search_web, a tool that does not exist",
    },
    "gap.typed": {
        "de": 'ein read_doc-Aufruf mit falsch getyptem Argument: start="abc"',
        "en": 'a read_doc call with a wrongly typed argument: start="abc"',
    },
    "gap.answer": {
        "de": 'die Antwort, die den Lauf beendet: Message(content="...")',
        "en": 'the answer that ends the run: Message(content="...")',
    },
    "gap_left": {
        "de": "my_script enthält an Stelle {index} noch ... : Setz dort eine Message(...) ein und prüfe dann noch einmal.",
        "en": "my_script still holds ... at position {index}: put a Message(...) there, then check again.",
    },
    "nested_list": {
        "de": "my_script enthält an Stelle {index} eine Liste statt einer Message: Eine Liste in der Liste ist kein Schritt. Die Schritte von lesson_script(...) gehören einzeln hinein – pack die Liste aus.",
        "en": "my_script holds a list at position {index} instead of a Message: a list inside the list is no step. The steps of lesson_script(...) belong in it one by one – unpack that list.",
    },
    "not_a_script": {
        "de": "my_script sollte eine Liste von Message-Objekten sein, wie lesson_script(...) sie liefert.",
        "en": "my_script should be a list of Message objects, like the one lesson_script(...) returns.",
    },
    "no_unknown_tool": {
        "de": 'Im Skript fehlt ein Aufruf des Werkzeugs search_web, das es nicht gibt: Call("x1", "search_web", {{"query": "..."}}).',
        "en": 'The script lacks a call to the tool search_web, which does not exist: Call("x1", "search_web", {{"query": "..."}}).',
    },
    "no_bad_start": {
        "de": 'Im Skript fehlt ein read_doc-Aufruf mit falsch getyptem start, z. B. start="abc".',
        "en": 'The script lacks a read_doc call with a wrongly typed start, e.g. start="abc".',
    },
    "no_answer": {
        "de": 'Der Lauf endete ohne Antwort: {why_stopped} Lass das Skript mit einer Antwort enden: Message(content="...").',
        "en": 'The run ended without an answer: {why_stopped} End the script with an answer: Message(content="...").',
    },
    "not_json": {
        "de": 'Der read_doc-Aufruf hat als Argumente {arguments!r}, und das ist kein JSON-Text. Die Regel: Die Argumente eines Aufrufs sind ein JSON-Objekt als Text (oder ein dict), z. B. \'{{"path": "advanced/timeouts.md", "start": "abc"}}\' – so kommt start wirklich mit dem falschen Typ an.',
        "en": 'The read_doc call has {arguments!r} as its arguments, and that is no JSON text. The rule: a call\'s arguments are a JSON object as text (or a dict), e.g. \'{{"path": "advanced/timeouts.md", "start": "abc"}}\' – that way start really arrives with the wrong type.',
    },
    "no_error": {
        "de": "{name}({arguments}) hat keinen Fehler gemeldet, sondern {observation}. Ein gescheiterter Aufruf muss als Fehlertext zum Modell zurückgehen, sonst hält es das Ergebnis für echt.",
        "en": "{name}({arguments}) reported no error but {observation}. A failed call must go back to the model as an error text, or it takes the result for real.",
    },
    "correct": {
        "de": "Die Schleife ist nicht abgestürzt: Beide Fehler kamen als Text zum Modell zurück.\n- {unknown}\n  {unknown_tells}\n- {typed}\n  {typed_tells}",
        "en": "The loop did not crash: both failures went back to the model as text.\n- {unknown}\n  {unknown_tells}\n- {typed}\n  {typed_tells}",
    },
    # What each observation tells the model, judged from its words, as the model would read them.
    "unknown.lists": {
        "de": "Das Modell erfährt, dass es search_web nicht gibt und welche Werkzeuge es gibt: Es kann eines davon wählen.",
        "en": "The model learns that search_web does not exist and which tools do: it can pick one of them.",
    },
    "unknown.names": {
        "de": "Das Modell erfährt, dass es search_web nicht gibt, aber nicht, welche Werkzeuge es gibt; die muss es den Werkzeugbeschreibungen entnehmen, die bei jedem Aufruf mitgehen.",
        "en": "The model learns that search_web does not exist, but not which tools do; it has to take those from the tool descriptions sent with every call.",
    },
    "unknown.vague": {
        "de": "Das Modell erfährt nur, dass etwas schiefging, nicht einmal, dass es search_web nicht gibt; ein Satz wie „no tool called search_web; the tools are: …“ sagte es ihm.",
        "en": 'The model only learns that something went wrong, not even that search_web does not exist; a sentence such as "no tool called search_web; the tools are: …" would tell it.',
    },
    "typed.fix": {
        "de": "Das Modell erfährt, welches Argument falsch war und was dort hingehört: Es kann den Aufruf richtig wiederholen.",
        "en": "The model learns which argument was wrong and what belongs there: it can repeat the call correctly.",
    },
    "typed.names": {
        "de": "Das Modell erfährt, dass start falsch war, aber nicht, was dort hingehört.",
        "en": "The model learns that start was wrong, but not what belongs there.",
    },
    "typed.vague": {
        "de": "Das sagt nicht, welches Argument falsch war oder was dort hingehört: Das Modell muss es aus seinem eigenen Aufruf erraten. Ein Satz wie „start must be an integer, e.g. 1“ sagte es ihm; agentlibs Schleife prüft die Argumente vor dem Aufruf am Schema des Werkzeugs und sagt genau das.",
        "en": "This does not say which argument was wrong or what belongs there: the model has to guess it from its own call. A sentence such as \"start must be an integer, e.g. 1\" would tell it; agentlib's loop checks the arguments against the tool's schema before the call and says just that.",
    },
    "done": {"de": "Fertig.", "en": "Done."},
    "script_ran_out": {
        "de": "Nach {length} Schritten war das Skript zu Ende, und der letzte Schritt rief noch ein Werkzeug auf.",
        "en": "after {length} steps the script had run out, and its last step still called a tool.",
    },
    "model_error": {
        "de": "Das Modell meldete einen Fehler (Meldung: {stop_message}).",
        "en": "the model reported an error (message: {stop_message}).",
    },
    "limit_reached": {"de": "Das Schrittlimit ({steps}) war erreicht.", "en": "the step limit ({steps}) was reached."},
}
TOOL_NAMES = ("list_docs", "grep_docs", "read_doc")  # the lesson's tools, which a helpful refusal names
TYPE_WORDS = ("integer", "whole number", "number", "ganze zahl", "zahl")  # words that say what start must be
# The script with its three gaps; the solution fills them with these steps.
TEMPLATE = "\nmy_script = [\n    <<unknown>>,\n    <<typed>>,\n    <<answer>>,\n]\n"
STEPS = {
    "unknown": 'Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})])',
    "typed": 'Message(tool_calls=[Call("x2", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})])',
}


class ErrorsInScript(Exercise):
    """my_script must call search_web and read_doc(start="abc") and still end with an answer."""

    AREA, TEXT, NAME = "errors_in_script", TEXT, "run_agent(ScriptedModel(my_script), …)"
    SKELETON = cells(TEXT, TEMPLATE)
    SOLUTION = {
        language: cells(
            TEXT, TEMPLATE, solved=True, code=STEPS | {"answer": f'Message(content="{say(TEXT, "done", language)}")'}
        )[language]
        for language in LANGUAGES
    }

    def judge(self, script, loop=None):
        self.loop = loop or run_agent  # whose loop plays the script: the notebook's, else agentlib's
        if isinstance(script, list) and script and all(m is ... for m in script):
            return super().judge(...)
        if isinstance(script, list) and any(m is ... for m in script):
            return INCORRECT, self.say("gap_left", index=next(i for i, m in enumerate(script) if m is ...))
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
            broken = [c for c in calls if c.name == "read_doc" and not json_object(c.arguments)]
            if broken:
                raise self.wrong("not_json", arguments=broken[0].arguments)
            raise self.wrong("no_bad_start")
        if stats.trace.stop_reason != "answer":
            raise self.wrong("no_answer", why_stopped=self.why_stopped(stats, len(script)))
        failed = [c for c in unknown + typed if not failure(c)]
        if failed:
            raise self.wrong(
                "no_error", name=failed[0].name, arguments=failed[0].arguments, observation=short(failed[0].observation)
            )
        unknown, typed = unknown[0].observation, typed[0].observation
        return self.say(
            "correct",
            unknown=unknown,
            typed=typed,
            unknown_tells=self.say(unknown_tells(unknown)),
            typed_tells=self.say(typed_tells(typed)),
        )

    def why_stopped(self, stats, length):
        if stats.trace.stop_reason == "error" and stats.steps == length:  # the model was asked for one step more
            return self.say("script_ran_out", length=length)
        if stats.trace.stop_reason == "error":
            return self.say("model_error", stop_message=short(stats.trace.stop_message))
        return self.say("limit_reached", steps=stats.steps)


def unknown_tells(observation):
    """What an unknown tool's observation tells the model. Example: "Error: KeyError: 'search_web'" -> unknown.names"""
    if all(name in observation for name in TOOL_NAMES):
        return "unknown.lists"
    return "unknown.names" if "search_web" in observation else "unknown.vague"


def typed_tells(observation):
    """What a wrongly typed start's observation tells the model.

    Example: "Error: TypeError: '<' not supported between instances of 'str' and 'int'" -> typed.vague
    """
    if "start" not in observation:
        return "typed.vague"
    return "typed.fix" if any(word in observation.lower() for word in TYPE_WORDS) else "typed.names"


def failure(call):
    """True when a call's observation reports a failure, in any loop's words. Example: "Error: no tool ..." -> True"""
    said = (call.observation or "").lower()
    return call.error or any(word in said for word in ("error", "fehler", "no tool", "kein werkzeug"))


def json_object(arguments):
    """True when `arguments` is JSON text of an object. Example: 'start="abc"' -> False; '{"start": "abc"}' -> True"""
    try:
        return isinstance(json.loads(arguments), dict)
    except (json.JSONDecodeError, TypeError):
        return False


def bad_start(arguments):
    """True when the JSON arguments carry a `start` that is no whole number. Example: '{"start": "abc"}' -> True"""
    try:
        start = json.loads(arguments).get("start")
    except (json.JSONDecodeError, AttributeError):
        return False
    return start is not None and not (isinstance(start, int) or (isinstance(start, str) and start.strip().isdigit()))
