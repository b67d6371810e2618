"""Notebook 2: the @tool decorator, the registry, call_tool; bonus exercise on lists."""

from .cells import code, md

FILES = {"de": "02_werkzeuge_per_dekorator", "en": "02_tools_by_decorator"}

CELLS = [
    md("title", de="""
        # 2 · Werkzeuge per Dekorator

        **Worum es geht:** Ein Dekorator macht aus einer gewöhnlichen Python-Funktion ein Werkzeug, das ein Modell aufrufen kann – die JSON-Beschreibung schreibt er selbst.

        **Danach kannst du**
        - erklären, was ein Modell von einem Werkzeug zu sehen bekommt (ein JSON-Schema),
        - mit `@tool` eigene Werkzeuge registrieren,
        - vorhersagen, welche Parameter im Schema `required` sind und welchen Typ sie haben.

        ⏱ etwa 12 Minuten
        """, en="""
        # 2 · Tools by decorator

        **What this is about:** a decorator turns an ordinary Python function into a tool a model can call – and writes its JSON description by itself.

        **Afterwards you can**
        - explain what a model gets to see of a tool (a JSON Schema),
        - register tools of your own with `@tool`,
        - predict which parameters end up `required` in the schema and which type they get.

        ⏱ about 12 minutes
        """),
    md("why", de="""
        ## Warum ein Dekorator?

        Ein Modell kann deine Funktionen nicht lesen. Es bekommt zu jedem Werkzeug eine Beschreibung im JSON-Format: Name, wofür das Werkzeug gut ist, und welche Parameter es hat. Von Hand kostet das ein Dutzend Zeilen pro Werkzeug – und sobald du die Funktion änderst, stimmt die Beschreibung nicht mehr.

        Der Dekorator `@tool("Beschreibung für das Modell", parameter="was er bedeutet", ...)` baut die Beschreibung aus der Funktion selbst:
        - Er liest die Signatur. Jeder Parameter wird eine Eigenschaft (*property*) eines JSON-Schema-Objekts.
        - `int` wird zu `"type": "integer"`, `str` zu `"string"`. (Die Fassung in der Lektion kennt nur diese beiden; unsere kennt noch `float` und `bool` und weist alles andere mit einer klaren Meldung ab.)
        - Parameter ohne Standardwert landen in `required`.
        - Funktion und Schema kommen in die Registry `TOOLS`, unter dem Namen der Funktion.
        - Die Funktion selbst bleibt unverändert – du kannst sie weiter von Hand aufrufen.
        """, en="""
        ## Why a decorator?

        A model cannot read your functions. For every tool it gets a description in JSON: the name, what the tool is good for, and which parameters it takes. Written by hand that costs a dozen lines per tool – and as soon as you change the function, the description is out of date.

        The decorator `@tool("description for the model", parameter="what it means", ...)` builds the description from the function itself:
        - It reads the signature. Every parameter becomes a property of a JSON Schema object.
        - `int` becomes `"type": "integer"`, `str` becomes `"string"`. (The lesson's version knows only these two; ours also knows `float` and `bool` and refuses everything else with a clear message.)
        - Parameters without a default value go into `required`.
        - The function and its schema go into the registry `TOOLS`, under the function's name.
        - The function itself stays unchanged – you can still call it by hand.
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        import json

        from agentlib import TOOLS, call_tool, tool
        from agentlib.classroom.show import show
        """),
    md("source-intro", de="""
        So sieht der Dekorator aus – lies ihn einmal von oben nach unten, er ist kürzer, als er klingt:
        """, en="""
        This is the decorator – read it once from top to bottom, it is shorter than it sounds:
        """),
    code("show-tool", """
        show(tool)
        """),
    md("try-intro", de="""
        ## Selbst ausprobieren

        Ein kleines Werkzeug, das nichts mit httpx zu tun hat: Es addiert zwei Zahlen. Die Zelle registriert es und druckt das Schema, das ein Modell zu sehen bekäme.
        """, en="""
        ## Try it yourself

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
        Look closely: both parameters are `integer`, because they are annotated with `int`. Only `a` is in `required`, since `b` has a default value. The descriptions are meant for the model, not for you.

        And the function is still the same old function:
        """),
    code("add-by-hand", """
        add(2, 3)
        """),
    md("call-tool-intro", de="""
        ## So ruft die Schleife ein Werkzeug auf

        Das Modell schickt keinen Python-Aufruf, sondern einen Namen und die Argumente als JSON-Text. `call_tool` prüft beides gegen das Schema und ruft dann die Funktion auf. Eine Zahl in Anführungszeichen (`"3"`) lässt es durchgehen – Modelle machen das ab und zu, und eine Ablehnung würde nur einen Schritt kosten:
        """, en="""
        ## How the loop calls a tool

        The model does not send a Python call but a name and the arguments as JSON text. `call_tool` checks both against the schema and then calls the function. A number in quotes (`"3"`) is let through – models do that now and then, and refusing it would only cost a step:
        """),
    code("call-tool", """
        call_tool("add", '{"a": 2, "b": "3"}')
        """),
    md("unknown-intro", de="""
        Und wenn das Modell sich einen Werkzeugnamen ausdenkt oder ein Argument vergisst? Dann gibt es eine Fehlermeldung, die dem Modell sagt, was es stattdessen tun soll. (Wie die Schleife daraus Text macht, statt abzustürzen, siehst du in Notebook 4.)
        """, en="""
        And when the model makes up a tool name or forgets an argument? Then there is an error message that tells the model what to do instead. (Notebook 4 shows how the loop turns it into text instead of crashing.)
        """),
    code("unknown-tool", """
        for name, arguments in [("search_web", '{"query": "httpx"}'), ("add", '{"b": 1}')]:
            try:
                call_tool(name, arguments)
            except (ValueError, TypeError) as error:
                print(f"{name}({arguments}) → {type(error).__name__}: {error}")
        """),
    md("refused-intro", de="""
        Eine Annotation, die der Dekorator nicht beschreiben kann, weist er gleich beim Registrieren ab – besser jetzt als später mitten in einem Lauf:
        """, en="""
        An annotation the decorator cannot describe is refused right when you register the tool – better now than later in the middle of a run:
        """),
    code("refused", """
        try:
            @tool("Add up numbers.", numbers="the numbers to add")
            def total(numbers: list[int]) -> int:
                return sum(numbers)
        except TypeError as error:
            print(error)
        """),
    md("registry", de="""
        ## Die Registry ist ein Dictionary

        `TOOLS` ist ein ganz gewöhnliches Dictionary: Name → Werkzeug. Die Schleife bietet dem Modell alles an, was darin steht. Unser Rechenwerkzeug hat bei httpx-Fragen nichts verloren, also nehmen wir es wieder heraus:
        """, en="""
        ## The registry is a dictionary

        `TOOLS` is a plain dictionary: name → tool. The loop offers the model everything in it. Our calculator has no business in httpx questions, so we take it out again:
        """),
    code("registry-clean", """
        del TOOLS["add"]
        print(list(TOOLS))
        """),
    md("exercise-lists", de="""
        ## Bonusübung: Listen als Parameter

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
        ## Bonus exercise: lists as parameters

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
    code("exercise-lists-check", """
        from agentlib.classroom.exercises import exercise

        q_lists = exercise("lists", LANGUAGE)
        q_lists.check(json_schema)
        # q_lists.hint()
        # q_lists.solution()
        """, tags=["check"]),
    md("next", de="""
        ## Zusammengefasst

        Ein Werkzeug ist eine Funktion plus eine Beschreibung für das Modell. Der Dekorator hält beide zusammen, damit sie nicht auseinanderlaufen. Die Beschreibungen sind der einzige Teil, den das Modell liest – je klarer sie sind, desto seltener ruft es ein Werkzeug falsch auf.

        Weiter mit **[3 · Doku-Werkzeuge](03_doku_werkzeuge.ipynb)**: drei echte Werkzeuge, mit denen der Agent die httpx-Doku durchsucht.
        """, en="""
        ## In short

        A tool is a function plus a description for the model. The decorator keeps the two together so they cannot drift apart. The descriptions are the only part the model reads – the clearer they are, the less often it calls a tool the wrong way.

        Next: **[3 · Doc tools](03_doc_tools.ipynb)**: three real tools the agent uses to search the httpx docs.
        """),
]
