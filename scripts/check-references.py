#!/usr/bin/env python3
"""Every name the documents and the code comments give must exist (docs/testing.md "References").

Reads every Markdown file (README.md, docs/, deploy/, fixtures) and the comments of every Swift file
(Sources, Tests, fuzz, Package.swift), and checks the three kinds below; in the comments of C files,
scripts and test suites it checks sections only (they name C and Python things too):

- files: a repository path (`Sources/…`, `docs/…`, `scripts/…`, …) or a Markdown link's target exists;
- sections: `docs/x.md#anchor` names a heading of docs/x.md (GitHub's anchor), `docs/x.md "Name"` and
  `README "Name"` name a heading that starts with Name, and `docs/x.md §N` a heading with §N;
- Swift types: a name in backticks that looks like a Swift type (`DayClock`, `CachePolicy.keptUntil`,
  `MicroHTTP.ConnectionWatch`) is declared in this repository, or is one of the few library types
  listed in EXTERNAL_TYPES; a member after a type of ours (`DayClock.reuseKey`) is declared too.

Prints every broken reference with its file and line, and exits 1 when there is one.
Usage: scripts/check-references.py [ROOT]
"""

import fnmatch
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))

# Types of the toolchain and of the packages in Package.swift that the documents name; anything else
# that looks like a type must be declared in this repository.
EXTERNAL_TYPES = {
    # Swift and Foundation
    "ContinuousClock", "Date", "Data", "Double", "Duration", "String", "Substring", "Array", "Dictionary",
    "Int", "Int32", "Int64", "UInt8", "UInt64", "Bool", "Character", "Optional", "Result", "Task", "TaskGroup",
    "Mutex", "Atomic", "AtomicLazyReference", "Unmanaged", "UnsafeRawBufferPointer", "UnsafeMutableRawBufferPointer", "UnsafePointer",
    "UnsafeMutablePointer", "OpaquePointer", "ObjectIdentifier", "Sendable", "Error", "Equatable", "Hashable",
    "Comparable", "Codable", "Decimal", "TimeZone", "Calendar", "Locale", "URL", "URLSession", "URLRequest",
    "JSONSerialization", "JSONDecoder", "JSONEncoder", "FileManager", "ProcessInfo", "Thread", "NSLock",
    "NSCondition", "DispatchQueue", "ISO8601DateFormatter", "DateFormatter", "NumberFormatter", "Process",
    "CheckedContinuation", "AsyncStream", "AsyncSequence", "Mirror", "MainActor", "SystemRandomNumberGenerator",
    "NSTemporaryDirectory", "CharacterSet", "Character", "Set", "AnyObject", "Never", "Void", "Float",
    # swift-http-types
    "HTTPFields", "HTTPField", "HTTPRequest", "HTTPResponse", "HTTPTypes",
    # swift-log, swift-metrics, swift-prometheus, swift-service-lifecycle, ArgumentParser
    "Logger", "LogHandler", "LoggingSystem", "MetricsSystem", "PrometheusCollectorRegistry", "ServiceGroup",
    "Service", "UnixSignals", "ParsableCommand", "AsyncParsableCommand", "ArgumentParser", "ServiceLifecycle",
    # SwiftNIO, AsyncHTTPClient, postgres-nio, swift-crypto, swift-mustache, swift-syntax, Swift Testing
    "ByteBuffer", "EventLoop", "EventLoopGroup", "NIODeadline", "HTTPClient", "AsyncHTTPClient", "PostgresClient",
    "PostgresConnection", "PostgresNIO", "SwiftNIO", "MustacheParent", "MustacheTemplate", "MustacheLibrary",
    "MustacheTransformable", "SwiftSyntax", "SwiftTesting", "XCTest", "OpenAPIKit", "OpenAPIRuntime",
    "SymmetricKey", "AES", "SHA256", "HMAC", "Crypto", "NSNull", "NSNumber",
    "MustacheCustomRepresentation", "MustacheCustomRenderable",
    # Swift's upcoming-feature flags (Package.swift)
    "ExistentialAny", "MemberImportVisibility",
    # the codebases docs/style.md learns from (Hummingbird, the Swift Package Index)
    "HTTPError", "SiteRoute", "SiteURL",
    # the PetSpot apps' own types (their source is the contract docs/upstream.md reads), and the
    # OpenAPI document's schema names (docs/openapi.yaml)
    "ValidatedTextField", "TextAreaView", "AnnouncementDTO", "PetDetailsDTO", "CreateAnnouncementRequestDTO",
    # Chrome DevTools Protocol (the PDF check of browser-tests), Kubernetes' seccomp profile
    "Page", "RuntimeDefault",
}

