#!/usr/bin/env python3
"""CPU of the first located pages after a one-report change, against the same pages once warm
(docs/performance.md "Steady speed"; the steady-speed target: first ÷ warm ≤ 2).

    python3 scripts/bench/first-after-change.py --server http://127.0.0.1:PORT --pid PID \
        --upstream http://127.0.0.1:UPPORT --ttl SECONDS [--pages 2000] [--rounds 3]

The server must run with `--cache-ttl SECONDS` on scripts/bench/upstream.py. Each round: a burst of
located pages (warm-up, discarded), `--pages` more ("before the change", the steady cost to compare with);
a new report upstream (`/__add`) and, once the TTL has passed, one request that starts the refresh, then a
wait until the list holds the new report (`/api/v1/announcements`'s count); then `--pages` random locations
("first"), four times as many others (so that cards made on first use are made), and `--pages` others again
("warm"). Every point is new, so no page comes from the response cache. CPU is the server's, summed over its
threads from /proc/PID/task/*/schedstat (nanoseconds), so the client's own speed does not count.
"""
import argparse
import http.client
import json
import os
import random
import statistics
import sys
import time
import urllib.parse
import urllib.request


def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def points(count, seed):
    rng = random.Random(seed)
    return [(49.0 + rng.random() * 5.8, 14.1 + rng.random() * 10.0) for _ in range(count)]


def burst(server, pid, where):
    """Server CPU (ns) of GET /pets at each point of `where`, over one kept-alive connection."""
    url = urllib.parse.urlparse(server)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    before = cpu_ns(pid)
    for lat, lng in where:
        connection.request("GET", f"/pets?lat={lat:.4f}&lng={lng:.4f}")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"located page answered {response.status}")
    spent = cpu_ns(pid) - before
    connection.close()
    return spent


def listed(server):
    with urllib.request.urlopen(f"{server}/api/v1/announcements?limit=1", timeout=60) as response:
        body = json.load(response)
    return body.get("total") or body.get("meta", {}).get("total") or len(body.get("data", []))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--ttl", type=float, required=True)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    ratios = []
    for round_number in range(args.rounds):
        burst(args.server, args.pid, points(4 * args.pages, 1000 + round_number))
        before = burst(args.server, args.pid, points(args.pages, 5000 + round_number))
        count = listed(args.server)
        urllib.request.urlopen(f"{args.upstream}/__add", timeout=10).read()
        time.sleep(args.ttl + 0.2)
        deadline = time.time() + 60
        while listed(args.server) == count:
            if time.time() > deadline:
                sys.exit("the new report did not reach the list")
            time.sleep(0.05)
        time.sleep(0.2)
        first = burst(args.server, args.pid, points(args.pages, 2000 + round_number))
        burst(args.server, args.pid, points(4 * args.pages, 3000 + round_number))
        warm = burst(args.server, args.pid, points(args.pages, 4000 + round_number))
        ratios.append(first / warm)
        print(f"round {round_number + 1}: before the change {before / args.pages / 1000:.1f} µs/page,"
              f" first {first / args.pages / 1000:.1f} µs/page, warm {warm / args.pages / 1000:.1f} µs/page,"
              f" first/warm {first / warm:.2f}")
    print(f"first/warm median {statistics.median(ratios):.2f} over {args.rounds} rounds of {args.pages} pages")


if __name__ == "__main__":
    main()
