#!/usr/bin/env python3
"""Prints the alert tables' migration step (PostgresSchema.alertTables in
Sources/PetSpotPostgres/PostgresSchema+Alerts.swift) as SQL, one statement per `;`, so
scripts/bench/alerts-fanout.sh measures the schema the server creates, not a copy of it."""
import re
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "Sources/PetSpotPostgres/PostgresSchema+Alerts.swift"


def statements(text: str) -> list[str]:
    body = text[text.index("static let alertTables"):]
    body = body[body.index("[") + 1:]
    body = "\n".join(line for line in body.splitlines() if not line.strip().startswith("//"))
    found = []
    # Multi-line literals first ("""…"""), then one-line ones ("…"); comments are skipped.
    for match in re.finditer(r'"""\n(.*?)\n\s*"""|"((?:[^"\\\n]|\\.)*)"', body, re.S):
        found.append((match.group(1) or match.group(2)).strip())
    return found


def main() -> int:
    for statement in statements(SOURCE.read_text(encoding="utf-8")):
        print(statement + ";")
    return 0


if __name__ == "__main__":
    sys.exit(main())
