"""The location permission flow (docs/upstream.md §4, seed 002) in a real Chromium."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import COUNT_ASKS

BANNER = '[data-testid="location-banner"]'
CARD = '[data-testid="pet-card"]'
TITLE = "Location Access Needed"
MESSAGE = "Enable location access in your browser settings to see nearby pets."


def asks(page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('__geoAsks') || '0')"))


@pytest.mark.parametrize("path", ["/", "/pets"])
def test_granted_location_reloads_with_lat_lng_and_shows_distances(server, make_page, path):
    page, watcher = make_page(geo="granted")
    page.goto(server.url(path))
    page.wait_for_url(re.compile(r"[?&]lat=.*&lng=|[?&]lng=.*&lat="), timeout=10_000)
    query = parse_qs(urlparse(page.url).query)
    assert query["lat"] == ["52.2297"] and query["lng"] == ["21.0122"], page.url
    page.wait_for_selector('[data-testid="distance"]')
    labels = page.locator('[data-testid="distance"]').all_inner_texts()
    assert labels and all(re.fullmatch(r"\d+\.\d km away", t.strip()) for t in labels), labels
    assert watcher.errors == []


def test_denied_location_shows_banner_and_still_lists_every_pet(server, make_page):
    page, watcher = make_page(geo="denied", init_scripts=[COUNT_ASKS])
    page.goto(server.url("/pets"))
    page.wait_for_url(re.compile(r"location=denied"))
    banner = page.locator(BANNER)
    banner.wait_for(state="visible")
    assert banner.locator("h2").inner_text().strip() == TITLE
    assert banner.locator("p").first.inner_text().strip() == MESSAGE
    assert page.locator(CARD).count() > 0
    assert asks(page) == 1

    # Dismiss hides it.
    banner.locator('[data-action="dismiss-banner"]').click()
    banner.wait_for(state="hidden")
    assert "location=denied" in page.url

    # Navigating on in the same session neither asks again nor shows the banner again.
    page.locator(CARD).first.locator("a.pet-card-link").click()
    page.wait_for_selector('[data-testid="pet-details"]')
    page.go_back()
    page.wait_for_selector(CARD)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Home").click()
    page.wait_for_selector('[data-testid="recent-pets"]')
    page.wait_for_load_state("load")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="All pets").click()
    page.wait_for_selector(CARD)
    page.wait_for_timeout(500)  # let a (wrong) second request and reload happen, if any
    assert asks(page) == 1
    assert not page.locator(BANNER).is_visible()
    assert page.locator(CARD).count() > 0
    assert watcher.errors == []


def test_denied_location_is_not_asked_again_without_dismissing(server, make_page):
    page, watcher = make_page(geo="denied", init_scripts=[COUNT_ASKS])
    page.goto(server.url("/"))
    page.wait_for_url(re.compile(r"location=denied"))
    page.locator(BANNER).wait_for(state="visible")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="All pets").click()
    page.wait_for_selector(CARD)
    page.locator(CARD).first.locator("a.pet-card-link").click()
    page.wait_for_selector('[data-testid="pet-details"]')
    page.wait_for_timeout(500)
    assert asks(page) == 1
    assert watcher.errors == []


@pytest.mark.parametrize("path", ["/", "/pets"])
def test_unavailable_position_is_a_silent_fallback(server, make_page, path):
    page, watcher = make_page(geo="unavailable", init_scripts=[COUNT_ASKS])
    page.goto(server.url(path))
    for _ in range(50):  # (wait_for_function would need 'unsafe-eval', which the CSP forbids)
        if asks(page) >= 1:
            break
        page.wait_for_timeout(100)
    assert asks(page) == 1
    page.wait_for_timeout(1000)  # the error callback has run by then; no reload may follow
    assert page.url == server.url(path)
    assert page.locator(BANNER).count() == 0
    assert page.locator(CARD).count() > 0
    assert page.locator('[data-testid="distance"]').count() == 0
    if path == "/pets":
        summary = page.locator(".result-summary").inner_text()
        total = int(re.search(r"\d+", summary).group())
        assert total == page.locator(CARD).count() and total >= 15, summary
    assert watcher.errors == []


def test_try_again_after_granting_reloads_with_position(server, make_page, browser):
    page, watcher = make_page(geo="denied")
    page.goto(server.url("/pets"))
    page.locator(BANNER).wait_for(state="visible")
    # The visitor changes the browser setting, then presses "Try again".
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"latitude": 52.2297, "longitude": 21.0122})
    # The banner's button: the alert box's "Use my location" link carries the same data-action.
    page.locator(BANNER + ' [data-action="retry-location"]').click()
    page.wait_for_url(re.compile(r"lat=52\.2297"))
    assert "location=denied" not in page.url
    page.wait_for_selector('[data-testid="distance"]')
    assert page.locator(BANNER).count() == 0
    assert watcher.errors == []
