"""The lesson's question and the four-step script that rehearses it offline.

Three of its four steps go wrong on purpose (a search without hits, a read
past the line cap, a misspelt file name), so one replay shows the loop
surviving each of them.
"""

from .models import Call, Message

QUESTION = {
    "en": "Which kinds of timeout does httpx have, and what is each one for? Cite the docs.",
    "de": "Welche Arten von Timeouts kennt httpx, und wofür ist jede da? Belege es mit der Doku.",
}

# Where advanced/timeouts.md defines the four kinds; tests/test_lesson.py proves it.
TIMEOUT_LINES = (15, 20)

ANSWER = {
    "en": ("httpx has four timeouts, each 5 seconds by default:\n"
           "- connect: how long establishing the connection may take (ConnectTimeout)\n"
           "- read: how long to wait for the next piece of the response (ReadTimeout)\n"
           "- write: how long sending a piece of the request may take (WriteTimeout)\n"
           "- pool: how long to wait for a free connection from the pool (PoolTimeout)\n"
           "Source: advanced/timeouts.md, lines {0}-{1}."),
    "de": ("httpx kennt vier Timeouts, jeder standardmäßig 5 Sekunden:\n"
           "- connect: wie lange der Verbindungsaufbau dauern darf (ConnectTimeout)\n"
           "- read: wie lange auf das nächste Stück der Antwort gewartet wird (ReadTimeout)\n"
           "- write: wie lange das Senden eines Stücks der Anfrage dauern darf (WriteTimeout)\n"
           "- pool: wie lange auf eine freie Verbindung aus dem Pool gewartet wird (PoolTimeout)\n"
           "Quelle: advanced/timeouts.md, Zeilen {0}-{1}."),
}


def lesson_script(language="en"):
    """The lesson's four replies: no hits, the 80-line cap, a misspelt file, the answer."""
    return [
        Message(tool_calls=[Call("grep_docs", {"keyword": "pool timeout"})]),
        Message(tool_calls=[Call("read_doc", {"path": "advanced/timeouts.md", "start": 1, "end": 200})]),
        Message(tool_calls=[Call("read_doc", {"path": "advanced/timeout.md"})]),
        Message(content=ANSWER[language].format(*TIMEOUT_LINES)),
    ]
