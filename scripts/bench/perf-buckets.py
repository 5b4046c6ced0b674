#!/usr/bin/env python3
"""Shares of a located page's CPU samples by what they were doing (docs/performance.md "Located pages").

    perf record -F 999 -g -p PID -o perf.data -- sleep 8     (under random-location wrk load)
    python3 scripts/bench/perf-buckets.py perf.data

Each sample goes to the first bucket whose pattern one of its frames matches, walking from the leaf
to the root; samples with no application frame but kernel frames are "kernel". Buckets name our own
functions, so a share moves when that code does.
"""
import collections
import re
import subprocess
import sys

BUCKETS = [
    ("index page", r"AnnouncementIndexC4page"),
    ("cards: write", r"CardSetV5write"),
    ("cards: look up or make", r"CardFragments|cardHTML"),
    ("ETag hash", r"EntityTag"),
    ("compression step", r"BodyCompression|deflate|Brotli"),
    ("feed entries", r"FeedEntr|feedResponse"),
    ("page shell", r"PageCachesC8prepared|PageShells"),
    ("pipeline finish", r"PipelineV6finish"),
    ("list page, other", r"PageHandlersV04list"),
    ("pipeline, other", r"PipelineV6handle"),
    ("transport", r"MicroHTTP|libmicrohttpd"),
]


def main() -> None:
    data = sys.argv[1] if len(sys.argv) > 1 else "perf.data"
    script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,dso"], capture_output=True, text=True, check=True).stdout
    patterns = [(name, re.compile(pattern)) for name, pattern in BUCKETS]
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for block in script.split("\n\n"):
        frames = [line.strip() for line in block.strip().split("\n") if line.strip()]
        if not frames:
            continue
        total += 1
        bucket = next((name for frame in frames for name, pattern in patterns if pattern.search(frame)), None)
        if bucket is None:
            bucket = "kernel" if "kallsyms" in block else "other"
        counts[bucket] += 1
    for name, count in counts.most_common():
        print(f"{100 * count / total:6.1f} %  {name}")
    print(f"{total} samples")


if __name__ == "__main__":
    main()
