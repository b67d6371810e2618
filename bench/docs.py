"""The tables docs/benchmarks.md shows, printed from the committed results of `make bench` and `make bench-peers`.

    python -m bench.docs        print them, in the page's order, to paste after a new run

Deliberately left out: the page's prose, whose figures a person chooses (tests/extras/test_bench.py checks that
each is one of these tables').
"""

import json

from . import ROOT, checks, front_ends, memory, peers, race
from .__main__ import table

RESULTS = ROOT / "bench" / "results"


def tables():
    """[the first table with memory and the checks' latency, the peers' loops, the peers end to end, the front ends],
    as `python -m bench` and `python -m bench.peers` print them."""
    latest = json.loads((RESULTS / "latest.json").read_text(encoding="utf-8"))
    peered = RESULTS / "peers.json"  # none committed: the page shows no peers
    peer_results = json.loads(peered.read_text(encoding="utf-8")) if peered.exists() else None
    measured = memory.table(latest["memory"]) if "memory" in latest else ""  # a run before bench/memory.py has none
    return [
        table(latest) + measured + checks.table(latest["checks"]),
        *([peers.table(peer_results), race.table(peer_results["end_to_end"])] if peer_results else []),
        front_ends.table(latest["front_ends"]),
    ]


if __name__ == "__main__":
    print("\n\n".join(tables()))
