"""Learner-facing text: exercise 1 (notebook 05): two broken calls in the script."""

TEXT = {
    "errors_in_script.hint": {
        "de": "Nimm lesson_script(LANGUAGE) als Ausgangspunkt und stelle zwei Schritte davor: "
              "Message(tool_calls=[Call(\"x1\", \"search_web\", {{\"query\": \"httpx timeout\"}})]) und einen "
              "read_doc-Aufruf mit {{\"path\": \"advanced/timeouts.md\", \"start\": \"abc\"}}. Jeder Schritt "
              "ist eine Message; die letzte muss eine Antwort ohne Werkzeugaufruf sein.",
        "en": "Start from lesson_script(LANGUAGE) and put two steps in front of it: "
              "Message(tool_calls=[Call(\"x1\", \"search_web\", {{\"query\": \"httpx timeout\"}})]) and a "
              "read_doc call with {{\"path\": \"advanced/timeouts.md\", \"start\": \"abc\"}}. Each step is one "
              "Message; the last one must be an answer without tool calls.",
    },
    "errors_in_script.not_a_script": {
        "de": "my_script sollte eine Liste von Message-Objekten sein, wie lesson_script(...) sie "
              "liefert.",
        "en": "my_script should be a list of Message objects, like the one lesson_script(...) returns.",
    },
    "errors_in_script.no_unknown_tool": {
        "de": "Im Skript fehlt ein Aufruf des Werkzeugs search_web, das es nicht gibt: Call(\"x1\", "
              "\"search_web\", {{\"query\": \"...\"}}).",
        "en": "The script lacks a call to the tool search_web, which does not exist: Call(\"x1\", "
              "\"search_web\", {{\"query\": \"...\"}}).",
    },
    "errors_in_script.no_bad_start": {
        "de": "Im Skript fehlt ein read_doc-Aufruf mit falsch getyptem start, z. B. start=\"abc\".",
        "en": "The script lacks a read_doc call with a wrongly typed start, e.g. start=\"abc\".",
    },
    "errors_in_script.no_answer": {
        "de": "Der Lauf endete ohne Antwort: {why_stopped} Lass das Skript mit einer Antwort enden: "
              "Message(content=\"...\").",
        "en": "The run ended without an answer: {why_stopped} End the script with an answer: "
              "Message(content=\"...\").",
    },
    "errors_in_script.no_error": {
        "de": "{name}({arguments}) hat keinen Fehler gemeldet, sondern {observation}.",
        "en": "{name}({arguments}) reported no error but {observation}.",
    },
    "errors_in_script.correct": {
        "de": "Die Schleife ist nicht abgestürzt. Beide Fehler kamen als Text zum Modell zurück:\n- "
              "{observation}\n- {typed_0_observation}\nDaraus kann das Modell ablesen, was es als "
              "Nächstes tun soll.",
        "en": "The loop did not crash. Both failures went back to the model as text:\n- {observation}\n- "
              "{typed_0_observation}\nA model can read from them what to do next.",
    },
    "errors_in_script.script_ran_out": {
        "de": "Nach {length} Schritten war das Skript zu Ende, und der letzte Schritt rief noch ein "
              "Werkzeug auf.",
        "en": "after {length} steps the script had run out, and its last step still called a tool.",
    },
    "errors_in_script.model_error": {
        "de": "Das Modell meldete einen Fehler (Meldung: {stop_message}).",
        "en": "the model reported an error (message: {stop_message}).",
    },
    "errors_in_script.limit_reached": {
        "de": "Das Schrittlimit ({steps}) war erreicht.",
        "en": "the step limit ({steps}) was reached.",
    },
}
