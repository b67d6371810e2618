"""Notebook 04, before the loop: the student drives one step by hand and appends the two messages themselves.

    q_step = exercise("one_step", "de")
    q_step.check(messages)    # system, user, the model's message, one tool message for its call

The check reads the list as the API would: the model's message as a dict before its result, one `tool` message
with the call's id, the tool's own result as its text. Left out: which tool the student called it through.
"""

from ...lesson import lesson_script
from ...models import ScriptedModel
from ...tools import TOOLS, call_tool
from .base import NOT_ATTEMPTED, Exercise, short
from .loop import protocol, shape
from .skeleton import cells

TEXT = {
    "rule": {
        "de": "Die Regeln: Erst kommt die Nachricht des Modells in die Liste, als dict, so wie die API sie annimmt; dann zu seinem Aufruf genau eine tool-Nachricht, die die id des Aufrufs trägt und als Text das, was das Werkzeug zurückgab.",
        "en": "The rules: first the model's message goes into the list, as a dict, the way the API takes it; then, for its call, exactly one tool message that carries the call's id and, as its text, what the tool returned.",
    },
    "hint": {
        "de": 'Die Form: message, usage = model(messages, schemas); print(message); call = message.tool_calls[0]; result = TOOLS[call.function.name]["fn"](**json.loads(call.function.arguments)); dann messages.append(message.model_dump(exclude_none=True)) und messages.append({{"role": "tool", "tool_call_id": call.id, "content": result}}).',
        "en": 'The shape: message, usage = model(messages, schemas); print(message); call = message.tool_calls[0]; result = TOOLS[call.function.name]["fn"](**json.loads(call.function.arguments)); then messages.append(message.model_dump(exclude_none=True)) and messages.append({{"role": "tool", "tool_call_id": call.id, "content": result}}).',
    },
    "note.setup": {
        "de": "das Skriptmodell der Lektion, eine frische Liste, die Schemas",
        "en": "the lesson's scripted model, a fresh list, the schemas",
    },
    "note.ask": {
        "de": "1. das Modell einmal fragen und seine Nachricht ansehen: Was will es?",
        "en": "1. ask the model once and look at its message: what does it want?",
    },
    "note.run": {
        "de": "2. das Werkzeug ausführen, das es verlangt, mit seinen Argumenten",
        "en": "2. run the tool it asks for, with its arguments",
    },
    "note.append": {
        "de": "3. beide Nachrichten an messages hängen: die des Modells und das Ergebnis seines Aufrufs",
        "en": "3. append both messages to messages: the model's and its call's result",
    },
    "note.look": {
        "de": "4. die Liste ansehen: Das bekommt das Modell beim nächsten Schritt",
        "en": "4. look at the list: this is what the model gets at its next step",
    },
    "untouched": {
        "de": "messages enthält noch nur den Systemprompt und die Frage. Führ das Werkzeug aus, häng die beiden Nachrichten an und prüfe dann noch einmal.",
        "en": "messages still holds only the system prompt and the question. Run the tool, append the two messages, then check again.",
    },
    "not_a_list": {
        "de": "messages sollte die Liste aus der Übungszelle sein, ist aber {type}.",
        "en": "messages should be the list from the exercise cell, but it is a {type}.",
    },
    "not_json": {
        "de": 'In der Liste steht etwas, das kein dict mit einer "role" ist: {what}. Die API bekommt JSON: Die Nachricht des Modells kommt als dict in die Liste – ihre Methode model_dump macht daraus eins.',
        "en": 'The list holds something that is not a dict with a "role": {what}. The API receives JSON: the model\'s message goes into the list as a dict – its model_dump method makes one.',
    },
    "no_assistant": {
        "de": "Die tool-Nachricht für {id} steht ohne die Nachricht des Modells davor. Die Regel: erst die Nachricht des Modells mit dem Aufruf, dann ihr Ergebnis – sonst antwortet die API 400.",
        "en": "The tool message for {id} has no model message before it. The rule: first the model's message with the call, then its result – otherwise the API answers 400.",
    },
    "before": {
        "de": "Die tool-Nachricht für {id} steht vor der Nachricht des Modells, die diesen Aufruf enthält. Die Regel: erst die Nachricht des Modells, dann ihr Ergebnis – sonst antwortet die API 400.",
        "en": "The tool message for {id} comes before the model message that holds that call. The rule: first the model's message, then its result – otherwise the API answers 400.",
    },
    "missing": {
        "de": "Der Aufruf {id} hat keine tool-Nachricht. Die Regel: Zu jedem Aufruf gehört genau eine, mit seiner tool_call_id – sonst antwortet die API 400.",
        "en": "The call {id} has no tool message. The rule: every call gets exactly one, with its tool_call_id – otherwise the API answers 400.",
    },
    "no_id": {
        "de": "Der tool-Nachricht fehlt die tool_call_id. Die Regel: Das Ergebnis trägt die id seines Aufrufs, damit das Modell weiß, wozu es gehört.",
        "en": "The tool message lacks its tool_call_id. The rule: the result carries its call's id, so the model knows what it belongs to.",
    },
    "wrong_id": {
        "de": "Die tool-Nachricht trägt die tool_call_id {id!r}, der Aufruf des Modells aber die id {open}. Die Regel: Das Ergebnis trägt die id seines Aufrufs.",
        "en": "The tool message carries tool_call_id {id!r}, but the model's call has the id {open}. The rule: the result carries its call's id.",
    },
    "order": {
        "de": "Die Ergebnisse stehen nicht in der Reihenfolge der Aufrufe: {id} vor {first}.",
        "en": "The results are not in the order of the calls: {id} before {first}.",
    },
    "roles": {
        "de": "Die Liste hat die Rollen {got}; nach einem Schritt sind es system, user, assistant, tool. Führ die Übungszelle noch einmal ganz aus: Sie beginnt mit einer frischen Liste.",
        "en": "The list has the roles {got}; after one step they are system, user, assistant, tool. Run the whole exercise cell once more: it starts with a fresh list.",
    },
    "changed": {
        "de": "Die Nachricht des Modells in der Liste ist nicht die, die es geschickt hat ({got}). Die Regel: Sie kommt unverändert in die Liste.",
        "en": "The model's message in the list is not the one it sent ({got}). The rule: it goes into the list unchanged.",
    },
    "not_text": {
        "de": "Der content der tool-Nachricht ist kein Text, sondern ein {what}. Die API nimmt nur Text: Gib ihr, was das Werkzeug zurückgab.",
        "en": "The tool message's content is not text but a {what}. The API takes only text: give it what the tool returned.",
    },
    "result": {
        "de": "Der content der tool-Nachricht ist {got}, das Werkzeug {name} gibt aber {expected} zurück. Die Regel: Das Modell bekommt das Ergebnis seines Aufrufs, so wie das Werkzeug es lieferte.",
        "en": "The tool message's content is {got}, but the tool {name} returns {expected}. The rule: the model gets its call's result as the tool returned it.",
    },
    "correct": {
        "de": "Die Liste ist, was das Modell bei seinem nächsten Schritt sieht: system, user, seine eigene Nachricht mit dem Aufruf {id} und das Ergebnis von {id}. Genau das wiederholt deine Schleife gleich, Schritt für Schritt.",
        "en": "The list is what the model sees at its next step: system, user, its own message with the call {id}, and the result of {id}. Your loop is about to repeat just that, step after step.",
    },
}
SETUP = """
import json

model = ScriptedModel(lesson_script(LANGUAGE))  # <setup>
messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION[LANGUAGE]}]
schemas = [t["schema"] for t in TOOLS.values()]

# <ask>
"""
ASK = """message, usage = model(messages, schemas)
print(message)
"""
RUN = """call = message.tool_calls[0]
result = TOOLS[call.function.name]["fn"](**json.loads(call.function.arguments))
"""
APPEND = """messages.append(message.model_dump(exclude_none=True))
messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
"""
LOOK = """
for entry in messages:  # <look>
    print(str(entry)[:110])
"""


