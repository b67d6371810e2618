"""Notebook 2: the student writes the @tool decorator; the registry, call_tool; bonus exercise on lists."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "02_werkzeuge_per_dekorator", "en": "02_tools_by_decorator"}

CELLS = [
    md("title", de="""
        # 2 · Werkzeuge per Dekorator

        **Worum es geht:** Ein Dekorator macht aus einer gewöhnlichen Python-Funktion ein Werkzeug, das ein Modell aufrufen kann – die JSON-Beschreibung schreibt er selbst. Du schreibst ihn selbst.

        **Danach kannst du**
        - erklären, was ein Modell von einem Werkzeug zu sehen bekommt (ein JSON-Schema),
        - den Dekorator `tool` schreiben und mit ihm Werkzeuge registrieren,
        - vorhersagen, welche Parameter im Schema `required` sind und welchen Typ sie haben.

        ⏱ etwa 9 Minuten, dazu optional 5 Minuten Bonusübung
        """, en="""
        # 2 · Tools by decorator

        **What this is about:** a decorator turns an ordinary Python function into a tool a model can call – and writes its JSON description by itself. You write it yourself.

        **Afterwards you can**
        - explain what a model gets to see of a tool (a JSON Schema),
        - write the decorator `tool` and register tools with it,
        - predict which parameters end up `required` in the schema and which type they get.

        ⏱ about 9 minutes, plus an optional 5-minute bonus exercise
        """),
    md("why", de="""
        ## Warum ein Dekorator?

        Ein Modell kann deine Funktionen nicht lesen. Es bekommt zu jedem Werkzeug eine Beschreibung im JSON-Format: Name, wofür das Werkzeug gut ist, und welche Parameter es hat. Von Hand kostet das ein Dutzend Zeilen pro Werkzeug – und sobald du die Funktion änderst, stimmt die Beschreibung nicht mehr.

        Der Dekorator `@tool("Beschreibung für das Modell", parameter="was er bedeutet", ...)` baut die Beschreibung aus der Funktion selbst:
        - Er liest die Signatur (`inspect.signature`). Jeder Parameter wird eine Eigenschaft (*property*) eines JSON-Schema-Objekts, mit Typ und Beschreibung.
        - `int` wird zu `"type": "integer"`, alles andere zu `"string"` – auch ein Parameter ganz ohne Annotation. Mehr Typen braucht diese Lektion nicht.
        - Parameter ohne Standardwert landen in `required`.
        - Die Registry `TOOLS` bekommt unter dem Namen der Funktion einen Eintrag `{"fn": funktion, "schema": schema}`.
        - Die Funktion selbst gibt er unverändert zurück – du kannst sie weiter von Hand aufrufen.

        Das Schema hat die Form, die die Function-Calling-API von OpenAI erwartet:

        ```python
        {"type": "function",
         "function": {"name": "add", "description": "Add two whole numbers.",
                      "parameters": {"type": "object",
                                     "properties": {"a": {"type": "integer", "description": "the first number"}, ...},
                                     "required": ["a"]}}}
        ```
        """, en="""
        ## Why a decorator?

        A model cannot read your functions. For every tool it gets a description in JSON: the name, what the tool is good for, and which parameters it takes. Written by hand that costs a dozen lines per tool – and as soon as you change the function, the description is out of date.

        The decorator `@tool("description for the model", parameter="what it means", ...)` builds the description from the function itself:
        - It reads the signature (`inspect.signature`). Every parameter becomes a property of a JSON Schema object, with a type and a description.
        - `int` becomes `"type": "integer"`, everything else `"string"` – a parameter without any annotation too. This lesson needs no more types.
        - Parameters without a default value go into `required`.
        - The registry `TOOLS` gets an entry `{"fn": function, "schema": schema}` under the function's name.
        - The function itself is returned unchanged – you can still call it by hand.

        The schema has the shape OpenAI's function-calling API expects:

        ```python
        {"type": "function",
         "function": {"name": "add", "description": "Add two whole numbers.",
                      "parameters": {"type": "object",
                                     "properties": {"a": {"type": "integer", "description": "the first number"}, ...},
                                     "required": ["a"]}}}
        ```
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        import json

        from agentlib import TOOLS, call_tool, tool  # ⟨die fertige Fassung; deine ersetzt sie, sobald sie die Prüfung besteht|the finished version; yours replaces it once it passes the check⟩
        from agentlib.classroom import exercise
        from agentlib.classroom import show
        """),
    md("build-decorator", de="""
        ## Du bist dran: schreib `tool`

        Fülle die Lücken (`...`) in der nächsten Zelle und führe sie aus. Die Prüfzelle darunter registriert damit ein paar Probewerkzeuge und vergleicht die Schemas mit denen der fertigen Fassung aus `agentlib`. Hängst du fest, nimm das `#` vor `q.hint()` oder `q.solution()` weg.

        Besteht deine Fassung, arbeiten die Zellen danach mit ihr weiter; sonst mit der fertigen – das sagt dir die letzte Zeile der Prüfzelle.
        """, en="""
        ## Your turn: write `tool`

        Fill in the gaps (`...`) in the next cell and run it. The check cell below uses it to register a few trial tools and compares their schemas with those of the finished version from `agentlib`. If you get stuck, remove the `#` in front of `q.hint()` or `q.solution()`.

        If your version passes, the cells after it carry on with yours; otherwise with the finished one – the last line of the check cell tells you which.
        """, tags=["exercise"]),
    code("build-decorator-code", skeleton("decorator"), tags=["exercise"]),
    check_cell("build-decorator-check", "decorator", "tool, TOOLS", pick=True),
    md("try-intro", de="""
        ## Ein Werkzeug registrieren

        Ein kleines Werkzeug, das nichts mit httpx zu tun hat: Es addiert zwei Zahlen. Die Zelle registriert es und druckt das Schema, das ein Modell zu sehen bekäme.
        """, en="""
        ## Registering a tool

        A small tool that has nothing to do with httpx: it adds two numbers. The cell registers it and prints the schema a model would see.
        """),
    code("add-tool", """
        @tool("Add two whole numbers.", a="the first number", b="the second number; 0 if left out")
        def add(a: int, b: int = 0) -> int:
            return a + b

        print(json.dumps(TOOLS["add"]["schema"], indent=2))
        """),
    md("add-observe", de="""
        Schau genau hin: Beide Parameter sind `integer`, weil sie mit `int` annotiert sind. Nur `a` steht in `required`, denn `b` hat einen Standardwert. Die Beschreibungen sind englisch – sie sind für das Modell geschrieben, nicht für dich.

        Und die Funktion ist noch ganz die alte:
        """, en="""
        Look closely: both parameters are `integer`, because they are annotated with `int`. Only `a` is in `required`, since `b` has a default value. The descriptions are written for the model, not for you.

        And the function is still the same old function:
        """),
    code("add-by-hand", """
        # ⟨braucht das Werkzeug add: führe zuerst die Zelle mit @tool(...) def add aus|needs the tool add: run the cell with @tool(...) def add first⟩
        add(2, 3)
        """, needs="add-tool"),
    md("call-tool-intro", de="""
        ## So ruft die Schleife ein Werkzeug auf

        Das Modell schickt keinen Python-Aufruf, sondern einen Namen und die Argumente als JSON-Text. `call_tool` schlägt den Namen in der Registry nach, prüft die Argumente gegen das Schema und ruft dann `TOOLS[name]["fn"]` auf. Eine Zahl in Anführungszeichen (`"3"`) lässt es durchgehen – Modelle machen das ab und zu, und eine Ablehnung würde nur einen Schritt kosten. Erfindet das Modell einen Werkzeugnamen oder vergisst es ein Argument, gibt es eine Fehlermeldung, die ihm sagt, was es stattdessen tun soll. (Wie die Schleife daraus Text macht, statt abzustürzen, siehst du in Notebook 4.)
        """, en="""
        ## How the loop calls a tool

        The model does not send a Python call but a name and the arguments as JSON text. `call_tool` looks the name up in the registry, checks the arguments against the schema and then calls `TOOLS[name]["fn"]`. A number in quotes (`"3"`) is let through – models do that now and then, and refusing it would only cost a step. When the model makes up a tool name or forgets an argument, there is an error message that tells it what to do instead. (Notebook 4 shows how the loop turns it into text instead of crashing.)
        """),
    code("call-tool", """
        # ⟨braucht das Werkzeug add: führe zuerst die Zelle mit @tool(...) def add aus|needs the tool add: run the cell with @tool(...) def add first⟩
        print(call_tool("add", '{"a": 2, "b": "3"}', TOOLS))

        for name, arguments in [("search_web", '{"query": "httpx"}'), ("add", '{"b": 1}')]:
            try:
                call_tool(name, arguments, TOOLS)
            except (ValueError, TypeError) as error:
                print(f"{name}({arguments}) → {type(error).__name__}: {error}")
        """, needs="add-tool"),
    md("registry", de="""
        ## Die Registry ist ein Dictionary

        `TOOLS` ist ein ganz gewöhnliches Dictionary: Name → `{"fn": ..., "schema": ...}`. Die Schleife bietet dem Modell alles an, was darin steht. Unser Rechenwerkzeug hat bei httpx-Fragen nichts verloren, also nehmen wir es wieder heraus (die Zelle darfst du beliebig oft ausführen):
        """, en="""
        ## The registry is a dictionary

        `TOOLS` is a plain dictionary: name → `{"fn": ..., "schema": ...}`. The loop offers the model everything in it. Our calculator has no business in httpx questions, so we take it out again (you may run the cell as often as you like):
        """),
    code("registry-clean", """
        TOOLS.pop("add", None)
        print(list(TOOLS))
        """),
    md("summary", de="""
        ## Zusammengefasst

        Ein Werkzeug ist eine Funktion plus eine Beschreibung für das Modell. Der Dekorator hält beide zusammen, damit sie nicht auseinanderlaufen. Das Modell sieht das ganze Schema – Name, Beschreibung, jeden Parameter mit Typ und Beschreibung, und was Pflicht ist – und später jedes Ergebnis. Je klarer die Beschreibungen sind, desto seltener ruft es ein Werkzeug falsch auf.

        Weiter mit **[3 · Doku-Werkzeuge](03_doku_werkzeuge.ipynb)** – oder erst noch die beiden optionalen Abschnitte unten.
        """, en="""
        ## In short

        A tool is a function plus a description for the model. The decorator keeps the two together so they cannot drift apart. The model sees the whole schema – name, description, every parameter with its type and description, and which ones are required – and later every result. The clearer the descriptions, the less often it calls a tool the wrong way.

        Next: **[3 · Doc tools](03_doc_tools.ipynb)** – or first the two optional sections below.
        """),
    md("reference-intro", de="""
        ## Die fertige Fassung in `agentlib` *(optional)*

        Die Fassung in `agentlib/tools.py` tut dasselbe wie deine und ein wenig mehr: Sie kennt auch `float` und `bool`, verlangt für jeden Parameter eine Beschreibung und weist eine Annotation, die sie nicht beschreiben kann, gleich beim Registrieren ab – besser jetzt als später mitten in einem Lauf:
        """, en="""
        ## The finished version in `agentlib` *(optional)*

        The version in `agentlib/tools.py` does the same as yours and a little more: it also knows `float` and `bool`, insists on a description for every parameter, and refuses an annotation it cannot describe right when the tool is registered – better now than later in the middle of a run:
        """),
    code("refused", """
        import agentlib

        show(agentlib.tools.tool)
        try:
            @agentlib.tools.tool("Add up numbers.", numbers="the numbers to add")
            def total(numbers: list[int]) -> int:
                return sum(numbers)
        except TypeError as error:
            print(error)
        """),
    md("exercise-lists", de="""
        ## Bonusübung: Listen als Parameter *(optional)*

        Eben hat der Dekorator `list[int]` abgewiesen. In JSON Schema sieht eine Liste so aus: `{"type": "array", "items": {...}}` – und `items` beschreibt, was in der Liste steht.

        **Deine Aufgabe:** Schreib `json_schema(annotation)`, das für eine Annotation das passende Stück JSON Schema zurückgibt:

        | Annotation | Ergebnis |
        |---|---|
        | `str` | `{"type": "string"}` |
        | `int` | `{"type": "integer"}` |
        | `float` | `{"type": "number"}` |
        | `bool` | `{"type": "boolean"}` |
        | `list[str]` | `{"type": "array", "items": {"type": "string"}}` |
        | `list[int]` | `{"type": "array", "items": {"type": "integer"}}` |

        Ersetze `return ...` durch deinen Code, führe die Zelle aus und dann die Prüfzelle darunter. Hängst du fest, entferne das `#` vor `q_lists.hint()` oder `q_lists.solution()`.
        """, en="""
        ## Bonus exercise: lists as parameters *(optional)*

        The decorator just refused `list[int]`. In JSON Schema a list looks like this: `{"type": "array", "items": {...}}` – and `items` describes what is in the list.

        **Your task:** write `json_schema(annotation)`, which returns the matching piece of JSON Schema for an annotation:

        | Annotation | Result |
        |---|---|
        | `str` | `{"type": "string"}` |
        | `int` | `{"type": "integer"}` |
        | `float` | `{"type": "number"}` |
        | `bool` | `{"type": "boolean"}` |
        | `list[str]` | `{"type": "array", "items": {"type": "string"}}` |
        | `list[int]` | `{"type": "array", "items": {"type": "integer"}}` |

        Replace `return ...` with your code, run the cell, then the check cell below. If you get stuck, remove the `#` in front of `q_lists.hint()` or `q_lists.solution()`.
        """, tags=["exercise"]),
    code("exercise-lists-code", """
        import typing

        def json_schema(annotation):
            # ⟨DEIN CODE HIER|YOUR CODE HERE⟩
            return ...
        """, tags=["exercise"]),
    check_cell("exercise-lists-check", "lists", "json_schema", name="q_lists"),
    md("next", de="""
        Weiter mit **[3 · Doku-Werkzeuge](03_doku_werkzeuge.ipynb)**: drei echte Werkzeuge, mit denen der Agent die httpx-Doku durchsucht.
        """, en="""
        Next: **[3 · Doc tools](03_doc_tools.ipynb)**: three real tools the agent uses to search the httpx docs.
        """),
]
