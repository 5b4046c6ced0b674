"""Sightings and reunions in a real Chromium on a 360 px phone (docs/sightings.md): the form on the details page,
the owner's page behind the management code and its "We are reunited", with and without JavaScript; no
horizontal scrolling, no axe violation, no console error."""
from __future__ import annotations

import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ALREADY_ASKED, Server
from sighting_support import api_report

PHONE = {"width": 360, "height": 740}
AXE = Axe()


@pytest.fixture(scope="module")
def sighting_server():
    """The demo server without the report throttle: each test makes its own report."""
    s = Server("--report-limit", "0")
    yield s
    s.stop()


def no_horizontal_scroll(page) -> None:
    widths = page.evaluate("({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})")
    assert widths["scroll"] <= widths["inner"], widths


def axe_violations(page) -> list[str]:
    violations = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}" for v in violations]


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_sighting_reaches_the_owners_page_and_we_are_reunited_closes_it_on_a_phone(sighting_server, make_page, js):
    name = f"Sonar-{'js' if js else 'nojs'}-{uuid.uuid4().hex[:6]}"
    pet_id, code = api_report(sighting_server, name)
    page, watcher = make_page(geo="unavailable", js=js, viewport=PHONE, init_scripts=[ALREADY_ASKED])

    # The form, folded on the details page: opened, filled with a typed place, sent.
    page.goto(sighting_server.url(f"/pets/{pet_id}"))
    page.locator(".sighting-details summary").click()
    form = page.locator('[data-testid="sighting-form"]')
    assert form.is_visible()
    no_horizontal_scroll(page)
    marker = f"seen by the bakery {uuid.uuid4().hex[:6]}"
    page.fill("#sighting-note", marker)
    pick = page.locator("[data-sighting-pick]")
    if js:
        # The small map: a tap is the place (the hidden lat/lng), without typing one.
        pick.wait_for(state="visible")
        no_horizontal_scroll(page)
        pick.click(position={"x": 60, "y": 50})
        picked = page.evaluate("[document.querySelector('[data-sighting-lat]').value, "
                               "document.querySelector('[data-sighting-lng]').value]")
        assert all(value and abs(float(value)) > 0 for value in picked), picked
        assert page.locator("[data-sighting-pick] .leaflet-marker-icon").count() == 1
    else:
        assert not pick.is_visible()
        page.fill("#sighting-place", "Krzyki")
    with page.expect_navigation():
        form.locator('button[type="submit"]').click()
    page.wait_for_selector('[data-testid="sighting-sent"]')
    no_horizontal_scroll(page)

    # The owner's page: the code's form, then the sighting, on a map only where JavaScript runs.
    page.goto(sighting_server.url(f"/pets/{pet_id}/sightings"))
    login = page.locator('[data-testid="owner-login"]')
    assert login.is_visible()
    no_horizontal_scroll(page)
    page.fill("#owner-code", code)
    with page.expect_navigation():
        login.locator('button[type="submit"]').click()
    page.wait_for_selector('[data-testid="sighting"]')
    assert marker in page.locator('[data-testid="sighting"]').inner_text()
    assert code not in page.url and code not in page.content()
    sighting_map = page.locator("[data-sighting-map]")
    if js:
        sighting_map.wait_for(state="visible")
        assert page.locator(".sighting-map .leaflet-marker-icon").count() >= 1
    else:
        assert not sighting_map.is_visible()
    no_horizontal_scroll(page)
    if js:
        assert axe_violations(page) == []

    # "We are reunited": the page says since when and offers the undo; the details page shows the banner.
    reunited = page.locator('[data-testid="reunited-form"]')
    with page.expect_navigation():
        reunited.locator('button[type="submit"]').click()
    page.wait_for_selector('[data-testid="reunited-banner"]')
    assert page.locator('[data-testid="reunited-form"] input[name="undo"]').count() == 1
    no_horizontal_scroll(page)
    page.goto(sighting_server.url(f"/pets/{pet_id}"))
    assert page.locator('[data-testid="reunited-banner"]').is_visible()
    assert page.locator('[data-testid="sighting-form"]').count() == 0
    no_horizontal_scroll(page)
    if js:
        assert axe_violations(page) == []
    assert watcher.errors == []
