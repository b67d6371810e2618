"""Learner-facing text: the check of the student's own run_agent (notebook 04): one text per rule and per scenario."""

TEXT = {
    "loop.hint": {
        "de": "Halte dich an das Bild aus Notebook 1: Modell fragen (model(messages, schemas)), Tokens "
              "addieren, keine tool_calls → Antwort zurückgeben. Sonst zuerst "
              "message.model_dump(exclude_none=True) anhängen, dann für jeden Aufruf: Argumente mit "
              "json.loads lesen, TOOLS[name][\"fn\"](**args) in try/except ausführen, zu lange "
              "Ergebnisse kürzen (mit Hinweis) und {{\"role\": \"tool\", \"tool_call_id\": call.id, "
              "\"content\": result}} anhängen.",
        "en": "Follow the picture from notebook 1: ask the model (model(messages, schemas)), add up "
              "the tokens, no tool_calls → return the answer. Otherwise append "
              "message.model_dump(exclude_none=True) first, then for every call: read the arguments "
              "with json.loads, run TOOLS[name][\"fn\"](**args) inside try/except, cut results that are "
              "too long (with a note), and append {{\"role\": \"tool\", \"tool_call_id\": call.id, "
              "\"content\": result}}.",
    },
    "loop.raised": {
        "de": "{where} bricht deine Schleife ab mit {error}{at}.",
        "en": "{where}, your loop fails with {error}{at}.",
    },
    "loop.raised_by_tool": {
        "de": "{where} bricht deine Schleife ab mit {error}{at}. Jeder Fehler eines Werkzeugs muss zur "
              "Beobachtung werden: Fang ihn mit try/except ab und gib ihn als Text zurück.",
        "en": "{where}, your loop fails with {error}{at}. Every failure of a tool must become an "
              "observation: catch it with try/except and hand it back as text.",
    },
    "loop.overtime": {
        "de": "{where} endet deine Schleife nicht innerhalb von {seconds:g} Sekunden: Sie braucht "
              "einen Ausgang – spätestens nach max_steps Modellaufrufen.",
        "en": "{where}, your loop does not end within {seconds:g} seconds: it needs a way out – after "
              "max_steps model calls at the latest.",
    },
    "loop.limit": {
        "de": "{where} ruft deine Schleife das Modell öfter als max_steps={max_steps} Mal auf. Nach "
              "max_steps Modellaufrufen muss Schluss sein, sonst läuft ein Modell, das nie aufhört, "
              "ewig – und kostet.",
        "en": "{where}, your loop calls the model more than max_steps={max_steps} times. After "
              "max_steps model calls it must stop; otherwise a model that never stops runs forever, "
              "and costs.",
    },
    "loop.after_answer": {
        "de": "{where} ruft deine Schleife das Modell noch einmal auf, nachdem es ohne Werkzeugaufruf "
              "geantwortet hat. Eine Antwort ohne tool_calls ist die Antwort: Gib sie zurück.",
        "en": "{where}, your loop calls the model again after it answered without a tool call. A reply "
              "without tool_calls is the answer: return it.",
    },
    "loop.text_and_calls": {
        "de": "{where} hört deine Schleife nach Schritt {step} auf. Eine Antwort darf Text und "
              "Werkzeugaufrufe zugleich enthalten; solange tool_calls da sind, ist sie nicht die "
              "Antwort: Führe die Werkzeuge aus und frag weiter.",
        "en": "{where}, your loop stops after step {step}. A reply may hold text and tool calls at "
              "once; while there are tool_calls, it is not the answer: run the tools and go on.",
    },
    "loop.stopped_early": {
        "de": "{where} ruft deine Schleife das Modell {got}-mal auf, agentlibs Schleife "
              "{expected}-mal. Schluss ist erst, wenn das Modell ohne Werkzeugaufruf antwortet oder "
              "max_steps erreicht ist.",
        "en": "{where}, your loop calls the model {got} times, agentlib's {expected} times. It may "
              "stop only when the model answers without a tool call, or at max_steps.",
    },
    "loop.not_json": {
        "de": "Vor Modellaufruf {step} enthält die Nachrichtenliste etwas anderes als dicts mit einer "
              "\"role\" ({what}). Die API bekommt JSON: Häng message.model_dump(exclude_none=True) an, "
              "nicht die Message selbst.",
        "en": "Before model call {step}, the message list holds something other than dicts with a "
              "\"role\" ({what}). The API receives JSON: append message.model_dump(exclude_none=True), "
              "not the Message itself.",
    },
    "loop.no_assistant": {
        "de": "Vor Modellaufruf {step} steht die tool-Nachricht für {id} ohne die Nachricht des "
              "Modells mit diesem Aufruf davor. Häng erst die Nachricht des Modells an "
              "(message.model_dump(exclude_none=True)), dann die Ergebnisse – sonst antwortet die API "
              "400.",
        "en": "Before model call {step}, the tool message for {id} has no model message with that call "
              "before it. Append the model's message first (message.model_dump(exclude_none=True)), "
              "then the results – otherwise the API answers 400.",
    },
    "loop.before": {
        "de": "Vor Modellaufruf {step} steht die tool-Nachricht für {id} vor der Nachricht des "
              "Modells, die diesen Aufruf enthält. Die Nachricht des Modells kommt zuerst, dann ihre "
              "Ergebnisse.",
        "en": "Before model call {step}, the tool message for {id} comes before the model message that "
              "holds that call. The model's message comes first, then its results.",
    },
    "loop.no_id": {
        "de": "Vor Modellaufruf {step} fehlt einer tool-Nachricht die tool_call_id. Jedes Ergebnis "
              "braucht die id seines Aufrufs: {{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": "
              "...}}.",
        "en": "Before model call {step}, a tool message lacks its tool_call_id. Every result needs the "
              "id of its call: {{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": ...}}.",
    },
    "loop.wrong_id": {
        "de": "Vor Modellaufruf {step} trägt eine tool-Nachricht die tool_call_id {id!r}, aber kein "
              "offener Aufruf davor hat diese id (offen: {open}). Nimm call.id, einmal je Aufruf.",
        "en": "Before model call {step}, a tool message carries tool_call_id {id!r}, but no open call "
              "before it has that id (open: {open}). Use call.id, once per call.",
    },
    "loop.order": {
        "de": "Vor Modellaufruf {step} kommen die Ergebnisse nicht in der Reihenfolge der Aufrufe: "
              "{id} vor {first}. Führe die Aufrufe der Reihe nach aus.",
        "en": "Before model call {step}, the results are not in the order of the calls: {id} before "
              "{first}. Run the calls in order.",
    },
    "loop.missing": {
        "de": "Vor Modellaufruf {step} hat der Aufruf {id} keine eigene tool-Nachricht. Jeder Aufruf "
              "braucht genau eine, mit seiner tool_call_id – sonst antwortet die API 400.",
        "en": "Before model call {step}, the call {id} has no tool message of its own. Every call "
              "needs exactly one, with its tool_call_id – otherwise the API answers 400.",
    },
    "loop.roles": {
        "de": "Vor Modellaufruf {step} hat deine Nachrichtenliste die Rollen {got}, erwartet sind "
              "{expected}: Systemprompt, Frage, dann je Schritt die Nachricht des Modells und ein "
              "Ergebnis je Aufruf.",
        "en": "Before model call {step}, your message list has the roles {got}, expected are "
              "{expected}: system prompt, question, then per step the model's message and one result "
              "per call.",
    },
    "loop.question": {
        "de": "Vor Modellaufruf {step} steht die Frage nicht als user-Nachricht an zweiter Stelle der "
              "Liste.",
        "en": "Before model call {step}, the question is not the user message in second place of the "
              "list.",
    },
    "loop.assistant": {
        "de": "Vor Modellaufruf {step} weicht die Nachricht des Modells von dem ab, was es geschickt "
              "hat: {got} statt {expected}. Häng sie unverändert an: "
              "message.model_dump(exclude_none=True).",
        "en": "Before model call {step}, the model's message differs from what it sent: {got} instead "
              "of {expected}. Append it unchanged: message.model_dump(exclude_none=True).",
    },
    "loop.schemas": {
        "de": "Bei Modellaufruf {step} bekommt das Modell nicht die Schemas aller Werkzeuge: "
              "[t[\"schema\"] for t in TOOLS.values()].",
        "en": "At model call {step}, the model is not given the schemas of all tools: [t[\"schema\"] for "
              "t in TOOLS.values()].",
    },
    "loop.not_text": {
        "de": "{where} ist der content der tool-Nachricht kein Text, sondern {what}. Die API nimmt nur "
              "Text: str(result).",
        "en": "{where}, the tool message's content is not text but {what}. The API takes only text: "
              "str(result).",
    },
    "loop.unknown_tool": {
        "de": "{where} sagt die Beobachtung nicht, welches Werkzeug fehlt: {got!r}. Schreib etwa "
              "\"Error: no tool called search_web\", damit das Modell sich korrigieren kann.",
        "en": "{where}, the observation does not say which tool is missing: {got!r}. Write e.g. "
              "\"Error: no tool called search_web\", so the model can correct itself.",
    },
    "loop.failure": {
        "de": "{where} steht die Fehlermeldung nicht in der Beobachtung: {got!r}. Gib Typ und Meldung "
              "zurück, z. B. f\"Error: {{type(error).__name__}}: {{error}}\".",
        "en": "{where}, the error message is missing from the observation: {got!r}. Hand back type and "
              "message, e.g. f\"Error: {{type(error).__name__}}: {{error}}\".",
    },
    "loop.not_cut": {
        "de": "{where} bekommt das Modell {got} Zeichen. Kürze jede Beobachtung auf höchstens "
              "MAX_OBSERVATION ({limit}) Zeichen und schreib dazu, dass gekürzt wurde.",
        "en": "{where}, the model receives {got} characters. Cut every observation to at most "
              "MAX_OBSERVATION ({limit}) characters and say that it was cut.",
    },
    "loop.no_start": {
        "de": "{where} fehlt der Anfang des Ergebnisses in der Beobachtung. Behalte die ersten "
              "MAX_OBSERVATION Zeichen: result[:MAX_OBSERVATION].",
        "en": "{where}, the beginning of the result is missing from the observation. Keep the first "
              "MAX_OBSERVATION characters: result[:MAX_OBSERVATION].",
    },
    "loop.no_note": {
        "de": "{where} wird still gekürzt. Schreib dazu, dass gekürzt wurde (und wie lang es war), "
              "sonst glaubt das Modell, es habe alles gesehen.",
        "en": "{where}, the result is cut silently. Say that it was cut (and how long it was), or the "
              "model believes it has seen everything.",
    },
    "loop.no_arguments": {
        "de": "{where} ruft das Modell {name} mit dem leeren Text \"\" als Argumenten auf, und deine "
              "Schleife antwortet {got!r}. \"\" heißt: keine Argumente – json.loads(arguments or \"{{}}\").",
        "en": "{where}, the model calls {name} with the empty text \"\" as arguments, and your loop "
              "answers {got!r}. \"\" means no arguments – json.loads(arguments or \"{{}}\").",
    },
    "loop.result": {
        "de": "{where} kommt das Ergebnis von {name} nicht unverändert beim Modell an: {got!r} statt "
              "{expected!r}. Kürzen und Fehlertexte nur, wo nötig.",
        "en": "{where}, the result of {name} does not reach the model unchanged: {got!r} instead of "
              "{expected!r}. Cut and write error texts only where needed.",
    },
    "loop.returns": {
        "de": "{where} gibt deine Schleife {got} zurück. run_agent gibt das Paar (Antwort, stats) "
              "zurück.",
        "en": "{where}, your loop returns {got}. run_agent returns the pair (answer, stats).",
    },
    "loop.limit_answer": {
        "de": "{where} gibt deine Schleife am Schrittlimit die Antwort {got!r} zurück. Ohne Antwort "
              "des Modells ist die Antwort None.",
        "en": "{where}, your loop returns the answer {got!r} at the step limit. Without an answer from "
              "the model, the answer is None.",
    },
    "loop.answer": {
        "de": "{where} gibt deine Schleife die Antwort {got!r} zurück, das Modell schrieb {expected!r}.",
        "en": "{where}, your loop returns the answer {got!r}; the model wrote {expected!r}.",
    },
    "loop.stats_key": {
        "de": "stats lässt sich nicht mit stats[{key!r}] lesen ({error}). Gib ein dict mit den "
              "Schlüsseln steps, tool_calls, prompt_tokens und completion_tokens zurück.",
        "en": "stats cannot be read as stats[{key!r}] ({error}). Return a dict with the keys steps, "
              "tool_calls, prompt_tokens and completion_tokens.",
    },
    "loop.steps": {
        "de": "{where} ist stats[\"steps\"] {got}, das Modell wurde aber {expected}-mal aufgerufen. "
              "Zähle jeden Modellaufruf, auch den, der antwortet.",
        "en": "{where}, stats[\"steps\"] is {got}, but the model was called {expected} times. Count "
              "every model call, the answering one too.",
    },
    "loop.tool_calls": {
        "de": "{where} ist stats[\"tool_calls\"] {got}, ausgeführte Aufrufe: {expected}. Zähle jeden "
              "ausgeführten Aufruf, auch die gescheiterten.",
        "en": "{where}, stats[\"tool_calls\"] is {got}, calls run: {expected}. Count every call run, "
              "failed ones included.",
    },
    "loop.prompt_tokens": {
        "de": "{where} ist stats[\"prompt_tokens\"] {got}, gemeldet wurden zusammen {expected}. Addiere "
              "usage.prompt_tokens jedes Schritts.",
        "en": "{where}, stats[\"prompt_tokens\"] is {got}, but {expected} were reported in total. Add up "
              "usage.prompt_tokens of every step.",
    },
    "loop.completion_tokens": {
        "de": "{where} ist stats[\"completion_tokens\"] {got}, gemeldet wurden zusammen {expected}. "
              "Addiere auch usage.completion_tokens jedes Schritts.",
        "en": "{where}, stats[\"completion_tokens\"] is {got}, but {expected} were reported in total. "
              "Add up usage.completion_tokens of every step too.",
    },
    "loop.scene.lesson": {
        "de": "Mit dem Skript der Lektion",
        "en": "With the lesson's script",
    },
    "loop.scene.both": {
        "de": "Bei einer Antwort mit Text und zwei Werkzeugaufrufen",
        "en": "With a reply that holds text and two tool calls",
    },
    "loop.scene.unknown": {
        "de": "Wenn das Modell das unbekannte Werkzeug search_web aufruft,",
        "en": "When the model calls search_web, a tool that does not exist",
    },
    "loop.scene.failing": {
        "de": "Wenn ein Werkzeug eine Ausnahme auslöst (failing_tool),",
        "en": "When a tool raises an exception (failing_tool)",
    },
    "loop.scene.long": {
        "de": "Wenn ein Werkzeug zu viel Text liefert (long_tool),",
        "en": "When a tool returns too much text (long_tool)",
    },
    "loop.scene.usage": {
        "de": "Wenn das Modell Tokens meldet,",
        "en": "When the model reports tokens",
    },
    "loop.scene.limit": {
        "de": "Mit einem Modell, das nie aufhört, und max_steps=3",
        "en": "With a model that never stops, and max_steps=3",
    },
    "loop.at_line": {
        "de": " in Zeile {line}",
        "en": " on line {line}",
    },
    "loop.gap.ask": {
        "de": "das Modell fragen: mit der Nachrichtenliste und den Schemas",
        "en": "ask the model, with the message list and the schemas",
    },
    "loop.gap.prompt": {
        "de": "was usage meldet",
        "en": "what usage reports",
    },
    "loop.gap.stop": {
        "de": "keine Werkzeugaufrufe? Dann ist das die Antwort",
        "en": "no tool calls? Then this is the answer",
    },
    "loop.gap.assistant": {
        "de": "die Nachricht des Modells, als dict – vor den Ergebnissen",
        "en": "the model's message, as a dict – before the results",
    },
    "loop.gap.run": {
        "de": "das Werkzeug mit den JSON-Argumenten aufrufen (\"\" heißt: keine)",
        "en": "call the tool with the JSON arguments (\"\" means none)",
    },
    "loop.gap.error": {
        "de": "der Fehler wird zu Text für das Modell",
        "en": "the failure becomes text for the model",
    },
    "loop.gap.cut": {
        "de": "kürzen – und dazuschreiben, dass gekürzt wurde",
        "en": "cut – and say that it was cut",
    },
    "loop.gap.tool": {
        "de": "genau eine tool-Nachricht je Aufruf, mit call.id",
        "en": "exactly one tool message per call, with call.id",
    },
    "loop.not_a_function": {
        "de": "run_agent sollte eine Funktion sein, ist aber {loop_type}.",
        "en": "run_agent should be a function, but it is a {loop_type}.",
    },
    "loop.correct": {
        "de": "Deine Schleife hält das Protokoll ein (erst die Nachricht des Modells, dann genau ein "
              "Ergebnis je Aufruf mit seiner id), hört bei einer Antwort und bei max_steps auf, macht "
              "aus jedem Fehler Text, kürzt mit Hinweis und zählt Schritte, Aufrufe und Tokens wie "
              "agentlibs run_agent.",
        "en": "Your loop keeps the protocol (the model's message first, then exactly one result per "
              "call with its id), stops at an answer and at max_steps, turns every failure into text, "
              "cuts with a note, and counts steps, calls and tokens as agentlib's run_agent does.",
    },
}
