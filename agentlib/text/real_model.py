"""Learner-facing text: the check of the student's own RealModel (notebook 06)."""

TEXT = {
    "real_model.hint": {
        "de": "os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\") liest eine Variable mit "
              "Standardwert. Der Client: OpenAI(api_key=..., base_url=...). Ein Aufruf: "
              "self.client.chat.completions.create(model=self.name, messages=messages, tools=tools). "
              "Die Antwort hat reply.choices[0].message und reply.usage.",
        "en": "os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\") reads a variable with a "
              "default. The client: OpenAI(api_key=..., base_url=...). One call: "
              "self.client.chat.completions.create(model=self.name, messages=messages, tools=tools). "
              "The reply has reply.choices[0].message and reply.usage.",
    },
    "real_model.key_missing": {
        "de": "Der Schlüssel aus LLM_API_KEY kam nicht an: "
              "OpenAI(api_key=os.environ.get(\"LLM_API_KEY\"), ...).",
        "en": "The key from LLM_API_KEY did not arrive: OpenAI(api_key=os.environ.get(\"LLM_API_KEY\"), "
              "...).",
    },
    "real_model.model_name": {
        "de": "Die Anfrage nennt das Modell {model!r}, LLM_MODEL sagt (während der Prüfung) "
              "{check_model!r}: os.environ.get(\"LLM_MODEL\", \"deepseek-flash\").",
        "en": "The request names the model {model!r}, LLM_MODEL says (during the check) "
              "{check_model!r}: os.environ.get(\"LLM_MODEL\", \"deepseek-flash\").",
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
    "real_model.gap.url": {
        "de": "LLM_BASE_URL, sonst https://api.deepseek.com",
        "en": "LLM_BASE_URL, else https://api.deepseek.com",
    },
    "real_model.gap.key": {
        "de": "LLM_API_KEY",
        "en": "LLM_API_KEY",
    },
    "real_model.gap.model": {
        "de": "LLM_MODEL, sonst \"deepseek-flash\"",
        "en": "LLM_MODEL, else \"deepseek-flash\"",
    },
    "real_model.gap.return": {
        "de": "(die Nachricht der ersten Auswahl, die Token-Zählung)",
        "en": "(the first choice's message, the token counts)",
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
        "de": "{what} schickt die Anfrage an {elsewhere} statt an LLM_BASE_URL (während der Prüfung "
              "{base_url}). Lies den Endpunkt aus der Umgebung: os.environ.get(\"LLM_BASE_URL\", "
              "\"https://api.deepseek.com\").",
        "en": "{what} sends the request to {elsewhere} instead of LLM_BASE_URL (during the check "
              "{base_url}). Read the endpoint from the environment: os.environ.get(\"LLM_BASE_URL\", "
              "\"https://api.deepseek.com\").",
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
        "de": "Dein RealModel gibt die ganze Antwort der API zurück. Die Schleife braucht die "
              "Nachricht: return reply.choices[0].message, reply.usage.",
        "en": "Your RealModel returns the API's whole reply. The loop needs the message: return "
              "reply.choices[0].message, reply.usage.",
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
        "de": "Die Token-Zählung fehlt oder stimmt nicht: {usage} statt 120 + 15. Gib reply.usage mit "
              "zurück, die Schleife zählt damit die Kosten.",
        "en": "The token counts are missing or wrong: {usage} instead of 120 + 15. Return reply.usage "
              "too; the loop counts the cost with it.",
    },
}