class OneStep(Exercise):
    """messages after one step driven by hand: system, user, the model's message as a dict, its call's result."""

    AREA, TEXT, NAME = "one_step", TEXT, "messages"
    COMPOSED = True  # the student types its lines: tests/course/test_dictation.py counts them
    SKELETON = cells(TEXT, SETUP + "...\n# <run>\n...\n# <append>\n...\n" + LOOK)
    SOLUTION = cells(TEXT, SETUP + ASK + "# <run>\n" + RUN + "# <append>\n" + APPEND + LOOK, solved=True)

    def judge(self, messages):
        """A list, not code: no skeleton to compare and nothing of the student's to run, so no child process."""
        if messages is None or messages is ... or (isinstance(messages, list) and len(messages) <= 2):
            return NOT_ATTEMPTED, self.say("untouched")
        return self.verdict(messages)

    def evaluate(self, messages):
        if not isinstance(messages, list):
            raise self.wrong("not_a_list", type=type(messages).__name__)
        problem = protocol(messages)
        if problem:
            raise self.wrong(problem[0], **problem[1])
        roles = [m["role"] for m in messages]
        if roles != ["system", "user", "assistant", "tool"]:
            raise self.wrong("roles", got=roles)
        sent = ScriptedModel(lesson_script(self.language))([], [])[0].model_dump(exclude_none=True)
        if shape(messages[2]) != shape(sent):
            raise self.wrong("changed", got=short(messages[2]))
        content, call = messages[3].get("content"), sent["tool_calls"][0]
        if not isinstance(content, str):
            raise self.wrong("not_text", what=type(content).__name__)
        expected = str(call_tool(call["function"]["name"], call["function"]["arguments"], TOOLS))
        if content != expected:
            raise self.wrong("result", got=short(content), name=call["function"]["name"], expected=short(expected))
        return self.say("correct", id=call["id"])
