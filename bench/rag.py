"""The one-call RAG answer the agent is compared with: retrieve passages, then ask the model once.

Module 04 retrieves with vectors; here the same shape is built without a
model download: the docs are cut into passages of `LINES` lines, ranked by
BM25 (word overlap, rare words weighing more), and the best `TOP` go into a
single request with the question. That request is what the bench counts:
the tokens a RAG answer costs, against the agent's several steps.

Deliberately left out: embeddings, re-ranking and the model's reply.
"""

import math
import re
from collections import Counter

from agentlib.docs import doc_paths, relative

LINES = 20  # lines per passage
TOP = 5  # passages in the request: about 100 lines of documentation
SYSTEM = (
    "You answer questions about the Python HTTP client library httpx from the documentation passages "
    "given with the question. Cite the file and line numbers you used. If the passages do not answer "
    "the question, say so. Answer in the language of the question."
)


def words(text):
    """Lower-case words. Example: words("Pool timeouts, e.g. 5s") -> ["pool", "timeouts", "e", "g", "5s"]"""
    return re.findall(r"\w+", text.lower())


def passages():
    """(path, first line, text with numbered lines) for every passage of every doc file."""
    found = []
    for path in doc_paths():
        lines = path.read_text(encoding="utf-8").splitlines()
        for start in range(0, len(lines), LINES):
            numbered = "\n".join(f"{n}: {line}" for n, line in enumerate(lines[start : start + LINES], start + 1))
            found.append((relative(path), start + 1, numbered))
    return found


def retrieve(question, top=TOP, k1=1.5, b=0.75):
    """The `top` passages that BM25 ranks highest for `question`, best first."""
    found = passages()
    counts = [Counter(words(text)) for _, _, text in found]
    average = sum(sum(c.values()) for c in counts) / len(counts)
    documents = Counter(word for c in counts for word in c)

    def score(c):
        size = sum(c.values())
        return sum(
            math.log(1 + (len(counts) - documents[w] + 0.5) / (documents[w] + 0.5))
            * c[w]
            * (k1 + 1)
            / (c[w] + k1 * (1 - b + b * size / average))
            for w in set(words(question))
            if w in c
        )

    ranked = sorted(range(len(found)), key=lambda i: score(counts[i]), reverse=True)
    return [found[i] for i in ranked[:top]]


def request(question, top=TOP, query=None):
    """The one request a RAG answer sends: system prompt, then the question with the passages.

    `query` is what the passages are retrieved for, if not the question itself: word overlap cannot
    match a German question against English docs (module 04's multilingual vectors can), so the
    bench retrieves for the English wording and sends the German question.
    """
    context = "\n\n".join(
        f"{path}, lines {start}-{start + text.count(chr(10))}:\n{text}"
        for path, start, text in retrieve(query or question, top)
    )
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"{question}\n\nDocumentation passages:\n\n{context}"},
    ]
