"""Possible matches (docs/matching.md) in a real browser and to the Atom schema: the section on a
360 px phone (no horizontal scrolling, every card and reason inside the viewport), hostile upstream
text in every field a card or a reason quotes (nothing runs), and the matches feed validated against
RFC 4287's RELAX NG schema like the search feeds."""
from __future__ import annotations

import pytest

from conftest import ALREADY_ASKED, Server
from stub_upstream import PAYLOADS, StubUpstream
from test_feeds import fetch, validate

PHONE = {"width": 360, "height": 740}
LONG_WORD = "Supercalifragilisticexpialidociousbreedname" * 2


def _row(pet_id: str, status: str, payload: str, lat: float, day: str) -> dict:
    return {
        "id": pet_id, "petName": payload, "species": "CAT", "breed": payload + " " + LONG_WORD, "sex": "UNKNOWN", "age": 3,
        "description": f"czarna kotka z białą łapką {payload} black white", "microchipNumber": None,
        "locationLatitude": lat, "locationLongitude": 21.0122, "lastSeenDate": day, "email": "owner@example.com",
        "phone": "+48 600 000 000", "photoUrl": "/images/none.png", "status": status, "reward": None,
        "createdAt": f"{day}T10:00:00.000Z", "updatedAt": f"{day}T10:00:00.000Z",
    }


@pytest.fixture(scope="module")
def match_server():
    """A lost cat and seven found ones nearby, every quoted field a script payload."""
    items = [_row("lost-cat", "MISSING", PAYLOADS[0], 52.2297, "2025-11-10")]
    items += [_row(f"found-{i}", "FOUND", payload, 52.2297 + (i + 1) / 300, f"2025-11-{11 + i:02d}") for i, payload in enumerate(PAYLOADS)]
    stub = StubUpstream(items)
    server = Server("--upstream", stub.url)
    yield server
    server.stop()
    stub.stop()


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_section_fits_a_360px_phone_and_runs_nothing(match_server, make_page, lang):
    page, watcher = make_page(geo="unavailable", viewport=PHONE, init_scripts=[ALREADY_ASKED])
    page.goto(match_server.url(f"/pets/lost-cat?lang={lang}"))
    page.wait_for_load_state("load")
    section = page.locator('[data-testid="possible-matches"]')
    section.scroll_into_view_if_needed()
    assert section.is_visible()
    cards = page.locator('[data-testid="match"]')
    assert cards.count() == 5
    for index in range(cards.count()):
        card = cards.nth(index)
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
        reasons = card.locator('[data-testid="match-reason"]')
        assert reasons.count() >= 3
        assert reasons.first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The payloads are text: no dialog, no script ran, no error.
    assert watcher.dialogs == []
    assert watcher.errors == []
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator('[data-testid="all-matches"]').is_visible()
    first_reason = cards.first.locator('[data-testid="match-reason"]').first.inner_text()
    assert ("km apart" in first_reason) if lang == "en" else ("km od siebie" in first_reason)


@pytest.mark.parametrize("path", ["/pets/lost-cat/matches.atom?lang=en", "/pets/lost-cat/matches.atom?lang=pl", "/pets/found-0/matches.atom"])
def test_the_matches_feed_is_valid_atom(match_server, path):
    status, headers, body = fetch(match_server.url(path))
    assert status == 200
    assert headers["content-type"] == "application/atom+xml; charset=utf-8"
    valid, messages = validate(body)
    assert valid, messages
    assert b"<script>" not in body
    assert b"600 000 000" not in body and b"owner@example.com" not in body
