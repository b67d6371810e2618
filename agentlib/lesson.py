"""The lesson's question and the four-step script that rehearses it offline.

Three of its four steps go wrong on purpose, and the script corrects itself the way a
model does: a search without hits, a misspelt file name, the right file read past the line cap.
"""

from .messages import Call, Message

QUESTION = {
    "en": "Which kinds of timeout does httpx have, and what is each one for? Cite the docs.",
    "de": "Welche Arten von Timeouts kennt httpx, und wofür ist jede da? Belege es mit der Doku.",
}

# Where advanced/timeouts.md states the 5-second default and defines the four kinds;
# tests/lesson/test_lesson.py proves both.
DEFAULT_LINE = 9
TIMEOUT_LINES = (15, 20)

ANSWER = {
    "en": (
        "httpx has four timeouts, each 5 seconds by default:\n"
        "- connect: how long establishing the connection may take (ConnectTimeout)\n"
        "- read: how long to wait for the next piece of the response (ReadTimeout)\n"
        "- write: how long sending a piece of the request may take (WriteTimeout)\n"
        "- pool: how long to wait for a free connection from the pool (PoolTimeout)\n"
        "Source: advanced/timeouts.md, line {2} (the default) and lines {0}-{1} (the four kinds)."
    ),
    "de": (
        "httpx kennt vier Timeouts, jeder standardmäßig 5 Sekunden:\n"
        "- connect: wie lange der Verbindungsaufbau dauern darf (ConnectTimeout)\n"
        "- read: wie lange auf das nächste Stück der Antwort gewartet wird (ReadTimeout)\n"
        "- write: wie lange das Senden eines Stücks der Anfrage dauern darf (WriteTimeout)\n"
        "- pool: wie lange auf eine freie Verbindung aus dem Pool gewartet wird (PoolTimeout)\n"
        "Quelle: advanced/timeouts.md, Zeile {2} (der Standardwert) und Zeilen {0}-{1} (die vier Arten)."
    ),
}


def lesson_script(language="en"):
    """The lesson's four replies: no hits, a misspelt file, the right file past the cap, the answer."""
    return [
        Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "pool timeout"}')]),
        Message(tool_calls=[Call("c2", "read_doc", '{"path": "advanced/timeout.md"}')]),
        Message(tool_calls=[Call("c3", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 200}')]),
        Message(content=ANSWER[language].format(*TIMEOUT_LINES, DEFAULT_LINE)),
    ]
