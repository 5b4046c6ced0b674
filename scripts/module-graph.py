#!/usr/bin/env python3
"""The module graph of docs/architecture.md "Modules and their edges", made from Package.swift.

Reads the targets of Package.swift and their dependencies, and prints one line per target: `──►` to the
modules of this package it depends on, `··►` to the products of package dependencies, grouped by package.
Targets are grouped by kind, and within a kind listed from the most dependent to the least, so the
layers read top down. Reads the file as text (no `swift package dump-package`): the check in
scripts/check-references.py runs before anything is built, also where no toolchain is installed.

Usage:
  scripts/module-graph.py           prints the block
  scripts/module-graph.py --write   replaces the block between the markers in docs/architecture.md
  scripts/module-graph.py --check   exits 1 when docs/architecture.md's block is not what it prints
"""

import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOCUMENT = "docs/architecture.md"
BEGIN = "<!-- module-graph: begin (made by scripts/module-graph.py --write from Package.swift; do not edit) -->"
END = "<!-- module-graph: end -->"
WIDTH = 140  # docs/style.md: lines under 150 characters

KINDS = {  # Package.swift's target kinds, in the order they are printed
    "executableTarget": "executables",
    "target": "libraries",
    "macro": "macros",
    "systemLibrary": "system libraries (C headers and pkg-config)",
    "testTarget": "tests",
}


def strip_comments(text):
    """Package.swift without its `//` comments; a `//` inside a string (the packages' URLs) is kept."""
    lines = []
    for line in text.split("\n"):
        in_string = False
        for index, char in enumerate(line):
            if char == '"':
                in_string = not in_string
            elif not in_string and line.startswith("//", index):
                line = line[:index]
                break
        lines.append(line)
    return "\n".join(lines)


