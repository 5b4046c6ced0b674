"""The map of pins (docs/map.md) in a real browser: pins and clusters, popups, 5,000 items, the tile
server down, keyboard use, JavaScript off, and upstream text in popups. Tiles come from stub tile
servers on 127.0.0.1 (conftest's Server never points at the real tile server)."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ALREADY_ASKED, HERE, Server, default_tiles, free_port, http_get
from stub_upstream import StubUpstream, plain_items

PLACE = "li[data-pet-id][data-lat]"
READY = "() => window.petspotMap !== undefined && document.querySelector('.leaflet-marker-pane').children.length > 0"

# Pins shown one by one plus the counts shown on clusters: every pin is in one or the other.
PINNED = """() => {
  let total = 0;
  document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon').forEach((icon) => {
    if (icon.classList.contains('marker-cluster')) total += Number(icon.textContent.trim());
    else if (icon.classList.contains('pin')) total += 1;
  });
  return total;
}"""


def open_map(make_page, server, path, **kwargs):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED], **kwargs)
    response = page.goto(server.url(path))
    assert response.status == 200
    page.wait_for_function(READY)
    # Let chunked loading and the fit animation finish before counting.
    page.wait_for_timeout(300)
    return page, watcher


def show_pin(page, index: int = 0) -> None:
    """Centres the map closely on the pin of the `index`th place, so it stands alone (out of any
    cluster). The markers are made in the order of the places."""
    page.evaluate("""(index) => new Promise((done) => {
      const { map, markers } = window.petspotMap;
      map.setView(markers[index].getLatLng(), 18, { animate: false });
      setTimeout(done, 400);
    })""", index)


def geojson_count(server, query: str) -> int:
    status, body = http_get(server.url("/api/v1/announcements.geojson" + query))
    assert status == 200
    return len(json.loads(body)["features"])


@pytest.mark.parametrize("query", ["", "?status=missing", "?species=cat", f"?lat={HERE[0]}&lng={HERE[1]}&range=20"])
def test_pins_and_cluster_counts_add_up_to_the_matching_announcements(server, make_page, query):
    page, watcher = open_map(make_page, server, "/map" + query)

    places = page.locator(PLACE).count()
    assert places > 0
    assert places == geojson_count(server, query)
    assert page.evaluate(PINNED) == places
    assert page.locator(".leaflet-tile-loaded").count() > 0  # through our /tiles/ proxy, from the stub
    assert page.locator(".leaflet-control-attribution").inner_text().strip() == "© OpenStreetMap contributors"
    assert page.locator('[data-testid="map-notice"]').is_hidden()
    assert watcher.errors == []


def test_tiles_are_fetched_by_our_proxy_with_the_petspot_user_agent(server, make_page):
    page, _ = open_map(make_page, server, "/map?species=dog")
    sources = page.eval_on_selector_all(".leaflet-tile-loaded", "tiles => tiles.map(t => t.src)")
    assert sources
    assert all(re.fullmatch(re.escape(server.base) + r"/tiles/\d+/\d+/\d+\.png", src) for src in sources), sources[:3]
    assert default_tiles().requests > 0
    assert "PetSpot" in default_tiles().user_agent


def test_a_located_map_shows_the_visitor_and_the_range_circle(server, make_page):
    page, _ = open_map(make_page, server, f"/map?lat={HERE[0]}&lng={HERE[1]}&range=5")
    assert page.locator("path.visitor-range").count() == 1
    assert page.locator("path.visitor-position").count() == 1


def test_clicking_a_pin_opens_its_popup_whose_link_leads_to_the_details_page(server, make_page):
    page, watcher = open_map(make_page, server, "/map")
    pet_id = page.locator(PLACE).first.get_attribute("data-pet-id")
    name = page.locator(PLACE).first.locator("[data-details-link]").inner_text().strip()
    # Zoom until that pin stands alone (it may start inside a cluster), then click it like a person.
    show_pin(page)
    pin = page.locator(f'.leaflet-marker-icon.pin[data-pet-id="{pet_id}"]')
    pin.wait_for(state="visible")
    pin.click()
    popup = page.locator(".leaflet-popup-content")
    popup.wait_for(state="visible")
    assert popup.locator("[data-details-link]").inner_text().strip() == name
    assert popup.locator('[data-testid="status-badge"]').count() == 1
    assert popup.locator(".map-place-photo").count() == 1  # the photo or the placeholder
    popup.locator("[data-details-link]").click()
    page.wait_for_url(re.compile(r"/pets/" + re.escape(pet_id) + r"$"))
    page.wait_for_selector('[data-testid="pet-details"]')
    assert page.locator("h1").inner_text().strip() == name
    assert page.locator('[data-testid="pet-map"]').is_visible()
    assert watcher.errors == []


def test_the_map_is_usable_by_keyboard(server, make_page):
    page, _ = open_map(make_page, server, "/map")
    show_pin(page)
    pet_id = page.locator(PLACE).first.get_attribute("data-pet-id")
    pin = page.locator(f'.leaflet-marker-icon.pin[data-pet-id="{pet_id}"]')
    pin.wait_for(state="visible")
    assert pin.get_attribute("tabindex") == "0"
    pin.focus()
    page.keyboard.press("Enter")
    page.locator(".leaflet-popup-content [data-details-link]").wait_for(state="visible")
    # The map itself takes focus (arrows pan, +/- zoom), and a skip link leads past it to the list.
    assert page.locator(".leaflet-container").get_attribute("tabindex") == "0"
    assert page.locator("[data-map-skip]").get_attribute("href") == "#places-title"


def spread_items(count: int) -> list[dict]:
    """`count` valid announcements spread over a 100 × 50 grid around Warsaw."""
    items = plain_items(count)
    for index, item in enumerate(items):
        item["locationLatitude"] = round(52.0 + (index // 100) * 0.01, 4)
        item["locationLongitude"] = round(20.5 + (index % 100) * 0.01, 4)
    return items


def test_five_thousand_announcements_render_clustered_without_console_errors(make_page):
    stub = StubUpstream(spread_items(5000))
    server = Server("--upstream", stub.url)
    try:
        page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
        assert page.goto(server.url("/map"), timeout=60_000).status == 200
        page.wait_for_function(READY, timeout=30_000)
        page.wait_for_function(f"() => ({PINNED})() === 5000", timeout=30_000)
        assert page.locator(PLACE).count() == 5000
        assert page.locator("[data-testid='map-place'] a[data-details-link]").count() == 5000
        shown = page.locator(".leaflet-marker-pane .leaflet-marker-icon").count()
        assert 0 < shown < 200, shown  # clustered: a few discs, not 5,000 icons
        assert page.locator(".leaflet-marker-pane .marker-cluster").count() > 0
        # Zooming in keeps working: the map goes one level closer and shows no more than the 5,000.
        zoom = page.evaluate("window.petspotMap.map.getZoom()")
        page.locator(".leaflet-control-zoom-in").click()
        page.wait_for_function(f"() => window.petspotMap.map.getZoom() === {zoom + 1}")
        page.wait_for_timeout(1000)
        assert 0 < page.evaluate(PINNED) <= 5000
        assert watcher.errors == []
    finally:
        server.stop()
        stub.stop()


def test_with_the_tile_server_down_the_pins_show_on_a_plain_background_with_a_notice(make_page):
    server = Server("--tile-url", f"http://127.0.0.1:{free_port()}/tiles/{{z}}/{{x}}/{{y}}.png")
    try:
        page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
        page.goto(server.url("/map"))
        page.wait_for_function(READY)
        notice = page.locator('[data-testid="map-notice"]')
        notice.wait_for(state="visible")
        assert "could not be loaded" in notice.inner_text()
        assert page.evaluate(PINNED) == page.locator(PLACE).count() > 0
        assert page.locator(".leaflet-tile-loaded").count() == 0
        # The proxy's 502s are network errors (filtered), not JavaScript errors.
        assert watcher.errors == []
    finally:
        server.stop()


def test_without_javascript_the_map_page_lists_every_place_with_its_links(many_server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(many_server.url("/map"))
    places = page.locator('[data-testid="map-place"]')
    assert places.count() == 45  # every announcement: not paginated like the list (20 per page)
    assert page.locator('[data-testid="map"]').is_hidden()
    first = places.first
    assert first.get_attribute("data-pet-id")
    assert first.get_by_role("link", name=re.compile("Show on the map")).get_attribute("href").startswith(
        "https://www.openstreetmap.org/")
    first.locator("[data-details-link]").click()
    page.wait_for_selector('[data-testid="pet-details"]')
    page.go_back()
    page.get_by_role("link", name=re.compile("^List")).click()
    page.wait_for_url(re.compile(r"/pets$"))
    page.get_by_role("link", name=re.compile("^Map")).first.click()
    page.wait_for_url(re.compile(r"/map$"))


def test_upstream_text_in_popups_is_text(xss_server, make_page):
    page, watcher = open_map(make_page, xss_server, "/map")
    names = page.eval_on_selector_all(PLACE + " [data-details-link]", "links => links.map(l => l.textContent)")
    assert len(names) > 3
    for index, name in enumerate(names):
        page.evaluate("() => window.petspotMap.map.closePopup()")
        page.locator(".leaflet-popup").wait_for(state="detached")
        show_pin(page, index)
        page.evaluate("(index) => window.petspotMap.markers[index].openPopup()", index)
        link = page.locator(".leaflet-popup-content [data-details-link]")
        link.wait_for(state="visible")
        assert link.inner_text() == name  # the payload shown as text, exactly as given
        assert page.evaluate("window.__pwned === undefined && !document.querySelector('[onerror], [onload], script:not([src])')")
    assert watcher.dialogs == []
    assert watcher.errors == []


def test_a_photo_that_fails_in_a_popup_becomes_the_placeholder(many_server, make_page):
    # many_server's photos are all missing upstream (404): the list's and the popup's both fail.
    page, watcher = open_map(make_page, many_server, "/map")
    show_pin(page, 0)
    page.evaluate("() => window.petspotMap.markers[0].openPopup()")
    box = page.locator(".leaflet-popup-content .photo-placeholder")
    box.wait_for(state="visible")
    assert box.inner_text().strip() == "Image not available"
    assert page.locator(".leaflet-popup-content img").count() == 0
    assert watcher.errors == []
