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
        "de": '{where} bricht deine Schleife ab mit {error}{at}. Die Regel: Jeder Fehler eines Werkzeugs wird zur Beobachtung – abgefangen und als Text an das Modell zurück (Schritt 5).',
        "en": '{where}, your loop fails with {error}{at}. The rule: every failure of a tool becomes an observation – caught and handed back to the model as text (step 5).',
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
        "de": 'Vor Modellaufruf {step} enthält die Nachrichtenliste etwas anderes als dicts mit einer "role" ({what}). Die API bekommt JSON: In die Liste gehört die Nachricht als dict (Schritt 4), nicht das Message-Objekt selbst.',
        "en": 'Before model call {step}, the message list holds something other than dicts with a "role" ({what}). The API receives JSON: the list takes the message as a dict (step 4), not the Message object itself.',
    },
    "loop.no_assistant": {
        "de": 'Vor Modellaufruf {step} steht die tool-Nachricht für {id} ohne die Nachricht des Modells mit diesem Aufruf davor. Die Regel: erst die Nachricht des Modells in die Liste (Schritt 4), dann ihre Ergebnisse – sonst antwortet die API 400.',
        "en": "Before model call {step}, the tool message for {id} has no model message with that call before it. The rule: the model's message goes into the list first (step 4), then its results – otherwise the API answers 400.",
    },
    "loop.before": {
        "de": "Vor Modellaufruf {step} steht die tool-Nachricht für {id} vor der Nachricht des "
              "Modells, die diesen Aufruf enthält. Die Nachricht des Modells kommt zuerst, dann ihre "
              "Ergebnisse.",
        "en": "Before model call {step}, the tool message for {id} comes before the model message that "
              "holds that call. The model's message comes first, then its results.",
    },
    "loop.no_id": {
        "de": 'Vor Modellaufruf {step} fehlt einer tool-Nachricht die tool_call_id. Die Regel: Jedes Ergebnis trägt die id seines Aufrufs (Schritt 7).',
        "en": 'Before model call {step}, a tool message lacks its tool_call_id. The rule: every result carries the id of its call (step 7).',
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
        "de": 'Vor Modellaufruf {step} weicht die Nachricht des Modells von dem ab, was es geschickt hat: {got} statt {expected}. Die Regel: Die Nachricht kommt unverändert in die Liste (Schritt 4).',
        "en": "Before model call {step}, the model's message differs from what it sent: {got} instead of {expected}. The rule: the message goes into the list unchanged (step 4).",
    },
    "loop.schemas": {
        "de": 'Bei Modellaufruf {step} bekommt das Modell nicht die Schemas aller Werkzeuge in TOOLS. Die Regel: Bei jedem Schritt sieht es alle Werkzeuge, die registriert sind.',
        "en": 'At model call {step}, the model is not given the schemas of all tools in TOOLS. The rule: at every step it sees every registered tool.',
    },
    "loop.not_text": {
        "de": '{where} ist der content der tool-Nachricht kein Text, sondern {what}. Die API nimmt nur Text: Mach aus dem Ergebnis eines Werkzeugs eine Zeichenkette (Schritt 5).',
        "en": "{where}, the tool message's content is not text but {what}. The API takes only text: turn a tool's result into a string (step 5).",
    },
    "loop.unknown_tool": {
        "de": '{where} sagt die Beobachtung nicht, welches Werkzeug fehlt: {got!r}. Die Regel: Der Fehlertext nennt den Namen, den das Modell geschickt hat, damit es sich korrigieren kann (Schritt 5).',
        "en": '{where}, the observation does not say which tool is missing: {got!r}. The rule: the error text names the name the model sent, so it can correct itself (step 5).',
    },
    "loop.failure": {
        "de": '{where} steht die Fehlermeldung nicht in der Beobachtung: {got!r}. Die Regel: Ein Fehler kommt mit seiner Art und seiner Meldung zum Modell zurück (Schritt 5), damit es sich korrigieren kann.',
        "en": '{where}, the error message is missing from the observation: {got!r}. The rule: a failure goes back to the model with its kind and its message (step 5), so it can correct itself.',
    },
    "loop.not_cut": {
        "de": "{where} bekommt das Modell {got} Zeichen. Kürze jede Beobachtung auf höchstens "
              "MAX_OBSERVATION ({limit}) Zeichen und schreib dazu, dass gekürzt wurde.",
        "en": "{where}, the model receives {got} characters. Cut every observation to at most "
              "MAX_OBSERVATION ({limit}) characters and say that it was cut.",
    },
    "loop.no_start": {
        "de": '{where} fehlt der Anfang des Ergebnisses in der Beobachtung. Die Regel: Gekürzt wird hinten – die ersten MAX_OBSERVATION Zeichen bleiben (Schritt 6).',
        "en": '{where}, the beginning of the result is missing from the observation. The rule: the cut is at the end – the first MAX_OBSERVATION characters stay (step 6).',
    },
    "loop.no_note": {
        "de": "{where} wird still gekürzt. Schreib dazu, dass gekürzt wurde (und wie lang es war), "
              "sonst glaubt das Modell, es habe alles gesehen.",
        "en": "{where}, the result is cut silently. Say that it was cut (and how long it was), or the "
              "model believes it has seen everything.",
    },
    "loop.no_arguments": {
        "de": '{where} ruft das Modell {name} mit dem leeren Text "" als Argumenten auf, und deine Schleife antwortet {got!r}. Die Regel: "" heißt keine Argumente, also ein leeres dict (Schritt 5).',
        "en": '{where}, the model calls {name} with the empty text "" as arguments, and your loop answers {got!r}. The rule: "" means no arguments, so an empty dict (step 5).',
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
    "loop.note.registry": {
        "de": 'TOOLS: die Werkzeuge, die du registriert hast',
        "en": 'TOOLS: the tools you registered',
    },
    "loop.note.say": {
        "de": "say(...) druckt nur, wenn verbose gesetzt ist",
        "en": "say(...) prints only when verbose is set",
    },
    "loop.note.step1": {
        "de": 'höchstens max_steps-mal: das Modell fragen, mit der Nachrichtenliste und den Schemas; den Schritt zählen',
        "en": 'at most max_steps times: ask the model, with the message list and the schemas; count the step',
    },
    "loop.note.step2": {
        "de": 'die Tokens addieren, wenn das Modell welche meldet (usage)',
        "en": 'add up the tokens, if the model reported any (usage)',
    },
    "loop.note.step3": {
        "de": 'keine Werkzeugaufrufe: Das ist die Antwort – mit say drucken, mit stats zurückgeben',
        "en": 'no tool calls: this is the answer – say it, return it with stats',
    },
    "loop.note.step4": {
        "de": 'die Nachricht des Modells an die Liste hängen, vor allen ihren Ergebnissen',
        "en": "append the model's message to the list, before any of its results",
    },
    "loop.note.step5": {
        "de": 'jeden Aufruf ausführen: sein Werkzeug mit seinen JSON-Argumenten; jeder Fehler wird Text für das Modell',
        "en": 'run each call: its tool with its JSON arguments; any failure becomes text for the model',
    },
    "loop.note.step6": {
        "de": 'ein zu langes Ergebnis kürzen und dazuschreiben, dass gekürzt wurde',
        "en": 'cut a result that is too long, and say that it was cut',
    },
    "loop.note.step7": {
        "de": 'den Aufruf zählen, mit say eine Vorschauzeile zeigen, genau eine tool-Nachricht mit der id des Aufrufs anhängen',
        "en": "count the call, say a preview line, append exactly one tool message with the call's id",
    },
    "loop.note.step8": {
        "de": 'Schrittlimit erreicht ohne Antwort: das mit say sagen, None mit stats zurückgeben',
        "en": 'the step limit reached without an answer: say so, return None with stats',
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
    "loop.rule": {
        "de": 'Die Regeln: Bei jedem Schritt bekommt das Modell die ganze Liste. Seine Nachricht kommt vor ihre Ergebnisse, jeder Aufruf bekommt genau ein Ergebnis mit seiner id, jeder Fehler eines Werkzeugs wird Text, zu Langes wird mit Hinweis gekürzt. Schluss ist bei einer Antwort ohne Werkzeugaufruf oder nach max_steps Modellaufrufen.',
        "en": 'The rules: at every step the model is given the whole list. Its message comes before its results, every call gets exactly one result with its id, every failure of a tool becomes text, anything too long is cut with a note. It ends with an answer without tool calls, or after max_steps model calls.',
    },
}
