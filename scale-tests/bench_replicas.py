"""The replica rows of the benchmark (docs/replicas.md, docs/performance.md "Several replicas"), run by
`SCALE_BENCH=1 scripts/scale-out.sh` on its stack: two replicas, nginx round robin, PostgreSQL, the demo
upstream with its test hooks. Prints figures, asserts nothing (a failed row says so in its line).

  1. 40 reports from 40 addresses sent at once through nginx (so spread over both replicas): how many
     announcements the upstream made (40 expected, none doubled); then the same 40 forms again: how many new (0).
  2. From publish on replica A to the pet on replica B's /pets: 20 reports, one after another, each
     polled on B every 10 ms from the moment A answered; p50 and max.
Every request is bounded by a timeout, every loop by a count; only loopback addresses.
"""
from __future__ import annotations

import concurrent.futures
import requests
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import Stack, new_address  # noqa: E402  (the suite's own helpers)


def row(text: str) -> None:
    print(f"   {text}", flush=True)


def concurrent_reports(stack: Stack, count: int = 40) -> None:
    forms = []
    for _ in range(count):
        address = new_address()
        forms.append((address, stack.form(stack.nginx, address)))
    before = stack.counts()["created"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
        first = list(pool.map(lambda item: stack.post_report(stack.nginx, item[1], item[0]), forms))
    after_first = stack.counts()
    made = after_first["created"] - before
    statuses = sorted(answer.status for answer in first)
    replicas = {stack.replica_of(answer) for answer in first}
    ids = {answer.result[0] for answer in first}
    with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
        again = list(pool.map(lambda item: stack.post_report(stack.nginx, item[1], item[0]), forms))
    after_again = stack.counts()
    new = after_again["created"] - after_first["created"]
    same = sum(1 for one, two in zip(first, again) if one.result == two.result and one.result[0])
    row(f"{count} reports from {count} addresses at once over replicas {sorted(replicas)}: {made} announcements made "
        f"upstream, {len(ids)} distinct ids, statuses {statuses.count(201)}×201 {len(statuses) - statuses.count(201)}×other; "
        f"the same {count} forms again: {new} new, {same} shown the first result "
        f"(median answer {statistics.median(a.elapsed for a in first) * 1000:.0f} ms, max {max(a.elapsed for a in first) * 1000:.0f} ms)")


def freshness(stack: Stack, count: int = 20) -> None:
    delays = []
    missed = 0
    for _ in range(count):
        address = new_address()
        answer = stack.post_report(stack.a, stack.form(stack.a, address), address)
        pet = answer.result[0]
        if answer.status != 201 or not pet:
            missed += 1
            continue
        published = time.monotonic()
        seen = None
        for _ in range(500):
            page = requests.get(stack.b + "/pets?sort=newest", timeout=10)
            if f'data-pet-id="{pet}"' in page.text:
                seen = time.monotonic() - published
                break
            time.sleep(0.01)
        if seen is None:
            missed += 1
        else:
            delays.append(seen)
    if delays:
        delays.sort()
        row(f"publish on A → the pet on B's /pets, {len(delays)} reports: p50 {statistics.median(delays) * 1000:.0f} ms, "
            f"max {delays[-1] * 1000:.0f} ms; {missed} not seen within 5 s")
    else:
        row(f"publish on A → the pet on B's /pets: none seen ({missed} missed)")


def main() -> None:
    stack = Stack()
    print("== replicas: two replicas behind nginx on one PostgreSQL and one demo upstream", flush=True)
    concurrent_reports(stack)
    freshness(stack)


if __name__ == "__main__":
    main()
