"""Token cost per step: how big each request of the lesson's scripted run is.

Every step re-sends the system prompt, the tool schemas and the whole
history so far. The sizes are counted on the JSON the loop hands to the
model and turned into tokens with agentlib's rule of thumb (4 characters per
token), then set against the lesson's real run and a one-call RAG answer.

Deliberately left out: a real tokenizer (it would need a download), and the
completion side (the script's replies are short and fixed).
"""

import json

from agentlib import QUESTION, TOOLS, ScriptedModel, lesson_script, run_agent

LESSON_REAL = {"prompt_tokens": 3742, "steps": 3}  # the author's run on deepseek-flash, LESSON.md part 5
RAG_TOKENS = 1000  # one call with retrieved passages, module 04


def measure():
    """One row per step (bytes, tokens, fixed share), the run's totals, and the comparisons."""
    model = ScriptedModel(lesson_script(), estimate_usage=True)
    _, stats = run_agent(model, QUESTION["en"], verbose=False)
    schemas = [t["schema"] for t in TOOLS.values()]
    # json.dumps escapes non-ASCII, so characters are bytes here
    fixed = len(json.dumps(model.calls[0][:2])) + len(json.dumps(schemas))  # system prompt, question, tools
    steps = []
    for step, messages in zip(stats.trace.steps, model.calls):
        size = len(json.dumps(messages)) + len(json.dumps(schemas))
        steps.append({"step": step.number, "messages": len(messages), "bytes": size,
                      "tokens": step.usage["prompt_tokens"], "fixed_share": fixed / size})
    total = stats.prompt_tokens
    return {"tool_schemas": len(schemas), "fixed_bytes": fixed, "fixed_tokens": fixed // 4,
            "steps": steps, "total_tokens": total, "tokens_per_step": total / len(steps),
            "fixed_share_of_total": len(steps) * (fixed // 4) / total,
            "lesson_real": LESSON_REAL | {"tokens_per_step": LESSON_REAL["prompt_tokens"] / LESSON_REAL["steps"]},
            "rag_tokens": RAG_TOKENS, "ratio_to_rag": total / RAG_TOKENS,
            "ratio_to_lesson_real": total / LESSON_REAL["prompt_tokens"]}
