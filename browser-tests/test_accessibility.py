"""axe-core (bundled in axe-playwright-python, offline) finds no violation on any page type, on the alert
pages, and on the list and the map with the alert box opened."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ALREADY_ASKED
from pages import ALERT_PAGES, OWNER_PAGES, PAGE_TYPES

AXE = Axe()


PHONE_CHECKED = ["landing", "list-banner", "details", "error-404-pet", "map", "pl-list-banner", "pl-details", "pl-map", "sighting-form",
                 "sightings-login"]
CASES = [(name, 1280) for name in PAGE_TYPES] + [(name, 360) for name in PHONE_CHECKED]


@pytest.mark.parametrize(("name", "width"), CASES, ids=[f"{n}-{w}px" for n, w in CASES])
def test_axe_finds_no_violation(request, make_page, name, width):
    fixture, path, status = PAGE_TYPES[name]
    server = request.getfixturevalue(fixture)
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800},
                              init_scripts=[ALREADY_ASKED])
    response = page.goto(server.url(path))
    assert response.status == status
    page.wait_for_load_state("load")
    results = AXE.run(page)
    violations = results.response["violations"]
    summary = [f"{v['id']} ({v['impact']}): {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}"
               for v in violations]
    assert summary == [], "\n".join(summary)
    assert watcher.errors == []


def axe_violations(page) -> list[str]:
    violations = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}" for v in violations]


ALERT_CASES = [(name, 1280) for name in ALERT_PAGES] + [(name, 390) for name in ["alert-pending", "alert-manage", "pl-alert-manage"]]


@pytest.mark.parametrize(("name", "width"), ALERT_CASES, ids=[f"{n}-{w}px" for n, w in ALERT_CASES])
def test_axe_finds_no_violation_on_alert_pages(alert_server, alert_pages, make_page, name, width):
    """The alert pages are POST answers or pages of one-use tokens: the browser gets the body the server
    answered (alert_support.collect_alert_pages) at its own URL; its styles and scripts come from the server."""
    axe_on_answered(alert_server, alert_pages[name], make_page, width)


def axe_on_answered(server, answered: tuple[int, str, str], make_page, width: int) -> None:
    """axe on a body the server answered once (status, path, body), fulfilled at its own URL."""
    status, path, body = answered
    url = server.url(path)
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800}, init_scripts=[ALREADY_ASKED])
    page.route(lambda u: u == url, lambda route: route.fulfill(status=status, body=body, content_type="text/html; charset=utf-8"))
    assert page.goto(url).status == status
    page.wait_for_load_state("load")
    summary = axe_violations(page)
    assert summary == [], "\n".join(summary)
    assert watcher.errors == []


OWNER_CASES = [(name, 360) for name in OWNER_PAGES]


@pytest.mark.parametrize(("name", "width"), OWNER_CASES, ids=[f"{n}-{w}px" for n, w in OWNER_CASES])
def test_axe_finds_no_violation_on_the_owners_pages(alert_server, owner_pages, make_page, name, width):
    """The owner's pages are behind a cookie the browser context does not hold: served as the server answered them
    (sighting_support.collect_owner_pages) at their own URL, on a 360 px phone."""
    axe_on_answered(alert_server, owner_pages[name], make_page, width)


OPEN_BOX = [("list-located", 1280), ("list-located", 390), ("map-located", 1280), ("map-located", 390), ("pl-list-located", 390)]


@pytest.mark.parametrize(("name", "width"), OPEN_BOX, ids=[f"{n}-{w}px" for n, w in OPEN_BOX])
def test_axe_finds_no_violation_with_the_alert_box_open(server, make_page, name, width):
    fixture, path, status = PAGE_TYPES[name]
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800}, init_scripts=[ALREADY_ASKED])
    assert page.goto(server.url(path)).status == status
    page.wait_for_load_state("load")
    page.locator('[data-testid="alert-box"] > summary').click()
    page.locator('[data-testid="alert-form"] input[type=email]').wait_for(state="visible")
    summary = axe_violations(page)
    assert summary == [], "\n".join(summary)
    assert watcher.errors == []
