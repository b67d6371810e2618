"""Learner-facing text of agentlib/providers: API, replay and local-server failures, describe(), the key
field, and the cost a run probably had (also printed by the command line)."""

TEXT = {
    # What goes wrong with a real model (errors.py): one sentence that names the fix.
    "providers.missing_key": {
        "de": "Für {url} ist kein API-Schlüssel gesetzt: Trag LLM_API_KEY=<dein Schlüssel> in die Datei .env ein "
              "(Vorlage: .env.example), setz die Umgebungsvariable oder gib ihn ins Schlüsselfeld ein; ein lokaler "
              "Server wie Ollama braucht keinen (LLM_BASE_URL auf ihn zeigen lassen).",
        "en": "No API key is set for {url}: put LLM_API_KEY=<your key> into the file .env (copy .env.example), set "
              "it in the environment, or type it into the key field; a local server such as Ollama needs none "
              "(point LLM_BASE_URL at it).",
    },
    "providers.malformed_key": {
        "de": "Der API-Schlüssel enthält Leerzeichen oder Zeichen, die in keinem Schlüssel vorkommen: Kopier ihn "
              "noch einmal von der Website des Anbieters nach LLM_API_KEY, ohne Anführungszeichen und "
              "Zeilenumbruch.",
        "en": "The API key contains spaces or characters that no key has: copy it again from the provider's website"
              " into LLM_API_KEY, without quotes or line breaks.",
    },
    "providers.key_in_model": {
        "de": "LLM_MODEL enthält etwas, das wie ein API-Schlüssel aussieht, keinen Modellnamen: Trag den Schlüssel "
              "in LLM_API_KEY ein und den Namen des Modells, etwa deepseek-flash, in LLM_MODEL.",
        "en": "LLM_MODEL holds what looks like an API key, not a model's name: put the key into LLM_API_KEY and the"
              " model's name, such as deepseek-flash, into LLM_MODEL.",
    },
    "providers.bad_url": {
        "de": "LLM_BASE_URL muss eine Webadresse sein, die mit http:// oder https:// beginnt, etwa "
              "https://api.deepseek.com, nicht {url!r}.",
        "en": "LLM_BASE_URL must be a web address starting with http:// or https://, such as "
              "https://api.deepseek.com, not {url!r}.",
    },
    "providers.rejected_key": {
        "de": "{url} hat den API-Schlüssel abgelehnt (401): Prüf LLM_API_KEY; es muss ein Schlüssel genau dieses "
              "Anbieters sein, vollständig kopiert.",
        "en": "{url} rejected the API key (401): check LLM_API_KEY; it must be a key of this very provider, copied "
              "in full.",
    },
    "providers.no_credit": {
        "de": "Das Konto hinter dem API-Schlüssel hat kein Guthaben mehr (402): Lade es auf der Website des "
              "Anbieters auf oder nimm einen anderen Schlüssel.",
        "en": "The account behind the API key has no credit left (402): top it up on the provider's website or use "
              "another key.",
    },
    "providers.forbidden": {
        "de": "{url} verweigert diesem Schlüssel das Modell {model} (403): Prüf die Rechte des Schlüssels auf der "
              "Website des Anbieters oder wähl mit LLM_MODEL ein anderes Modell.",
        "en": "{url} refused this key access to the model {model} (403): check the key's permissions on the "
              "provider's website, or choose another model with LLM_MODEL.",
    },
    "providers.unknown_model": {
        "de": "{url} bietet das Modell {model!r} nicht an ({status}): Setz LLM_MODEL auf ein Modell dieses "
              "Anbieters (DeepSeek: deepseek-flash) und prüf LLM_BASE_URL (viele Server erwarten am Ende /v1).",
        "en": "{url} does not offer the model {model!r} ({status}): set LLM_MODEL to a model this provider offers "
              "(DeepSeek: deepseek-flash), and check LLM_BASE_URL (many servers expect it to end in /v1).",
    },
    "providers.quota": {
        "de": "Das Kontingent dieses API-Schlüssels ist aufgebraucht (429): Lade Guthaben auf der Website des "
              "Anbieters auf oder nimm einen anderen Schlüssel; Warten hilft hier nicht.",
        "en": "The quota of this API key is used up (429): add credit on the provider's website or use another key;"
              " waiting will not help.",
    },
    "providers.rate_limit": {
        "de": "Der Anbieter begrenzt, wie oft du fragen darfst (429), auch nach {retries} Wiederholungen mit "
              "wachsenden Pausen: Warte eine Minute und starte neu, oder senke max_steps.",
        "en": "The provider is limiting how often you may ask (429), still after {retries} retries with growing "
              "pauses: wait a minute and run again, or lower max_steps.",
    },
    "providers.server": {
        "de": "Der Server unter {url} ist gescheitert ({status}), auch nach {retries} Wiederholungen: Der Fehler "
              "liegt beim Anbieter, nicht bei dir; versuch es in ein paar Minuten noch einmal.",
        "en": "The server at {url} failed ({status}), also after {retries} retries: the fault is on the provider's "
              "side, not yours; try again in a few minutes.",
    },
    "providers.local_server": {
        "de": "Der Server auf diesem Rechner unter {url} ist gescheitert ({status}: {detail}): Das ist die eigene "
              "Meldung des Servers und nennt die Ursache; geht es um das Kontextfenster, senk max_steps, sonst "
              "starte den Server neu (im Notebook: Kernel neu starten).",
        "en": "The server on this machine at {url} failed ({status}: {detail}): that is the server's own message "
              "and names the cause; if it is about the context window, lower max_steps, otherwise restart the "
              "server (in a notebook: restart the kernel).",
    },
    "providers.timeout": {
        "de": "Das Modell hat nicht innerhalb von {timeout:g} Sekunden geantwortet, auch nach {retries} "
              "Wiederholungen: Versuch es später noch einmal oder gib ihm mit RealModel(timeout=...) mehr Zeit.",
        "en": "The model did not answer within {timeout:g} seconds, also after {retries} retries: try again later, "
              "or allow more time with RealModel(timeout=...).",
    },
    "providers.too_large": {
        "de": "Die Antwort von {url} wurde größer als {limit:,} Bytes, weit mehr als jede Chat-Completion: Prüf, ob"
              " LLM_BASE_URL auf eine OpenAI-kompatible API zeigt.",
        "en": "The reply from {url} grew past {limit:,} bytes, far more than any chat completion: check that "
              "LLM_BASE_URL points to an OpenAI-compatible API.",
    },
    "providers.connection": {
        "de": "{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL; bei einem lokalen Server "
              "wie Ollama, ob er läuft.",
        "en": "Cannot reach {url}: check your network connection and LLM_BASE_URL; for a local server such as "
              "Ollama, check that it is running.",
    },
    "providers.browser": {  # JupyterLite: a web page may call only a provider that allows it (CORS)
        "de": "Der Browser kommt nicht an {url} heran: Entweder ist das Netz weg, oder dieser Anbieter nimmt "
              "keine Anfragen von Webseiten an. Dann nimm den Kurs in JupyterLab auf deinem Rechner (make lab) "
              "oder einen Anbieter, der das erlaubt.",
        "en": "The browser could not reach {url}: either the network is down, or this provider does not accept "
              "requests from web pages. Then use the course in JupyterLab on your computer (make lab), or a "
              "provider that allows it.",
    },
    "providers.refused": {
        "de": "{url} hat die Anfrage abgewiesen ({status}: {detail}): Prüf LLM_MODEL und LLM_EXTRA_BODY und ob "
              "dieser Server Tool-Aufrufe unterstützt.",
        "en": "{url} refused the request ({status}: {detail}): check LLM_MODEL and LLM_EXTRA_BODY, and whether this"
              " server supports tool calls.",
    },
    "providers.bad_reply": {
        "de": "Die Antwort von {url} ist keine Chat-Completion: Prüf, ob LLM_BASE_URL auf eine OpenAI-kompatible "
              "API zeigt (sie endet oft auf /v1).",
        "en": "The reply from {url} is not a chat completion: check that LLM_BASE_URL points to an "
              "OpenAI-compatible API (it often ends in /v1).",
    },
    # ReplayModel's failures, worded like the API's.
    "providers.unknown_question": {
        "de": "Keine Aufnahme beantwortet die Frage {question!r}: Eine Wiedergabe braucht die aufgenommene Frage "
              "Wort für Wort; nimm diese erst mit einem echten Modell auf.",
        "en": "No recording answers the question {question!r}: replay needs the recorded question word for word; "
              "record this one with a real model first.",
    },
    "providers.diverged": {
        "de": "Das Gespräch weicht bei Nachricht {index} von der Aufnahme ab ({what}): Die Wiedergabe passt nur zum"
              " aufgenommenen Lauf mit derselben Frage, demselben Systemprompt, denselben Tools und Dokumenten; "
              "nimm die Änderung zurück oder nimm einen neuen Lauf mit einem echten Modell auf.",
        "en": "The conversation left the recording at message {index} ({what}): the replay only fits the recorded "
              "run with the same question, system prompt, tools and docs; undo the change or record a new run with "
              "a real model.",
    },
    "providers.ended": {
        "de": "Die Aufnahme hat nur {steps} Schritte (der aufgenommene Lauf endete: {why}): Spiel sie mit max_steps"
              " von höchstens {steps} ab.",
        "en": "The recording has only {steps} steps (the recorded run stopped: {why}): replay it with a max_steps "
              "of {steps} or less.",
    },
    # How a conversation left the recording (the {what} of providers.diverged).
    "providers.departed_length": {
        "de": "{got} Nachrichten statt der aufgenommenen {expected}",
        "en": "{got} messages instead of the recorded {expected}",
    },
    "providers.departed_system": {
        "de": "ein anderer Systemprompt",
        "en": "another system prompt",
    },
    "providers.departed_user": {
        "de": "eine andere Frage",
        "en": "another question",
    },
    "providers.departed_tool": {
        "de": "ein anderes Ergebnis von {name}",
        "en": "another result from {name}",
    },
    "providers.departed_assistant": {
        "de": "eine andere Antwort des Modells",
        "en": "another model reply",
    },
    "providers.departed_tools": {
        "de": "andere Tools als bei der Aufnahme",
        "en": "other tools than were recorded",
    },
    # The tiny local model's server (local.py).
    "providers.not_installed": {
        "de": "Das kleine lokale Modell ist nicht installiert (es fehlt {missing}): Führ im Kursordner `make "
              "local-model` aus; das baut llama-cpp-python einmal (ein paar Minuten; es braucht einen "
              "C++-Compiler).",
        "en": "The tiny local model is not installed ({missing} is missing): run `make local-model` in the course "
              "folder; it builds llama-cpp-python once (a few minutes; it needs a C++ compiler).",
    },
    "providers.exited": {
        "de": "Der Server des lokalen Modells hat sich beim Start beendet (Code {code}); seine letzten Worte: {log}",
        "en": "The local model server stopped at start-up (exit code {code}); its last words: {log}",
    },
    "providers.silent": {
        "de": "Der Server des lokalen Modells hat nicht innerhalb von {seconds} Sekunden geantwortet: Vielleicht "
              "ist der Rechner ausgelastet; versuch es noch einmal oder gib ihm mit local_server(timeout=...) mehr "
              "Zeit. Seine letzten Worte: {log}",
        "en": "The local model server did not answer within {seconds} seconds: the machine may be busy; run again, "
              "or allow more time with local_server(timeout=...). Its last words: {log}",
    },
    # describe(): the settings in one sentence; {key} is one of the four key_ texts.
    "providers.describe": {
        "de": "Modell {model} unter {url}; {key}.",
        "en": "Model {model} at {url}; {key}.",
    },
    "providers.key_set": {
        "de": "ein API-Schlüssel ist gesetzt (aus {source})",
        "en": "an API key is set (from {source})",
    },
    "providers.key_spaces": {
        "de": "LLM_API_KEY in {source} enthält nur Leerzeichen",
        "en": "LLM_API_KEY in {source} holds only spaces",
    },
    "providers.key_not_needed": {
        "de": "kein Schlüssel nötig (lokaler Server)",
        "en": "no key needed (local server)",
    },
    "providers.key_missing": {
        "de": "es ist kein API-Schlüssel gesetzt (LLM_API_KEY)",
        "en": "no API key is set (LLM_API_KEY)",
    },
    # Where the key came from, as {source} of key_set and key_spaces.
    "providers.source_argument": {
        "de": "dem Argument",
        "en": "the argument",
    },
    "providers.source_environment": {
        "de": "der Umgebung",
        "en": "the environment",
    },
    "providers.source_env_file": {
        "de": "der Datei .env",
        "en": "the .env file",
    },
    # The key field (key_field).
    "providers.field_placeholder": {
        "de": "API-Schlüssel einfügen",
        "en": "paste your API key",
    },
    "providers.field_button": {
        "de": "Schlüssel nutzen",
        "en": "Use key",
    },
    "providers.field_before": {
        "de": "Der Schlüssel bleibt nur in dieser Sitzung: Er wird weder gespeichert noch angezeigt.",
        "en": "The key stays in this session only: it is not saved and not shown.",
    },
    "providers.field_empty": {
        "de": "Das Feld war leer: Füge zuerst deinen Schlüssel ein.",
        "en": "The field was empty: paste your key first.",
    },
    "providers.field_after": {
        "de": "Schlüssel für diese Sitzung gesetzt. Wenn der Kernel endet, ist er weg.",
        "en": "Key set for this session. It is gone when the kernel stops.",
    },
    # A run's cost (pricing.py) and its label on the command line.
    "providers.cost": {
        "de": "etwa {amount} $ (Schätzung, Preise vom {checked})",
        "en": "about ${amount} (estimate, prices of {checked})",
    },
    "providers.cost_unknown": {
        "de": "unbekannt",
        "en": "unknown",
    },
    "providers.cost_label": {
        "de": "Kosten",
        "en": "Cost",
    },
}
