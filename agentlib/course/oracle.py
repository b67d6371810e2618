"""Two scripted models that run the evaluation offline, one that knows the answers and one that guesses.

`OracleModel` searches the way the question set says and cites the lines it really read (if the
tools work and the set is right, it scores full marks); `NaiveModel` greps the longest word of
the question, cites the top of the first file it hits and never declines.
"""

import json
import re
from pathlib import Path

from ..messages import Call, Message
from .questions import load_questions
from .text import say

TEXT = {
    "cite": {
        "de": "Die Antwort steht in {file}, Zeilen {first}-{last}.",
        "en": "The answer is in {file}, lines {first}-{last}.",
    },
    "decline": {
        "de": "Dazu habe ich in der Dokumentation keine Hinweise gefunden, deshalb kann ich es nicht beantworten.",
        "en": "The documentation does not mention this; I found no evidence, so I cannot answer it.",
    },
}


class OracleModel:
    """Greps the question's keywords, reads the expected lines once a grep found the expected file, then
    cites the line numbers read_doc really returned, or declines. It never sees the docs directly:
    when a tool breaks, or the set names a wrong file, its score drops."""

    name = "oracle"

    def __init__(self, questions=None):
        questions = load_questions(questions) if questions is None or isinstance(questions, (str, Path)) else questions
        self.entries = {text: (entry, language) for entry in questions for language, text in entry["question"].items()}

    def __call__(self, messages, tools):
        question = messages[1]["content"]
        if question not in self.entries:
            raise ValueError(f"the oracle knows only the questions of its question set, not {question[:60]!r}")
        entry, language = self.entries[question]
        called, seen = last_call(messages)
        greps = sum(json.dumps(m).count('"grep_docs"') for m in messages if m["role"] == "assistant")
        if called == "read_doc":  # answer with the line numbers that really came back
            numbers = [int(n) for n in re.findall(r"^(\d+): ", seen, re.M)]
            if numbers:
                return Message(
                    content=say(TEXT, "cite", language, file=entry["file"], first=numbers[0], last=numbers[-1])
                ), None
        elif entry["answerable"] and f"{entry['file']}:" in seen:
            first, last = entry["lines"]
            return call(messages, "read_doc", path=entry["file"], start=first, end=last)
        elif greps < max(len(entry["keywords"]), 1):
            return call(
                messages, "grep_docs", keyword=entry["keywords"][greps] if entry["keywords"] else longest_word(question)
            )
        return Message(content=say(TEXT, "decline", language)), None


def call(messages, name, **arguments):
    """A reply that calls one tool, with an id unique within the run ("call_3" after two replies)."""
    return Message(
        tool_calls=[Call(f"call_{sum(m['role'] == 'assistant' for m in messages) + 1}", name, arguments)]
    ), None


class NaiveModel:
    """A deliberately weak searcher: greps the longest word, cites the first hit's top lines, never declines."""

    name = "naive"

    def __call__(self, messages, tools):
        called, seen = last_call(messages)
        hit = re.match(r"^([\w./-]+\.md):\d+:", seen)
        if called is None:
            return call(messages, "grep_docs", keyword=longest_word(messages[1]["content"]))
        if called == "grep_docs" and hit:
            return call(messages, "read_doc", path=hit.group(1), start=1, end=20)
        file = last_path(messages) if called == "read_doc" else "index.md"  # a confident guess
        return Message(content=f"httpx does this for you; see {file}, lines 1-20."), None


def last_call(messages):
    """The tool the model called last (None before its first call) and the results since.

    Example: ("grep_docs", "a.md:3: x")
    """
    replies = [i for i, m in enumerate(messages) if m["role"] == "assistant" and m.get("tool_calls")]
    if not replies:
        return None, ""
    reply = messages[replies[-1]]
    results = [m["content"] for m in messages[replies[-1] + 1 :] if m["role"] == "tool"]
    return reply["tool_calls"][-1]["function"]["name"], "\n".join(results)


def last_path(messages):
    """The path argument of the model's newest read_doc call."""
    reply = next(m for m in reversed(messages) if m["role"] == "assistant")
    return json.loads(reply["tool_calls"][-1]["function"]["arguments"])["path"]


def longest_word(text):
    """Example: longest_word("Does httpx support HTTP/3?") -> "support" """
    return max(re.findall(r"[\w/.-]+", text), key=len).strip(".")
