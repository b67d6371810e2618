"""Learner-facing text: the check of the student's own RealModel (notebook 06)."""

TEXT = {
    "real_model.browser": {
        "de": "Im Browser lässt sich diese Prüfung nicht ausführen: Sie braucht einen kleinen Server auf deinem "
              "Rechner, und den kann eine Webseite nicht starten. Hier geht es mit agentlibs RealModel weiter; "
              "prüfen kannst du deins in JupyterLab auf deinem Rechner (make lab).",
        "en": "This check cannot run in the browser: it needs a small server on your computer, which a web page "
              "cannot start. Here the course carries on with agentlib's RealModel; you can check yours in "
              "JupyterLab on your computer (make lab).",
    },
    "real_model.hint": {
        "de": "Ein Aufruf: self.client.chat.completions.create(model=self.name, messages=messages, "
              "tools=tools, tool_choice=\"auto\", extra_body=self.extra). Die Antwort hat "
              "reply.choices[0].message und reply.usage; zurück geht das Paar aus beiden.",
        "en": "One call: self.client.chat.completions.create(model=self.name, messages=messages, "
              "tools=tools, tool_choice=\"auto\", extra_body=self.extra). The reply has "
              "reply.choices[0].message and reply.usage; the pair of the two goes back.",
    },
    "real_model.key_missing": {
        "de": 'Der Schlüssel aus LLM_API_KEY kam nicht an. Die Stelle: __init__, wo der Client seinen Schlüssel bekommt.',
        "en": 'The key from LLM_API_KEY did not arrive. The place: __init__, where the client gets its key.',
    },
    "real_model.model_name": {
        "de": 'Die Anfrage nennt das Modell {model!r}, LLM_MODEL sagt (während der Prüfung) {check_model!r}. Die Regel: Der Modellname kommt aus LLM_MODEL, "deepseek-flash" nur, wenn dort nichts steht. Die Stelle: self.name in __init__.',
        "en": 'The request names the model {model!r}, LLM_MODEL says (during the check) {check_model!r}. The rule: the model name comes from LLM_MODEL, "deepseek-flash" only when it is not set. The place: self.name in __init__.',
    },
    "real_model.messages_missing": {
        "de": "Die Anfrage enthält nicht die Nachrichtenliste, die das Modell bekam: messages=messages.",
        "en": "The request does not hold the message list the model was given: messages=messages.",
    },
    "real_model.tools_missing": {
        "de": "Die Anfrage enthält nicht die Werkzeuge: tools=tools – sonst weiß das Modell nichts von "
              "ihnen.",
        "en": "The request does not hold the tools: tools=tools – otherwise the model knows nothing of "
              "them.",
    },
    "real_model.gap.create": {
        "de": "ein Aufruf von chat.completions.create: Modell, Nachrichten, Werkzeuge, tool_choice=\"auto\", extra_body",
        "en": "one call of chat.completions.create: model, messages, tools, tool_choice=\"auto\", extra_body",
    },
    "real_model.gap.message": {
        "de": "die Nachricht der ersten Auswahl",
        "en": "the first choice's message",
    },
    "real_model.note.content": {
        "de": "ohne Text (None) bekommt sie den leeren Text \"\": lokale Server lehnen None ab",
        "en": "without text (None) it gets the empty text \"\": local servers refuse None",
    },
    "real_model.gap.return": {
        "de": "(die Nachricht, die Token-Zählung)",
        "en": "(the message, the token counts)",
    },
    "real_model.content_null": {
        "de": "Ab dem zweiten Schritt lehnt der Server die Nachrichtenliste ab: Ein Schritt mit "
              "Werkzeugaufrufen, aber ohne Text, ging mit content None zurück ({problem}). Server wie "
              "llama-cpp-python verlangen dort Text. Gib einer Nachricht ohne Text den leeren Text, "
              "bevor RealModel sie zurückgibt.",
        "en": "From the second step on, the server refuses the message list: a step with tool calls but "
              "no text went back with content None ({problem}). Servers such as llama-cpp-python insist "
              "on text there. Give a message without text the empty text before RealModel returns it.",
    },
    "real_model.model_in_create": {
        "de": "self.name liest LLM_MODEL richtig, aber der Aufruf von create nennt ein anderes Modell "
              "({model!r}). Gib create den Namen, den dein RealModel gelesen hat.",
        "en": "self.name reads LLM_MODEL correctly, but the call of create names another model "
              "({model!r}). Give create the name your RealModel read.",
    },
    "real_model.not_a_class": {
        "de": "RealModel sollte eine Klasse sein, ist aber {cls_type}.",
        "en": "RealModel should be a class, but it is a {cls_type}.",
    },
    "real_model.run": {
        "de": "Mit deinem RealModel endet run_agent nach {steps} Schritten ({stop_message}), mit "
              "{prompt_tokens} + {completion_tokens} Tokens; erwartet: die Antwort nach 2 Schritten, "
              "3000 + 100.",
        "en": "With your RealModel, run_agent ends after {steps} steps ({stop_message}), with "
              "{prompt_tokens} + {completion_tokens} tokens; expected: the answer after 2 steps, 3000 "
              "+ 100.",
    },
    "real_model.correct": {
        "de": "Dein RealModel liest LLM_API_KEY, LLM_BASE_URL und LLM_MODEL, schickt Nachrichten und "
              "Werkzeuge mit einem Aufruf von chat.completions.create und gibt Nachricht und "
              "Token-Zählung zurück. Die Schleife lief damit gegen einen Server auf deinem Rechner "
              "(127.0.0.1) bis zur Antwort: 2 Schritte, 3000 + 100 Tokens.",
        "en": "Your RealModel reads LLM_API_KEY, LLM_BASE_URL and LLM_MODEL, sends messages and tools "
              "in one call of chat.completions.create, and returns the message and the token counts. "
              "The loop ran with it against a server on your machine (127.0.0.1) to the answer: 2 "
              "steps, 3000 + 100 tokens.",
    },
    "real_model.overtime": {
        "de": "{what} endet nicht innerhalb von 30 Sekunden.",
        "en": "{what} does not end within 30 seconds.",
    },
    "real_model.elsewhere": {
        "de": '{what} schickt die Anfrage an {elsewhere} statt an LLM_BASE_URL (während der Prüfung {base_url}). Die Regel: Die Adresse kommt aus LLM_BASE_URL, DeepSeeks nur, wenn dort nichts steht. Die Stelle: base_url in __init__.',
        "en": "{what} sends the request to {elsewhere} instead of LLM_BASE_URL (during the check {base_url}). The rule: the address comes from LLM_BASE_URL, DeepSeek's only when it is not set. The place: base_url in __init__.",
    },
    "real_model.fails": {
        "de": "{what} bricht ab mit {error_type}: {error}",
        "en": "{what} fails with {error_type}: {error}",
    },
    "real_model.requests": {
        "de": "Ein Aufruf des Modells sollte genau eine Anfrage schicken, es waren {requests_count}.",
        "en": "One call of the model should send exactly one request; it sent {requests_count}.",
    },
    "real_model.whole_reply": {
        "de": 'Dein RealModel gibt die ganze Antwort der API zurück. Die Schleife braucht die Nachricht der ersten Auswahl und die Token-Zählung, als Paar.',
        "en": "Your RealModel returns the API's whole reply. The loop needs the first choice's message and the token counts, as a pair.",
    },
    "real_model.not_a_pair": {
        "de": "Dein RealModel gibt {reply} zurück; die Schleife erwartet (message, usage).",
        "en": "Your RealModel returns {reply}; the loop expects (message, usage).",
    },
    "real_model.tool_calls": {
        "de": "Die Nachricht hat die Werkzeugaufrufe {calls}, der Server schickte {c1_sent_0}.",
        "en": "The message has the tool calls {calls}; the server sent {c1_sent_0}.",
    },
    "real_model.usage": {
        "de": "Die Token-Zählung fehlt oder stimmt nicht: {usage} statt 120 + 15. Die Regel: Neben der Nachricht "
              "geht die usage der Antwort zurück, die Schleife zählt damit die Kosten.",
        "en": "The token counts are missing or wrong: {usage} instead of 120 + 15. The rule: the reply's usage goes "
              "back beside the message; the loop counts the cost with it.",
    },
    "real_model.rule": {
        "de": 'Die Regeln: Adresse, Schlüssel und Modellname kommen aus LLM_BASE_URL, LLM_API_KEY und LLM_MODEL. Jeder Aufruf schickt genau eine Anfrage mit diesem Modell, den Nachrichten und den Werkzeugen. Zurück gehen die Nachricht der ersten Auswahl – ohne Text mit dem leeren Text – und die Token-Zählung.',
        "en": "The rules: address, key and model name come from LLM_BASE_URL, LLM_API_KEY and LLM_MODEL. Every call sends exactly one request with that model, the messages and the tools. What goes back is the first choice's message – without text, with the empty text – and the token counts.",
    },
    "real_model.nth_call": {
        "de": "der {n}. Aufruf deines RealModel",
        "en": "call {n} of your RealModel",
    },
}
