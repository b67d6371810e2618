"""What the tiny local model costs per student on a hub: one server each, or one for all.

`count` students ask one step of the lesson's question at the same moment,
first each of their own server (as `local_server()` starts one per kernel),
then all of one shared server. Prints the memory the servers cost (PSS: pages
they share, such as the mapped model file, are split between them) and how
long the slowest student waited. Needs `make local-model`. Usage:

    .venv/bin/python tools/hub/measure_local_model.py [count]
"""

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from agentlib import QUESTION, RealModel, run_agent
from agentlib.extras import local


def pss_mib(pid):
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def one_step(base_url):
    """Seconds for one step of the lesson's question (the model's first decision)."""
    model = RealModel(model=local.NAME, base_url=base_url, api_key="local", extra_body=dict(local.REQUEST))
    start = time.monotonic()
    run_agent(model, QUESTION["en"], max_steps=1, verbose=False)
    return time.monotonic() - start


def servers_asked(servers, clients):
    """Start `servers` servers, let `clients` students ask one step at once (spread over them);
    return the PSS of each server after it answered, and the slowest student's wait."""
    started = [local.start(local.model_file("en")) for _ in range(servers)]
    try:
        urls = [f"http://127.0.0.1:{port}/v1" for _, _, port in started]
        for (process, log, _), url in zip(started, urls):
            local.wait_until_answering(process, log, url, 180, "en")
        with ThreadPoolExecutor(clients) as pool:
            waits = list(pool.map(one_step, [urls[n % servers] for n in range(clients)]))
        return [pss_mib(process.pid) for process, _, _ in started], max(waits)
    finally:
        for process, log, _ in started:
            process.stdin.close()
            process.wait(30)
            log.close()


def main(count):
    print(f"{local.NAME}, server options {' '.join(local.OPTIONS)}; {count} students ask one step at once")
    for name, servers in (("one server per student", count), ("one shared server", 1)):
        memory, wait = servers_asked(servers, count)
        print(f"{name:24}: PSS per server {', '.join(f'{m:.0f}' for m in memory)} MiB "
              f"(all: {sum(memory):.0f} MiB); the slowest student waited {wait:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