def balanced(text, start):
    """The text from `start` (an opening bracket) to its closing bracket, both included."""
    pairs = {"(": ")", "[": "]"}
    stack = []
    index = start
    while index < len(text):
        char = text[index]
        if char == '"':
            index = text.index('"', index + 1)
        elif char in pairs:
            stack.append(pairs[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return text[start:index + 1]
        index += 1
    raise ValueError(f"Package.swift: no closing bracket for the one at offset {start}")


def targets(package_text):
    """[(kind, name, local dependencies, {package: [products]}, pkg-config name or None, path or None)]."""
    text = strip_comments(package_text)
    start = re.search(r"\n\s*targets:\s*\[", text)  # the package's, not a product's `targets:`
    body = balanced(text, start.end() - 1)
    found = []
    for match in re.finditer(r"\.(" + "|".join(KINDS) + r")\(", body):
        call = balanced(body, match.end() - 1)
        name = re.search(r'name:\s*"([^"]+)"', call).group(1)
        local, products = [], {}
        dependencies = re.search(r"dependencies:\s*\[", call)
        if dependencies:
            listed = balanced(call, dependencies.end() - 1)[1:-1]
            for item in re.finditer(r'\.product\(\s*name:\s*"([^"]+)",\s*package:\s*"([^"]+)"\s*\)|"([^"]+)"', listed):
                product, package, module = item.groups()
                if module:
                    local.append(module)
                else:
                    products.setdefault(package, []).append(product)
        pkg_config = re.search(r'pkgConfig:\s*"([^"]+)"', call)
        path = re.search(r'path:\s*"([^"]+)"', call)
        found.append((match.group(1), name, local, products, pkg_config and pkg_config.group(1), path and path.group(1)))
    return found


def source_folder(kind, name, path):
    if path:
        return path
    return os.path.join("Tests" if kind == "testTarget" else "Sources", name)


def is_c_target(kind, name, path):
    """A `.target` with no Swift file is a C target (the shims over variadic C calls)."""
    if kind != "target":
        return False
    folder = os.path.join(ROOT, source_folder(kind, name, path))
    for _, _, names in os.walk(folder):
        if any(n.endswith(".swift") for n in names):
            return False
    return os.path.isdir(folder)


def depth(name, edges, memo):
    """The longest chain of local dependencies below `name`: 0 for a module that needs none of ours."""
    if name not in memo:
        memo[name] = 0
        memo[name] = max((depth(d, edges, memo) + 1 for d in edges.get(name, [])), default=0)
    return memo[name]


def wrapped(lead, items, indent):
    """`lead` and the comma-separated items, wrapped under `indent` spaces to at most WIDTH characters."""
    lines, line = [], lead
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > WIDTH and line.strip():
            lines.append(line)
            line = " " * indent + piece
        else:
            line = line + (" " if line.strip() and not line.endswith(" ") else "") + piece
    lines.append(line)
    return lines


def graph(package_text):
    """The block's lines (the fence included)."""
    all_targets = targets(package_text)
    edges = {name: local for _, name, local, _, _, _ in all_targets}
    memo = {}
    rows = {kind: [] for kind in KINDS}
    c_targets = []
    for kind, name, local, products, pkg_config, path in all_targets:
        if is_c_target(kind, name, path):
            c_targets.append((kind, name, local, products, pkg_config, path))
        elif path and path.startswith("Tests/"):  # TestSupport: a library the test targets share
            rows["testTarget"].append((kind, name, local, products, pkg_config, path))
        else:
            rows[kind].append((kind, name, local, products, pkg_config, path))
    width = max(len(t[1]) for t in all_targets)
    out = ["```"]
    out.append("──► modules of this package   ··► package dependencies (the products used)")
    sections = [(KINDS[k], rows[k]) for k in ("executableTarget", "target", "macro")]
    sections += [("C targets (shims over variadic C calls)", c_targets), (KINDS["systemLibrary"], rows["systemLibrary"]),
                 (KINDS["testTarget"], rows["testTarget"])]
    for title, members in sections:
        if not members:
            continue
        out.append("")
        out.append(title + ":")
        members.sort(key=lambda t: (-depth(t[1], edges, memo), t[1].lower()))
        for kind, name, local, products, pkg_config, path in members:
            lead = "  " + name.ljust(width)
            indent = len(lead) + 5
            printed = False
            if local:
                out.extend(wrapped(lead + " ──►", local, indent))
                printed = True
            if products:
                groups = [f"{package} ({', '.join(names)})" for package, names in products.items()]
                out.extend(wrapped((" " * len(lead) if printed else lead) + " ··►", groups, indent))
                printed = True
            if kind == "systemLibrary":
                note = f"pkg-config {pkg_config}" if pkg_config else "a header of the system's C library"
                out.append(lead + " (" + note + ")")
                printed = True
            if not printed:
                out.append(lead + " (no dependencies)")
    out.append("```")
    return out


def block(package_text):
    return "\n".join([BEGIN] + graph(package_text) + [END])


def current_block(document_text):
    """The document's block between the markers (both included), or None without them."""
    begin, end = document_text.find(BEGIN), document_text.find(END)
    if begin < 0 or end < begin:
        return None
    return document_text[begin:end + len(END)]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def problem():
    """None when docs/architecture.md's block is what Package.swift gives, else a sentence saying why."""
    found = current_block(read(DOCUMENT))
    if found is None:
        return f"{DOCUMENT} has no module-graph markers: put them around the graph, then run scripts/module-graph.py --write"
    if found != block(read("Package.swift")):
        return f"{DOCUMENT}'s module graph is not Package.swift's: run scripts/module-graph.py --write"
    return None


def main(arguments):
    mode = arguments[0] if arguments else "--print"
    if mode == "--print":
        print("\n".join(graph(read("Package.swift"))))
        return 0
    if mode == "--check":
        why = problem()
        print(why or f"{DOCUMENT}'s module graph is Package.swift's")
        return 1 if why else 0
    if mode == "--write":
        text = read(DOCUMENT)
        found = current_block(text)
        if found is None:
            print(problem())
            return 1
        with open(os.path.join(ROOT, DOCUMENT), "w", encoding="utf-8") as handle:
            handle.write(text.replace(found, block(read("Package.swift"))))
        print(f"wrote the module graph of {DOCUMENT}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