# File names written in backticks that are not ours: libmicrohttpd's source, the style guide's pattern.
OTHER_FILE_NAMES = {"connection.c", "Type.swift", "Type+Concern.swift"}
# Module-relative Swift paths that name another repository's file: Point-Free's client (docs/style.md).
OTHER_SWIFT_PATHS = {"GitHub/Client.swift"}

PATH_PREFIXES = ("Sources", "Tests", "docs", "scripts", "browser-tests", "api-tests", "scale-tests", "deploy",
                 "fuzz", "sanitizers", "Templates", "Public", "Data", ".ci")
PATH_RE = re.compile(r"(?<![\w/.\-~$])((?:" + "|".join(re.escape(p) for p in PATH_PREFIXES) + r")/[\w.+\-/*{},]*[\w+*}])")
# A Swift file named from its module or folder (`WebApp/Server/Router.swift`, `Server/Reply.swift`,
# `WebAppTests/Fixtures.swift`): it must be under Sources/ or Tests/. Not after `/`, `:` or a word
# character, so URLs and the repository paths PATH_RE reads are left to PATH_RE.
BARE_SWIFT_RE = re.compile(r"(?<![\w/.\-~$:])((?:[A-Z][\w+\-]*/)+[\w+\-]+\.swift)\b")
MD_LINK_RE = re.compile(r"\]\(([^)\s]+)\)")
ANCHOR_RE = re.compile(r"(?<![\w/.\-])((?:[\w.\-]+/)*[\w.\-]+\.md)#([\w\-]+)")
QUOTED_RE = re.compile(r"(?<![\w/.\-])(README(?:\.md)?|(?:[\w.\-]+/)*[\w.\-]+\.md)\)? \"([^\"]+)\"")
PARAGRAPH_RE = re.compile(r"(?<![\w/.\-])((?:[\w.\-]+/)*[\w.\-]+\.md) (§\d+)")
TICKED_RE = re.compile(r"`([^`\n]+)`")
FILE_NAME_RE = re.compile(r"^[\w+\-]+\.(?:swift|md|py|sh|c|h|mustache|messages|js|css|tsv|yaml|rnc)$")
TYPE_RE = re.compile(r"^([A-Z][A-Za-z0-9]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\(.*\))?$")


def repository_files():
    """The repository's files: git's (tracked, and new ones not ignored), else a walk that skips build,
    virtualenv and cache folders."""
    try:
        listed = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                                capture_output=True, check=True).stdout.decode("utf-8")
        return sorted(f for f in set(listed.split("\0")) if f and os.path.exists(os.path.join(ROOT, f)))
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d == ".ci" or not (d.startswith(".") or d in {"node_modules", "venv", "__pycache__"})]
        for name in names:
            files.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return sorted(files)


FILES = repository_files()
BASENAMES = {os.path.basename(f) for f in FILES}


def path_exists(target):
    """True when `target` (a path, maybe with `*` or one `{a,b}` group) names files or a folder."""
    group = re.search(r"\{([^}]*)\}", target)
    if group:
        return all(path_exists(target[:group.start()] + choice + target[group.end():]) for choice in group.group(1).split(","))
    if "*" in target:
        return any(fnmatch.fnmatchcase(f, target) for f in FILES)
    return os.path.exists(os.path.join(ROOT, target))


def swift_path_exists(target):
    """True when a module-relative Swift path names a file under Sources/ or Tests/ (one module deep)."""
    if target.split("/")[0] in PATH_PREFIXES or target in OTHER_SWIFT_PATHS:
        return True
    if os.path.isfile(os.path.join(ROOT, target)):
        return True
    return any(f.endswith("/" + target) and f.split("/")[0] in ("Sources", "Tests") and f.count("/") - target.count("/") <= 2
               for f in FILES)


def swift_comments(path):
    """(line number, comment text) of each `//` comment of a Swift file."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            stripped = line.strip()
            if stripped.startswith("//"):
                yield number, stripped.lstrip("/")
            elif " // " in line:
                code, _, comment = line.partition(" // ")
                if code.count('"') % 2 == 0:
                    yield number, comment


def c_comments(path):
    """(line number, text) of the comment lines of a C file or header."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            stripped = line.strip()
            if stripped.startswith(("//", "/*", "*")):
                yield number, stripped.lstrip("/*")


def script_comments(path):
    """(line number, text) of `#` comments and docstring lines of a script."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as handle:
        in_docstring = False
        for number, line in enumerate(handle, 1):
            stripped = line.strip()
            quotes = stripped.count('"""')
            if in_docstring or quotes:
                yield number, stripped
                if quotes % 2 == 1:
                    in_docstring = not in_docstring
            elif stripped.startswith("#") and not stripped.startswith("#!"):
                yield number, stripped


