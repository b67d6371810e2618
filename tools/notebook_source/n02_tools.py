"""Notebook 2: the student writes the @tool decorator; the registry, call_tool; bonus exercise on lists."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "02_werkzeuge_per_dekorator", "en": "02_tools_by_decorator"}

CELLS = [
    md(
        "title",
        de="""
        # 2 · Werkzeuge per Dekorator

        **Worum es geht:** der Dekorator `@tool`, der aus einer Python-Funktion ein Werkzeug für ein Modell macht. Du schreibst ihn.

        **Danach kannst du** vorhersagen, welchen Typ ein Parameter im Schema bekommt und ob er `required` ist.

        ⏱ etwa 7 Minuten, dazu optional 8 Minuten
        """,
        en="""
        # 2 · Tools by decorator

        **What this is about:** the decorator `@tool`, which turns a Python function into a tool for a model. You write it.

        **Afterwards you can** predict which type a parameter gets in the schema and whether it is `required`.

        ⏱ about 7 minutes, plus 8 optional minutes
        """,
    ),
    md(
        "why",
        de="""
        ## Warum ein Dekorator?

        Ein Modell kann deine Funktionen nicht lesen; es bekommt zu jedem Werkzeug eine Beschreibung in JSON. Von Hand kostet die ein Dutzend Zeilen und veraltet mit jeder Änderung. `@tool("Beschreibung für das Modell", parameter="was er bedeutet", ...)` baut sie aus der Funktion selbst, in der Form der Function-Calling-API von OpenAI.
        """,
        en="""
        ## Why a decorator?

        A model cannot read your functions; for every tool it gets a description in JSON. By hand that costs a dozen lines and goes stale with every change. `@tool("description for the model", parameter="what it means", ...)` builds it from the function itself, in the shape of OpenAI's function-calling API.
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("02", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        import json

        from agentlib import call_tool
        from agentlib.course import exercise, load, show

        agent = load(LANGUAGE, before=3)  # ⟨dein bestandener Dekorator, auch nach einem Neustart des Kernels, sonst agentlibs|your passed decorator, after a kernel restart too, else agentlib's⟩
        tool, TOOLS = agent.tool, agent.TOOLS
        """,
    ),
    md(
        "build-decorator",
        de="""
        ## Du bist dran: die Regel des Schemas

        Im Gerüst fehlt nur die Regel, nach der aus jedem Parameter ein Eintrag wird (an der Stelle mit `...`):
        - Jeder Parameter bekommt in `properties` einen Eintrag mit seinem JSON-Typ und seiner Beschreibung (aus `params`, unter seinem Namen).
        - Mit `int` annotiert heißt `"integer"`, alles andere `"string"`.
        - Wer keinen Standardwert hat, kommt auch in die Liste `required`.

        Dafür gibt es `inspect.signature`: Es liest die Signatur einer Funktion, und deren `parameters` ordnen jedem Namen ein `inspect.Parameter` zu, mit `annotation` und `default`. Fehlt der Standardwert, steht dort die Marke `Parameter.empty`.

        Hängst du fest: `q.hint()` nennt erst die Regel, beim zweiten Mal die Form des Codes.
        """,
        en="""
        ## Your turn: the schema's rule

        The skeleton lacks only the rule that turns each parameter into an entry (where the `...` is):
        - Every parameter gets an entry in `properties` with its JSON type and its description (from `params`, under its name).
        - Annotated with `int` means `"integer"`, anything else `"string"`.
        - One without a default value goes into the list `required` too.

        `inspect.signature` is made for this: it reads a function's signature, whose `parameters` map each name to an `inspect.Parameter` with an `annotation` and a `default`. Where there is no default, it holds the marker `Parameter.empty`.

        If you get stuck: `q.hint()` states the rule first, the shape of the code the second time.
        """,
        tags=["exercise"],
    ),
    code("build-decorator-code", skeleton("decorator"), tags=["exercise"]),
    check_cell("build-decorator-check", "decorator", "tool, TOOLS", pick=True),
    md(
        "try-intro",
        de="""
        ## Ein Werkzeug registrieren

        Mit deinem `tool`, wenn es bestanden hat: ein Werkzeug, das zwei Zahlen addiert, und das Schema, das ein Modell davon sieht.
        """,
        en="""
        ## Registering a tool

        With your `tool`, if it passed: a tool that adds two numbers, and the schema a model sees of it.
        """,
    ),
    code(
        "add-tool",
        """
        @tool("Add two whole numbers.", a="the first number", b="the second number; 0 if left out")
        def add(a: int, b: int = 0) -> int:
            return a + b

        print(json.dumps(TOOLS["add"]["schema"], indent=2))
        """,
    ),
    md(
        "add-observe",
        de="""
        Nur `a` ist `required`, denn `b` hat einen Standardwert. Je klarer die Beschreibungen, desto seltener ruft das Modell ein Werkzeug falsch auf.
        """,
        en="""
        Only `a` is `required`, since `b` has a default. The clearer the descriptions, the less often the model calls a tool wrongly.
        """,
    ),
    md(
        "call-tool-intro",
        de="""
        ## So ruft die Schleife ein Werkzeug auf *(optional)*

        Die Funktion ist noch ganz die alte – `add(2, 3)` geht wie immer. Das Modell aber schickt keinen Python-Aufruf, sondern einen Namen und die Argumente als JSON-Text. `call_tool` schlägt den Namen in der Registry nach, prüft die Argumente gegen das Schema und ruft dann `TOOLS[name]["fn"]` auf. Eine Zahl in Anführungszeichen (`"3"`) lässt es durchgehen – Modelle machen das ab und zu. Erfindet das Modell einen Werkzeugnamen oder vergisst es ein Argument, gibt es eine Fehlermeldung, die ihm sagt, was es stattdessen tun soll.
        """,
        en="""
        ## How the loop calls a tool *(optional)*

        The function is still the same old function – `add(2, 3)` works as ever. But the model does not send a Python call; it sends a name and the arguments as JSON text. `call_tool` looks the name up in the registry, checks the arguments against the schema and then calls `TOOLS[name]["fn"]`. A number in quotes (`"3"`) is let through – models do that now and then. When the model makes up a tool name or forgets an argument, there is an error message that tells it what to do instead.
        """,
        tags=["optional"],
    ),
    code(
        "add-by-hand",
        """
        # ⟨braucht das Werkzeug add: führe zuerst die Zelle mit @tool(...) def add aus|needs the tool add: run the cell with @tool(...) def add first⟩
        add(2, 3)
        """,
        needs="add-tool",
        tags=["optional"],
    ),
    code(
        "call-tool",
        """
        # ⟨braucht das Werkzeug add: führe zuerst die Zelle mit @tool(...) def add aus|needs the tool add: run the cell with @tool(...) def add first⟩
        print(call_tool("add", '{"a": 2, "b": "3"}', TOOLS))

        for name, arguments in [("search_web", '{"query": "httpx"}'), ("add", '{"b": 1}')]:
            try:
                call_tool(name, arguments, TOOLS)
            except (ValueError, TypeError) as error:
                print(f"{name}({arguments}) → {type(error).__name__}: {error}")
        """,
        needs="add-tool",
        tags=["optional"],
    ),
    md(
        "registry",
        de="""
        ## Die Registry ist ein Dictionary *(optional)*

        `TOOLS` ist ein ganz gewöhnliches Dictionary: Name → `{"fn": ..., "schema": ...}`. Die Schleife bietet dem Modell alles an, was darin steht. Unser Rechenwerkzeug hat bei httpx-Fragen nichts verloren, also nehmen wir es wieder heraus (die Zelle darfst du beliebig oft ausführen):
        """,
        en="""
        ## The registry is a dictionary *(optional)*

        `TOOLS` is a plain dictionary: name → `{"fn": ..., "schema": ...}`. The loop offers the model everything in it. Our calculator has no business in httpx questions, so we take it out again (you may run the cell as often as you like):
        """,
        tags=["optional"],
    ),
    code(
        "registry-clean",
        """
        TOOLS.pop("add", None)
        print(list(TOOLS))
        """,
        tags=["optional"],
    ),
    md(
        "reference-intro",
        de="""
        ## Die fertige Fassung in `agentlib` *(optional)*

        Die Fassung in `agentlib/tools.py` tut dasselbe wie deine und ein wenig mehr: Sie kennt auch `float` und `bool`, verlangt für jeden Parameter eine Beschreibung und weist eine Annotation, die sie nicht beschreiben kann, gleich beim Registrieren ab – besser jetzt als später mitten in einem Lauf:
        """,
        en="""
        ## The finished version in `agentlib` *(optional)*

        The version in `agentlib/tools.py` does the same as yours and a little more: it also knows `float` and `bool`, insists on a description for every parameter, and refuses an annotation it cannot describe right when the tool is registered – better now than later in the middle of a run:
        """,
        tags=["optional"],
    ),
    code(
        "refused",
        """
        import agentlib

        show(agentlib.tools.tool)
        try:
            @agentlib.tools.tool("Add up numbers.", numbers="the numbers to add")
            def total(numbers: list[int]) -> int:
                return sum(numbers)
        except TypeError as error:
            print(error)
        """,
        tags=["optional"],
    ),
    md(
        "exercise-lists",
        de="""
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
        """,
        en="""
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
        """,
        tags=["exercise", "optional"],
    ),
    code(
        "exercise-lists-code",
        """
        import typing

        def json_schema(annotation):
            # ⟨DEIN CODE HIER|YOUR CODE HERE⟩
            return ...
        """,
        tags=["exercise", "optional"],
    ),
    check_cell("exercise-lists-check", "lists", "json_schema", name="q_lists", optional=True),
    md(
        "next",
        de="""
        Weiter mit **[3 · Doku-Werkzeuge](03_doku_werkzeuge.ipynb)**.
        """,
        en="""
        Next: **[3 · Doc tools](03_doc_tools.ipynb)**.
        """,
    ),
]
