#!/usr/bin/env python3
"""Raw memory stays where docs/style.md "Confine unsafe code" puts it (run by scripts/test.sh).

Fails when a Swift file of Sources/ uses raw memory (`Unsafe…` types, `.baseAddress`, `Unmanaged`,
integer bit patterns) and is neither a `*+C.swift` file (the files that call C), nor in the FastBytes
module (MODULE), nor one of the files listed in ALLOWED below with the reason it holds raw memory; and when `@unchecked Sendable` appears more
often than UNCHECKED_SENDABLE_MAX. The list is a ratchet: a file may leave it (then the check says so, so
the list shrinks with the code), none may join it without a line here that a reviewer reads.
Usage: scripts/check-unsafe.py [ROOT]
"""

import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))

# Raw memory's types and the calls that hand it out: `withUnsafe…` closures, room written before it is
# initialized, unowned references without their check, unchecked unwraps, retyped memory, a static
# string's raw start. Not counted: the standard library's scoped reads of a string's or collection's own
# contiguous bytes (`withUTF8`, `withUTF8Buffer`, `withContiguousStorageIfAvailable`), whose buffers
# cannot outlive their closure.
RAW = re.compile(
    r"\bUnsafe[A-Z][A-Za-z]*\b|\.baseAddress\b|\bUnmanaged\b|\bbitPattern:|\bwithUnsafe[A-Z][A-Za-z]*\b"
    r"|\bunsafeUninitializedCapacity\b|\bunowned\(unsafe\)|\bunsafelyUnwrapped\b|\bassumingMemoryBound\b|\butf8Start\b"
)

# The fast path's raw memory lives in one module, Sources/FastBytes/ (byte views, the fragments' arena,
# published words and references, the page writer's cursor, prefetching), with its own tests
# (Tests/FastBytesTests, run under both sanitizers by scripts/sanitizers.sh). Besides it and the +C.swift
# files, only these, each with its reason:
MODULE = "Sources/FastBytes/"
ALLOWED: dict[str, str] = {}

# `@unchecked Sendable` in Sources/ (each with its "Safety:" comment); lower this when one goes.
UNCHECKED_SENDABLE_MAX = 12


def main() -> int:
    problems = []
    seen = set()
    unchecked = 0
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, ROOT)
            if "/Generated/" in relative:
                continue
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
            unchecked += code.count("@unchecked Sendable")
            if not RAW.search(code) or name.endswith("+C.swift") or relative.startswith(MODULE):
                continue
            seen.add(relative)
            if relative not in ALLOWED:
                line = next(i for i, l in enumerate(text.splitlines(), 1) if RAW.search(l.split("//", 1)[0]))
                problems.append(f"{relative}:{line}: raw memory outside a +C.swift file (docs/style.md \"Confine unsafe code\")")
    for relative in sorted(set(ALLOWED) - seen):
        problems.append(f"{relative}: no raw memory any more (or gone): take it off ALLOWED in scripts/check-unsafe.py")
    if unchecked > UNCHECKED_SENDABLE_MAX:
        problems.append(f"@unchecked Sendable: {unchecked} in Sources/, at most {UNCHECKED_SENDABLE_MAX} (scripts/check-unsafe.py)")
    for problem in problems:
        print(problem)
    print(f"unsafe: {len(seen)} files with raw memory outside +C.swift files, {len(ALLOWED)} allowed; "
          f"@unchecked Sendable {unchecked}/{UNCHECKED_SENDABLE_MAX}; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
