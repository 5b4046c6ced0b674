#!/usr/bin/env python3
"""Resident memory of a process by kind, from a copy of /proc/PID/smaps (docs/performance.md "Memory").

File-backed mappings by file, the main heap ([heap]: glibc's main arena), thread stacks, and the anonymous
rest split into glibc's other arenas (heaps inside 64 MiB-aligned reservations) and other anonymous
mappings (blocks over the mmap threshold, thread stacks, libraries' own mappings).
    scripts/bench/smaps-summary.py SMAPS_FILE [--top N]   (or /proc/PID/smaps)
"""
import collections
import re
import sys

ARENA = 64 * 1024 * 1024
path = sys.argv[1]
top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 12
kinds = collections.Counter()
files = collections.Counter()
big_anon = []
total = anon = 0
kind = None
arena_end = None
header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
with open(path) as f:
    for line in f:
        m = header.match(line)
        if m:
            start, end, name = int(m.group(1), 16), int(m.group(2), 16), m.group(4).strip()
            size = end - start
            if not name:
                if (start % ARENA == 0 or start == arena_end) and size <= ARENA:
                    kind, arena_end = "anon: malloc arenas other than the main one", end
                else:
                    kind, arena_end = "anon: other (blocks over the mmap threshold, thread stacks, …)", None
                current = (start, size)
            else:
                arena_end = None
                kind = name if name.startswith("[") else "file-backed"
                current = name
            continue
        if line.startswith("Rss:"):
            kb = int(line.split()[1])
            kinds[kind] += kb
            total += kb
            if kind == "file-backed":
                files[current] += kb
            elif kind.startswith("anon: other"):
                big_anon.append((kb, current[1] // 1024))
        elif line.startswith("Anonymous:"):
            anon += int(line.split()[1])


def mb(kb):
    return f"{kb / 1024:8.1f} MB"


print(f"{mb(total)}  total RSS (anonymous {anon / 1024:.1f} MB, file-backed {(total - anon) / 1024:.1f} MB)")
for k, kb in kinds.most_common():
    print(f"{mb(kb)}  {k}")
print("largest file-backed:")
for name, kb in files.most_common(top):
    print(f"{mb(kb)}    {name}")
big_anon.sort(reverse=True)
print(f"anon other: {len(big_anon)} mappings; largest (resident / size):")
for kb, size in big_anon[:top]:
    print(f"{mb(kb)} / {size / 1024:.1f} MB")
