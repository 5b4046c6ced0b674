#!/usr/bin/env python3
"""Raw memory stays where docs/style.md "Confine unsafe code" puts it (run by scripts/test.sh).

Fails when a Swift file of Sources/ uses raw memory (`Unsafe…` types, `.baseAddress`, `Unmanaged`,
integer bit patterns) and is neither a `*+C.swift` file (the files that call C) nor one of the files
listed in ALLOWED below with the reason it holds raw memory; and when `@unchecked Sendable` appears more
often than UNCHECKED_SENDABLE_MAX. The list is a ratchet: a file may leave it (then the check says so, so
the list shrinks with the code), none may join it without a line here that a reviewer reads.
Usage: scripts/check-unsafe.py [ROOT]
"""

import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))

RAW = re.compile(r"\bUnsafe[A-Z][A-Za-z]*\b|\.baseAddress\b|\bUnmanaged\b|\bbitPattern:")

# The fast path's raw memory outside the C-calling files, each with its reason. Moving these into one
# small module with its own tests is open work (docs/style.md "Confine unsafe code").
ALLOWED = {
    "Sources/WebApp/Pages/Shared/FragmentArena.swift": "the fragments' arena: chunks of raw bytes, addresses published atomically",
    "Sources/WebApp/Pages/Shared/PublishedFragments.swift": "slots of arena addresses read without a lock",
    "Sources/WebApp/Pages/Shared/CompactFragment.swift": "card fragments as arena bytes and offsets",
    "Sources/WebApp/Pages/Shared/SharedMarkup.swift": "markup pieces shared by the cards of one snapshot",
    "Sources/WebApp/Pages/Shared/ByteCursor.swift": "the page joiner's cursor over an output buffer",
    "Sources/WebApp/Pages/Shared/SlottedBytes.swift": "page shells with slots, filled by copying bytes",
    "Sources/WebApp/Pages/Shared/CardFragments.swift": "reads the arena's fragments",
    "Sources/WebApp/Server/ResponseCache+Entry.swift": "an entry's prepared representations published by one atomic word",
    "Sources/WebApp/Server/ResponseCache.swift": "the hook's lookup over the raw request target",
    "Sources/WebApp/Server/ResponseCache+Targets.swift": "the index's records compared with the raw request target",
    "Sources/WebApp/Feed/FeedEntries.swift": "feed entries in the arena; memcmp over UTF-8",
    "Sources/WebApp/Feed/XMLText.swift": "escapes from a UTF-8 buffer",
    "Sources/WebApp/Localization/Texts.swift": "texts as UTF-8 buffers for the renderer",
    "Sources/PetDomain/LocatedPlan.swift": "the located index's packed arrays",
    "Sources/ContentCompression/Gzip.swift": "zlib's stream buffers (a C library; the file predates the +C naming)",
    "Sources/ContentCompression/Brotli.swift": "Brotli's buffers (a C library; the file predates the +C naming)",
    "Sources/ImageResizer/ImageResizer.swift": "libvips' buffers (a C library; the file predates the +C naming)",
    "Sources/MicroHTTP/UploadStorage.swift": "writes body chunks libmicrohttpd hands over",
    "Sources/MicroHTTP/RequestBody.swift": "reads form values libmicrohttpd hands over",
    "Sources/MicroHTTP/HTTPDate.swift": "formats dates into a stack buffer",
    "Sources/MicroHTTP/HeaderText.swift": "scans header bytes",
    "Sources/Caching/Shards.swift": "shard locks laid out apart in raw memory (false sharing)",
}

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
            if not RAW.search(code) or name.endswith("+C.swift"):
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
