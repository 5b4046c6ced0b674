"""The Polish site (docs/languages.md) in a real Chromium whose language is Polish: it gets Polish pages without asking,
and with location denied it shows the Polish banner of the mobile apps."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from playwright.sync_api import expect

from conftest import ALREADY_ASKED, CHROMIUM, MAX_ID, Watcher, set_geolocation

BANNER = '[data-testid="location-banner"]'
CARD = '[data-testid="pet-card"]'


@pytest.fixture(scope="module")
def polish_browser(playwright_instance):
    """Chromium started in Polish (--lang=pl): its Accept-Language says pl."""
    b = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage", "--lang=pl"],
    )
    yield b
    b.close()


@pytest.fixture
def polish_page(polish_browser):
    """make(geo=…, scripts=…) → (page, watcher) in a Polish context (locale pl-PL)."""
    contexts = []

    def make(geo: str = "unavailable", scripts=(), permissions=()):
        context = polish_browser.new_context(locale="pl-PL", viewport={"width": 1280, "height": 900})
        contexts.append(context)
        if permissions:
            context.grant_permissions(list(permissions))
        context.set_default_timeout(10_000)
        for script in scripts:
            context.add_init_script(script)
        page = context.new_page()
        watcher = Watcher()
        watcher.attach(page)
        set_geolocation(context, page, geo)
        return page, watcher

    yield make
    for context in contexts:
        context.close()


def test_a_polish_browser_gets_polish_pages_without_asking(server, polish_page):
    page, watcher = polish_page(scripts=[ALREADY_ASKED])
    response = page.goto(server.url("/pets"))
    assert response.status == 200
    assert response.request.header_value("accept-language").lower().startswith("pl")
    assert page.locator("html").get_attribute("lang") == "pl"
    assert response.header_value("content-language") == "pl"
    nav = page.get_by_role("navigation", name="Główna")
    assert nav.get_by_role("link", name="Wszystkie zwierzęta").get_attribute("aria-current") == "page"
    assert page.locator("h1").inner_text().strip() == "Zaginione i znalezione zwierzęta"
    assert re.fullmatch(r"\d+ zwierz(ę|ęta|ąt)", page.locator(".result-summary").inner_text().strip())
    # Cards: Polish dates (no zero padding) and badges.
    metas = page.locator(".pet-card-meta").all_inner_texts()
    assert any(re.fullmatch(r"Ostatnio widziane \d{1,2} (sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4}", m.strip()) for m in metas), metas
    badges = set(t.strip() for t in page.locator('[data-testid="status-badge"]').all_inner_texts())
    assert badges <= {"ZAGINIONE", "ZNALEZIONE", "ZAMKNIĘTE"} and badges, badges
    assert watcher.errors == []


def test_polish_details_page_formats_and_share_message(server, polish_page):
    page, watcher = polish_page(scripts=[ALREADY_ASKED], permissions=["clipboard-read", "clipboard-write"])
    page.goto(server.url(f"/pets/{MAX_ID}?lat=52.2297&lng=21.0122"))
    page.wait_for_selector('[data-testid="pet-details"]')
    rows = dict(zip([t.strip() for t in page.locator(".details-row dt").all_inner_texts()],
                    [t.strip() for t in page.locator(".details-row dd").all_inner_texts()]))
    assert rows["Płeć"] in {"♂ Samiec", "♀ Samica", "? Nieznana"}, rows
    assert re.fullmatch(r"\d+,\d km stąd", rows["Odległość"]), rows
    assert re.search(r"\d+,\d{4}° [NS], \d+,\d{4}° [EW]", rows["Współrzędne"]), rows
    assert re.fullmatch(r"(\d+ (rok|lata|lat)|poniżej 1 roku|—)", rows["Wiek"]), rows
    # The photo of this pet 404s: the script puts the page's own (Polish) placeholder text.
    page.wait_for_selector(".details-media .photo-placeholder")
    assert page.locator(".details-media .photo-placeholder").inner_text().strip() == "Zdjęcie niedostępne"
    # The share button's message comes from the page, in Polish (no Web Share API here: copy).
    if page.evaluate("typeof navigator.share === 'function'"):
        page.evaluate("delete Navigator.prototype.share")
    page.get_by_role("button", name="Udostępnij").click()
    expect(page.locator("[data-share-status]")).to_have_text("Link skopiowany")
    # The copied link opens the page in Polish for whoever gets it.
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/pets/{MAX_ID}?lang=pl")
    assert watcher.errors == []


def test_denied_location_shows_the_polish_banner(server, polish_page):
    page, watcher = polish_page(geo="denied")
    page.goto(server.url("/pets"))
    page.wait_for_url(re.compile(r"location=denied"))
    banner = page.locator(BANNER)
    banner.wait_for(state="visible")
    assert banner.locator("h2").inner_text().strip() == "Wymagany dostęp do lokalizacji"
    assert banner.locator("p").first.inner_text().strip() == (
        "Włącz dostęp do lokalizacji w ustawieniach przeglądarki, aby zobaczyć zwierzęta w pobliżu.")
    assert banner.get_by_role("link", name="Spróbuj ponownie").is_visible()
    assert page.locator(CARD).count() > 0
    banner.get_by_role("link", name="Zamknij").click()
    banner.wait_for(state="hidden")
    assert watcher.errors == []


def test_granted_location_shows_polish_distances(server, polish_page):
    page, watcher = polish_page(geo="granted")
    page.goto(server.url("/pets"))
    page.wait_for_url(re.compile(r"[?&]lat="))
    page.wait_for_selector('[data-testid="distance"]')
    labels = page.locator('[data-testid="distance"]').all_inner_texts()
    assert labels and all(re.fullmatch(r"\d+,\d km stąd", t.strip()) for t in labels), labels
    assert re.search(r"w promieniu \d+ km od Ciebie", page.locator(".result-summary").inner_text())
    assert watcher.errors == []


def test_the_switch_keeps_page_and_query_and_links_keep_the_language(server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url("/pets?status=missing&species=dog"))
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Polski").click()
    page.wait_for_url(re.compile(r"lang=pl"))
    query = parse_qs(urlparse(page.url).query)
    assert query == {"status": ["missing"], "species": ["dog"], "lang": ["pl"]}, page.url
    assert page.locator("html").get_attribute("lang") == "pl"
    # The filter form and the links carry the language on.
    page.get_by_label("Kolejność").select_option("oldest")
    page.get_by_role("button", name="Zastosuj").click()
    page.wait_for_url(re.compile(r"sort=oldest"))
    assert parse_qs(urlparse(page.url).query)["lang"] == ["pl"]
    page.locator(CARD).first.locator("a.pet-card-link").click()
    page.wait_for_selector('[data-testid="pet-details"]')
    assert "lang=pl" in page.url and page.locator("html").get_attribute("lang") == "pl"
    assert watcher.errors == []
