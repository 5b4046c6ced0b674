"""Every page works with JavaScript disabled (docs/upstream.md §4)."""
from __future__ import annotations

import re

CARD = '[data-testid="pet-card"]'


def test_landing_list_filters_pagination_and_details_without_javascript(server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(server.url("/"))
    assert page.locator('[data-testid="recent-pets"] ' + CARD).count() == 5
    assert page.url == server.url("/")  # nothing asked, nothing reloaded

    page.get_by_role("link", name="View all pets").click()
    page.wait_for_url(re.compile(r"/pets"))
    assert page.locator(CARD).count() >= 15

    # Filters: submit the GET form.
    page.select_option("#filter-status", "found")
    page.select_option("#filter-species", "dog")
    page.select_option("#filter-sort", "oldest")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(re.compile(r"status=found"))
    assert "species=dog" in page.url and "sort=oldest" in page.url
    cards = page.locator(CARD)
    assert cards.count() >= 1
    for i in range(cards.count()):
        assert cards.nth(i).locator('[data-testid="status-badge"]').inner_text().strip().upper() == "FOUND"
        assert cards.nth(i).locator(".pet-card-kind").inner_text().startswith("Dog")

    # Details.
    name = cards.first.locator("a.pet-card-link").inner_text().strip()
    cards.first.locator("a.pet-card-link").click()
    page.wait_for_selector('[data-testid="pet-details"]')
    assert page.locator("h1").inner_text().strip() == name
    assert page.locator('[data-testid="share-button"]').count() == 1
    assert page.locator("[data-share-field]").input_value().endswith("/pets/" + page.url.rsplit("/", 1)[1])


def test_pagination_without_javascript(many_server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(many_server.url("/pets"))
    assert page.locator(CARD).count() == 20
    seen = set(page.locator(CARD).evaluate_all("cs => cs.map(c => c.dataset.petId)"))
    pagination = page.locator('[data-testid="pagination"]')
    pagination.get_by_role("link", name=re.compile("Next")).click()
    page.wait_for_url(re.compile(r"page=2"))
    assert page.locator(CARD).count() == 20
    pagination.get_by_role("link", name=re.compile("Next")).click()
    page.wait_for_url(re.compile(r"page=3"))
    assert page.locator(CARD).count() == 5
    assert page.locator('[data-testid="pagination"] a[rel="next"]').count() == 0
    seen |= set(page.locator(CARD).evaluate_all("cs => cs.map(c => c.dataset.petId)"))
    pagination.get_by_role("link", name=re.compile("Previous")).click()
    page.wait_for_url(re.compile(r"page=2"))
    seen |= set(page.locator(CARD).evaluate_all("cs => cs.map(c => c.dataset.petId)"))
    assert len(seen) == 45
    # Filters keep working together with pagination.
    page.select_option("#filter-species", "dog")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(re.compile(r"species=dog"))
    assert page.locator(CARD).count() == 9
    assert "page=" not in page.url


def test_banner_page_without_javascript_still_lists_and_dismisses_by_link(server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(server.url("/pets?location=denied"))
    banner = page.locator('[data-testid="location-banner"]')
    assert banner.is_visible()
    count = page.locator(CARD).count()
    assert count >= 15
    banner.locator('[data-action="dismiss-banner"]').click()
    page.wait_for_load_state("load")
    assert page.locator('[data-testid="location-banner"]').count() == 0
    assert page.locator(CARD).count() == count
