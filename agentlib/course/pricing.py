"""What a run probably cost: token counts times a small, dated price table (US dollars per million tokens).

An estimate: providers change prices, bill some hours at other rates and round differently. A
model not in `PRICES` costs "unknown", never a guess; edit `PRICES` for your own models.
Deliberately left out: currencies, batch discounts, fetching prices online.
"""

from dataclasses import dataclass

from .text import say

TEXT = {
    "cost": {
        "de": "etwa {amount} $ (Schätzung, Preise vom {checked})",
        "en": "about ${amount} (estimate, prices of {checked})",
    },
    "cost_unknown": {"de": "unbekannt", "en": "unknown"},
    "cost_label": {"de": "Kosten", "en": "Cost"},  # before the cost, where a command line prints it
}

CHECKED = "2026-11-29"  # the day these prices were read off the providers' pricing pages


@dataclass(frozen=True)
class Price:
    input: float  # per million prompt tokens not served from the cache
    cached_input: float  # per million prompt tokens served from the provider's cache
    output: float  # per million completion tokens


PRICES = {
    # DeepSeek's peak-hour price; off-peak hours cost half, so this is an upper bound.
    "deepseek-flash": Price(input=0.30, cached_input=0.006, output=1.20),
    "gpt-5-mini": Price(input=0.25, cached_input=0.025, output=2.00),
    "gpt-4o-mini": Price(input=0.15, cached_input=0.075, output=0.60),
}


def estimate_cost(model, prompt_tokens, completion_tokens, cached_tokens=0):
    """The estimated cost in US dollars, or None when `model` has no price; cached tokens are part of the prompt
    tokens, billed at the cheaper rate. Example: estimate_cost("deepseek-flash", 1_000_000, 0) -> 0.3"""
    price = PRICES.get(model)
    if price is None:
        return None
    cached = min(cached_tokens or 0, prompt_tokens)
    return (
        (prompt_tokens - cached) * price.input + cached * price.cached_input + completion_tokens * price.output
    ) / 1_000_000


def trace_cost(trace, model=None):
    """The estimated cost of every step in `trace`, or None when any step's is unknown: a missing
    number is not zero, and neither is a run that never reached a server (no step at all)."""
    costs = [
        usage
        and estimate_cost(
            model or trace.model, usage["prompt_tokens"], usage["completion_tokens"], usage.get("cached_tokens")
        )
        for usage in (r["usage"] for r in trace.records)
    ]
    return sum(costs) if costs and None not in costs else None


def describe_cost(cost, language="en"):
    """The cost as a student reads it.

    Example: describe_cost(0.00123) -> "about $0.0012 (estimate, prices of 2026-11-29)"
    """
    if cost is None:
        return say(TEXT, "cost_unknown", language)
    amount = f"{cost:.4f}".replace(".", "," if language == "de" else ".")  # German writes a decimal comma
    return say(TEXT, "cost", language, amount=amount, checked=CHECKED)
