"""Broken photos become the placeholder; the Share button copies the canonical link."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import ALREADY_ASKED, MAX_ID, NO_PHOTO_ID, ZIGGY_ID

PLACEHOLDER = ".photo-placeholder"


@pytest.mark.parametrize("pet_id", [MAX_ID, ZIGGY_ID, NO_PHOTO_ID], ids=["404-photo", "unreachable-photo", "no-photo"])
def test_details_photo_that_fails_shows_placeholder(server, make_page, pet_id):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url(f"/pets/{pet_id}"))
    placeholder = page.locator(f'[data-testid="pet-details"] {PLACEHOLDER}')
    placeholder.wait_for(state="visible")
    assert placeholder.inner_text().strip() == "Image not available"
    assert page.locator('[data-testid="pet-details"] img[data-photo]').count() == 0
    assert watcher.errors == []


def test_card_photo_that_fails_shows_placeholder(server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url("/pets?species=dog&status=found"))
    card = page.locator(f'[data-testid="pet-card"][data-pet-id="{MAX_ID}"]')
    card.scroll_into_view_if_needed()  # the photos are lazy
    card.locator(PLACEHOLDER).wait_for(state="visible")
    assert card.locator(PLACEHOLDER).inner_text().strip() == "Image not available"
    # A working photo on the same page stays a photo.
    loaded = page.evaluate(
        "[...document.querySelectorAll('img[data-photo]')].filter(i => i.complete && i.naturalWidth > 0).length"
    )
    assert loaded >= 1
    assert watcher.errors == []


def test_share_button_copies_the_canonical_link(server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED],
                              permissions=["clipboard-read", "clipboard-write"])
    page.goto(server.url(f"/pets/{MAX_ID}"))
    has_share = page.evaluate("typeof navigator.share === 'function'")
    if has_share:  # headless Chromium has none; make sure the copy path is what runs
        page.evaluate("delete Navigator.prototype.share")
    canonical = page.locator('link[rel="canonical"]').get_attribute("href")
    assert canonical and canonical.endswith(f"/pets/{MAX_ID}")
    page.locator('[data-testid="share-button"]').click()
    status = page.locator("[data-share-status]")
    expect(status).to_have_text("Link copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == canonical
    assert page.locator("[data-share-field]").input_value() == canonical
    assert watcher.errors == []