def document_lines(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        in_fence = False
        for number, line in enumerate(handle, 1):
            yield number, line.rstrip("\n")


def headings(path):
    """The heading texts of a Markdown file (outside code fences), without `#`s and backticks."""
    found = []
    in_fence = False
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        return found
    with open(full, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("```"):
                in_fence = not in_fence
            elif not in_fence and re.match(r"#{1,6} ", line):
                found.append(line.lstrip("#").strip())
    return found


def github_anchor(heading):
    text = heading.lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def member_names(text):
    """The names a Swift file declares: functions, properties, cases, nested types, argument labels."""
    members = set()
    members.update(re.findall(r"\b(?:func|var|let|init|subscript|class|struct|enum|actor|typealias|protocol)"
                              r"\s+`?(\w+)", text))
    for cases in re.findall(r"\bcase\s+([^:=\n{]+)", text):
        members.update(re.findall(r"(?:^|,)\s*`?(\w+)", cases))
    return members


def declared_names():
    """Types (and modules) declared in this repository, and per type the member names declared in the
    files that declare or extend it."""
    types, members = set(), {}
    for path in FILES:
        if path.startswith("Sources/") and path.count("/") >= 2:
            types.add(path.split("/")[1])  # module names
        if not path.endswith(".swift"):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            text = handle.read()
        named = re.findall(r"\b(?:class|struct|enum|protocol|actor|typealias|extension|macro|associatedtype)"
                           r"\s+(?:[A-Z]\w*\.)*([A-Z]\w*)", text)
        types.update(named)
        declared = member_names(text)
        for name in named:
            members.setdefault(name, set()).update(declared)
    return types, members


TYPES, MEMBERS = declared_names()
# Members Swift writes itself: initializers, an enum's raw value and cases list.
SYNTHESIZED = {"init", "rawValue", "allCases"}
MODULES = {f.split("/")[1] for f in FILES if f.startswith("Sources/") and f.count("/") >= 2}


def looks_like_type(name):
    return bool(re.search(r"[a-z]", name)) and len(re.findall(r"[A-Z]", name)) >= 2


CHECKED = {"files": 0, "sections": 0, "types": 0}


def check_text(path, number, text, problems, markdown, names=True):
    """Checks one line; `names` false checks only sections (a script's comments name other things too)."""
    here = os.path.dirname(path)
    for match in PATH_RE.finditer(text) if names else ():
        target = match.group(1).rstrip("/.,")
        CHECKED["files"] += 1
        if not path_exists(target):
            problems.append(f"{path}:{number}: no file or folder {target}")
    for match in BARE_SWIFT_RE.finditer(text) if names else ():
        target = match.group(1)
        CHECKED["files"] += 1
        if not swift_path_exists(target):
            problems.append(f"{path}:{number}: no Swift file {target} under Sources/ or Tests/")
    if markdown:
        for match in MD_LINK_RE.finditer(text):
            target = match.group(1)
            if re.match(r"^[a-z]+:", target) or target.startswith("<"):
                continue
            file_part, _, anchor = target.partition("#")
            CHECKED["files"] += 1
            resolved = os.path.normpath(os.path.join(here, file_part)) if file_part else path
            if not os.path.exists(os.path.join(ROOT, resolved)):
                problems.append(f"{path}:{number}: link to a missing file {target}")
            elif anchor and anchor not in {github_anchor(h) for h in headings(resolved)}:
                problems.append(f"{path}:{number}: no section #{anchor} in {resolved}")
    for match in ANCHOR_RE.finditer(text):
        document, anchor = match.groups()
        resolved = resolve_document(path, document)
        if resolved and anchor not in {github_anchor(h) for h in headings(resolved)}:
            problems.append(f"{path}:{number}: no section #{anchor} in {resolved}")
    for match in QUOTED_RE.finditer(text):
        document, name = match.groups()
        resolved = resolve_document(path, document)
        if resolved is None:
            continue
        CHECKED["sections"] += 1
        if not names_section(resolved, name):
            problems.append(f'{path}:{number}: no section "{name}" in {resolved}')
    for match in PARAGRAPH_RE.finditer(text):
        document, paragraph = match.groups()
        resolved = resolve_document(path, document)
        if resolved and not any(paragraph + "." in h or paragraph + " " in h for h in headings(resolved)):
            problems.append(f"{path}:{number}: no section {paragraph} in {resolved}")
    for match in TICKED_RE.finditer(text) if names else ():
        check_type(path, number, match.group(1).strip(), problems)


def names_section(document, name):
    """True when `name` begins a heading of `document` or one of its bold lead phrases (`**Name…**`);
    "Heading: item" names an item (bold or not) under a heading."""
    wanted = name.lower().replace("`", "")
    titles = [h.lower().replace("`", "") for h in headings(document)]
    if any(t.startswith(wanted) for t in titles):
        return True
    with open(os.path.join(ROOT, document), encoding="utf-8") as handle:
        text = handle.read().lower().replace("`", "")
    if any(phrase.strip().startswith(wanted) for phrase in re.findall(r"\*\*([^*]+)\*\*", text)):
        return True
    heading, _, item = wanted.partition(": ")
    return bool(item) and any(t.startswith(heading) for t in titles) and item in text


def resolve_document(path, document):
    """The repository path of a Markdown file named in `path`, or None when it names none of ours."""
    if document in ("README", "README.md"):
        return "README.md"
    for candidate in (os.path.normpath(os.path.join(os.path.dirname(path), document)), document,
                      os.path.join("docs", document)):
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def check_type(path, number, code, problems):
    if FILE_NAME_RE.match(code):
        if code not in BASENAMES and code not in OTHER_FILE_NAMES:
            problems.append(f"{path}:{number}: no file named {code}")
        return
    match = TYPE_RE.match(code)
    if not match:
        return
    head, rest, _ = match.groups()
    chain = [part for part in rest.split(".") if part]
    if not looks_like_type(head) and not (chain and head in TYPES):
        return
    CHECKED["types"] += 1
    if head in EXTERNAL_TYPES:
        return
    if head not in TYPES:
        problems.append(f"{path}:{number}: no Swift type {head} (in `{code}`)")
        return
    if head in MODULES:  # a module (`MicroHTTP.ConnectionWatch`), maybe also a type of its own (`QRCode.svgPath`)
        if chain and chain[0] not in TYPES and chain[0] not in MEMBERS.get(head, set()):
            problems.append(f"{path}:{number}: no Swift type {chain[0]} in module {head} (in `{code}`)")
        return
    if chain and chain[0] not in MEMBERS.get(head, set()) and chain[0] not in SYNTHESIZED:
        problems.append(f"{path}:{number}: no member {chain[0]} of {head} declared (in `{code}`)")


def module_graph_problem():
    """docs/architecture.md's module graph against Package.swift (scripts/module-graph.py), and its
    "Folders" list against Sources/: both say what the package is, so neither may drift from it."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("module_graph", os.path.join(ROOT, "scripts", "module-graph.py"))
    module_graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module_graph)
    found = []
    why = module_graph.problem()
    if why:
        found.append(f"{module_graph.DOCUMENT}: {why}")
    with open(os.path.join(ROOT, "docs/architecture.md"), encoding="utf-8") as handle:
        text = handle.read()
    folders = text.partition("\n## Folders\n")[2].partition("\n## ")[0]
    listed = set()
    for line in folders.splitlines():
        head = re.match(r"Sources/([\w\-]+(?:, [\w\-]+)*)", line)
        if head:
            listed.update(head.group(1).split(", "))
    for module in sorted(MODULES - listed):
        found.append(f'docs/architecture.md: "Folders" does not list Sources/{module}')
    return found


def main():
    problems = module_graph_problem()
    documents = [f for f in FILES if f.endswith(".md") and not f.startswith("scripts/openapi-client/")]
    for path in documents:
        in_fence = False
        for number, line in document_lines(path):
            if line.startswith("```"):
                in_fence = not in_fence
            check_text(path, number, line, problems, markdown=True)
    for path in FILES:
        if path.endswith(".swift") and (path.split("/")[0] in ("Sources", "Tests", "fuzz") or path == "Package.swift"):
            if "/Generated/" in path or path.startswith("Sources/PetSpotAPIClient/"):
                continue
            for number, text in swift_comments(path):
                check_text(path, number, text, problems, markdown=False)
        elif path.split("/")[0] in ("Sources", "sanitizers") and path.endswith((".c", ".h")):
            for number, text in c_comments(path):
                check_text(path, number, text, problems, markdown=False, names=False)
        elif path.split("/")[0] in ("scripts", "browser-tests", "api-tests", "scale-tests", ".ci", "sanitizers", "fuzz") and (
            path.endswith((".sh", ".py")) or path == ".ci/run"
        ):
            if path == "scripts/check-references.py":
                continue
            for number, text in script_comments(path):
                check_text(path, number, text, problems, markdown=False, names=False)
    problems = list(dict.fromkeys(problems))  # a link's anchor is seen by two patterns
    for problem in problems:
        print(problem)
    counts = ", ".join(f"{count} {kind}" for kind, count in CHECKED.items())
    print(f"references: {counts} checked; {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
