"""The agent loop: call the model, run the tools it asks for, feed the results back, repeat.

It stops when the model answers without calling a tool, or after `max_steps` model calls.
Whatever goes wrong inside a tool becomes text the model can read; whatever goes wrong with the
model itself (an API error, Ctrl-C) ends the run with one plain sentence and keeps the steps so far.

Deliberately left out: parallel execution, streaming, memory across runs.
"""

import time
from dataclasses import dataclass, field

from .tools import TOOLS, call_tool
from .trace import CUT_MARK, Trace

SYSTEM_PROMPT = (
    "You are a support assistant for the Python HTTP client library httpx. "
    "You can consult the httpx documentation with the tools you are given. "
    "First find evidence with the tools, then answer. "
    "Cite the file and line numbers you used, e.g. (advanced/timeouts.md, lines 10-20). "
    "If the documentation does not answer the question, say so honestly instead of guessing. "
    "Answer in the language of the question."
)
MAX_OBSERVATION = 3000  # characters; longer tool results are cut, with a note saying so
# What run_agent prints for a person, in the notebook's language (set_language); what the model reads stays English.
LABELS = {
    "Answer": {"en": "Answer", "de": "Antwort"},
    "Stopped": {"en": "Stopped", "de": "Abgebrochen"},
    "step": {"en": "step", "de": "Schritt"},
    "estimated": {"en": " (estimated)", "de": " (geschätzt)"},
    "answer": {"en": "the model answered", "de": "Das Modell hat geantwortet"},
    "interrupted": {"en": "you interrupted the run", "de": "Du hast den Lauf unterbrochen"},
    "max_steps": {
        "en": "the step limit ({}) was reached before the model answered",
        "de": "Das Schrittlimit ({}) ist erreicht, ohne dass das Modell geantwortet hat",
    },
    "totals": {
        "en": "[steps: {}, tool calls: {}, tokens: {} prompt + {} completion{}]",
        "de": "[Schritte: {}, Werkzeugaufrufe: {}, Tokens: {} Prompt + {} Completion{}]",
    },
}
LANGUAGE = "en"  # what run_agent prints in unless told otherwise


def set_language(language):
    """Let run_agent print its labels in `language`, "de" or "en", from now on.

    Example: set_language("de"); run_agent(model, question) -> prints "Antwort:" where it printed "Answer:"
    """
    global LANGUAGE
    if language not in LABELS["Answer"]:
        raise ValueError(f"run_agent prints in {' or '.join(map(repr, LABELS['Answer']))}, not {language!r}")
    LANGUAGE = language


@dataclass
class Stats:
    steps: int = 0  # model calls that returned
    tool_calls: int = 0  # tool calls executed, failed ones included
    prompt_tokens: int = 0
    completion_tokens: int = 0
    trace: Trace = field(default=None, repr=False)

    def __getitem__(self, key):  # the lesson reads stats["steps"]; stats.steps works too
        if key not in ("steps", "tool_calls", "prompt_tokens", "completion_tokens"):
            raise KeyError(key)
        return getattr(self, key)


def run_agent(model, question, max_steps=8, verbose=True, tools=TOOLS, language=None):
    """Let `model` answer `question` with `tools`; return (answer, stats).

    The answer is None when the run stopped without one; `stats.trace`
    says why and holds every step. It prints in `language` (default: set_language's).
    """
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": question}]
    schemas = [t["schema"] for t in tools.values()]
    stats = Stats(trace=Trace(messages, model=getattr(model, "name", type(model).__name__), tools=schemas))
    say = print if verbose else lambda *_: None
    words = {key: texts[language or LANGUAGE] for key, texts in LABELS.items()}
    try:
        for step in range(1, max_steps + 1):
            started = time.perf_counter()
            message, usage = model(messages, schemas)  # the model sees everything so far
            finish_reason = getattr(message, "finish_reason", "stop")  # the SDK's message leaves it to its choice
            messages.append(message.model_dump(exclude_none=True))  # the reply joins the protocol, answer or not
            stats.trace.record(usage, time.perf_counter() - started, finish_reason)
            stats.steps = step
            if usage:
                stats.prompt_tokens += usage.prompt_tokens
                stats.completion_tokens += usage.completion_tokens
            if not message.tool_calls:  # stop condition 1: the model answered
                return finish(stats, message.content or "", "answer", say, words)
            for call in message.tool_calls:  # every call gets exactly one result, in order
                observation = observe(call, tools, finish_reason)
                stats.tool_calls += 1
                messages.append({"role": "tool", "tool_call_id": call.id, "content": observation})
                say(preview(step, call, observation, words["step"]))
        # stop condition 2: the step limit, the guard against a model that never stops calling tools
        return finish(stats, None, "max_steps", say, words, max_steps)
    except KeyboardInterrupt:
        return finish(stats, None, "interrupted", say, words)
    except Exception as error:  # raised by the model: a rejected key, a lost connection, ...
        # RealModel raises a ModelError: one sentence, with every part of the key hidden by the provider.
        return finish(stats, None, "error", say, words, (str(error) or type(error).__name__)[:2000])


def observe(call, tools, finish_reason):
    """Run one tool call; return its result, or its failure, as text for the model."""
    try:
        result = str(call_tool(call.function.name, call.function.arguments, tools))
    except Exception as error:
        result = f"Error: {type(error).__name__}: {error}"
        if finish_reason == "length":
            result += (
                " Your reply was cut off by the output token limit, which left the"
                " arguments unfinished; send a shorter call."
            )
    if len(result) > MAX_OBSERVATION:
        result = (
            result[:MAX_OBSERVATION] + f"{CUT_MARK}{len(result)} characters, only the first "
            f"{MAX_OBSERVATION} are shown; ask for less, e.g. a narrower keyword or a smaller line range]"
        )
    return result


def preview(step, call, observation, step_label="step"):
    """One line per tool call, e.g. '[step 1] grep_docs({"keyword": "x"}) → No line contains ...'."""
    shown = observation[:90].replace("\n", " | ")
    line = f"[{step_label} {step}] {call.function.name[:60]}({call.function.arguments[:200]}) → {shown}"
    return line.encode("utf-8", "backslashreplace").decode()  # a lone surrogate ("\ud800") cannot be printed


def finish(stats, answer, reason, say, words, fact=""):
    """End the run: the trace keeps why in English, the person reads it in `words`' language."""
    stats.trace.stop(reason, LABELS.get(reason, {"en": "{}"})["en"].format(fact))
    stopped = words.get(reason, "{}").format(fact).rstrip(".")
    # The explanation may be a ModelError's sentence in the student's language: a line of its own.
    say(f"\n{words['Answer']}:\n{answer}" if answer is not None else f"\n{words['Stopped']}:\n{stopped}.")
    estimated = words["estimated"] if stats.trace.estimated else ""
    # No thousands separator: "3,295" would read as three point three in a German notebook.
    say(words["totals"].format(stats.steps, stats.tool_calls, stats.prompt_tokens, stats.completion_tokens, estimated))
    return answer, stats
