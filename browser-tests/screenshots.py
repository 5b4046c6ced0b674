"""Screenshots for the README: landing, list, list with the banner, details, a 360 px-wide list,
the map at desktop and phone sizes (tiles from a stub tile server on 127.0.0.1), and the same
pages and the map in Polish from a browser whose language is Polish (`pl-*.png`), and the
report form and its result in both languages (`report-*.png`, docs/report-flow.md), and the e-mail
alerts (`alert-*.png`, docs/alerts.md): the box opened on a 390 px phone, the manage page, and an alert
mail's HTML part as a mail program would show it.

    browser-tests/run.sh screenshots        (or: .venv-browser/bin/python browser-tests/screenshots.py)
    browser-tests/run.sh screenshots report (only the report-*.png)
    browser-tests/run.sh screenshots alerts (only the alert-*.png)

Starts the real server ($PETSPOT_BIN, demo data), drives Debian's Chromium with a fixed position
(Warsaw) or a denied permission, and writes docs/screenshots/*.png.
"""
from __future__ import annotations

import sys
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import ALREADY_ASKED, CHROMIUM, HERE, REPO, Server, set_geolocation  # noqa: E402
from alert_support import LOCATED, alert_mail, html_part, mail_link, on_server, wait_for_mail  # noqa: E402
from report_support import fill_form, submit  # noqa: E402
from stub_upstream import StubUpstream, photo_items  # noqa: E402

OUT = REPO / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}


def shoot(browser, server, name, path, geo, viewport=DESKTOP, wait_for=None, full_page=False, scale=1, settle=None,
          locale=None):
    context = browser.new_context(viewport=viewport, device_scale_factor=scale, **({"locale": locale} if locale else {}))
    page = context.new_page()
    if geo == "settled":
        context.add_init_script(ALREADY_ASKED)
        set_geolocation(context, page, "unavailable")
    else:
        set_geolocation(context, page, geo)
    page.goto(server.url(path))
    if settle:
        page.wait_for_selector(settle, state="attached", timeout=10_000)
    if wait_for:
        page.wait_for_selector(wait_for, timeout=10_000)
    page.wait_for_load_state("load")
    # Lazy photos: scroll through the page so every visible box has its photo or placeholder.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(400)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(400)
    target = OUT / f"{name}.png"
    page.screenshot(path=str(target), full_page=full_page)
    print(f"wrote {target.relative_to(REPO)}  ({page.url.replace(server.base, '')})")
    context.close()
    return page


def first_dog_with_photo(browser, server) -> str:
    """The details path of the first dog card that has a photo."""
    context = browser.new_context()
    page = context.new_page()
    set_geolocation(context, page, "unavailable")
    context.add_init_script(ALREADY_ASKED)
    page.goto(server.url("/pets?species=dog"))
    href = page.locator('[data-testid="pet-card"]:has(img[data-photo]) a.pet-card-link').first.get_attribute("href")
    context.close()
    return href


def shoot_posters(browser, server, href) -> None:
    """The poster (docs/poster.md) in both languages, as it looks on screen."""
    for lang in ["en", "pl"]:
        shoot(browser, server, f"poster-{lang}", f"{href}/poster?lang={lang}", "settled",
              wait_for='[data-testid="poster-qr"]', full_page=True)


def posters_only() -> None:
    """`screenshots.py posters`: only the poster shots."""
    OUT.mkdir(parents=True, exist_ok=True)
    server = Server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            shoot_posters(browser, server, first_dog_with_photo(browser, server))
            browser.close()
    finally:
        server.stop()


def shoot_report(browser, server, language: str) -> None:
    """The report form (desktop, whole page, tiles from the stub) and the result of sending it, filled
    as a visitor would: a found cat, the place from the map's coordinates, a phone photo."""
    suffix = "pl" if language == "pl" else "en"
    query = "?lang=pl" if language == "pl" else ""
    shoot(browser, server, f"report-form-{suffix}", "/report" + query, "settled", wait_for="[data-report-map] .leaflet-tile-loaded",
          full_page=True)
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(ALREADY_ASKED)
    page = context.new_page()
    set_geolocation(context, page, "unavailable")
    page.goto(server.url("/report" + query))
    fill_form(page, name="Reksio")
    page.fill("#report-description", "Brown dog, white paw, red collar" if language == "en" else "Brązowy pies, biała łapa, czerwona obroża")
    assert submit(page).status == 201
    page.wait_for_selector("[data-testid=report-result] [data-code-actions]:not([hidden])")
    target = OUT / f"report-result-{suffix}.png"
    page.screenshot(path=str(target), full_page=True)
    print(f"wrote {target.relative_to(REPO)}")
    context.close()


def shoot_reports(browser, server) -> None:
    """Report a pet: the form and its result in both languages, and the form on a phone."""
    shoot_report(browser, server, "en")
    shoot_report(browser, server, "pl")
    shoot(browser, server, "report-form-360px", "/report?status=found", "settled", viewport=PHONE,
          wait_for="[data-report-map] .leaflet-tile-loaded", scale=2)


ALERT_PHONE = {"width": 390, "height": 844}


def shoot_alerts(browser, server) -> None:
    """The alert box opened on a phone, the manage page (reached as a person does: subscribe, the
    confirmation mail's link, Confirm, Manage), and an alert mail's HTML part."""
    context = browser.new_context(viewport=ALERT_PHONE, device_scale_factor=2)
    context.add_init_script(ALREADY_ASKED)
    page = context.new_page()
    set_geolocation(context, page, "unavailable")
    page.goto(server.url(LOCATED))
    page.locator('[data-testid="alert-box"] > summary').click()
    page.locator('[data-testid="alert-box"]').scroll_into_view_if_needed()
    page.evaluate("document.querySelector('.feed-follow').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    target = OUT / "alert-box-390px.png"
    page.screenshot(path=str(target))
    print(f"wrote {target.relative_to(REPO)}")

    address = "screenshot@example.com"
    page.fill("#alert-email", address)
    page.check("#alert-daily")
    with page.expect_navigation():
        page.locator('[data-testid="alert-form"] button[type=submit]').click()
    page.goto(on_server(mail_link(wait_for_mail(server, address), "mail-confirm-link"), server))
    with page.expect_navigation():
        page.locator('[data-testid="alert-confirm"] button[type=submit]').click()
    with page.expect_navigation():
        page.locator('[data-testid="alert-manage-link"]').click()
    target = OUT / "alert-manage-390px.png"
    page.screenshot(path=str(target), full_page=True)
    print(f"wrote {target.relative_to(REPO)}")
    context.close()

    # The mail as a mail program shows it: its HTML part alone, images loaded from the server.
    mail = html_part(alert_mail(server, "screenshot-alert", pet_name="Reksio"))
    context = browser.new_context(viewport={"width": 640, "height": 800})
    page = context.new_page()
    page.set_content(mail, wait_until="load")
    target = OUT / "alert-mail.png"
    page.screenshot(path=str(target), full_page=True)
    print(f"wrote {target.relative_to(REPO)}")
    context.close()


def alerts_only() -> None:
    """`screenshots.py alerts`: only the alert-*.png (a server of their own: `--cache-ttl 0`, so the
    alert mail finds its new pet, alert_support.alert_mail; no report throttle)."""
    OUT.mkdir(parents=True, exist_ok=True)
    server = Server("--report-limit", "0", "--cache-ttl", "0")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            shoot_alerts(browser, server)
            browser.close()
    finally:
        server.stop()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    server = Server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            if sys.argv[1:] == ["report"]:  # `run.sh screenshots report`: only the report-*.png
                shoot_reports(browser, server)
                browser.close()
                return
            shoot(browser, server, "landing", "/", "granted", wait_for='[data-testid="distance"]')
            shoot(browser, server, "list", "/pets", "granted", wait_for='[data-testid="distance"]')
            shoot(browser, server, "list-location-denied", "/pets", "denied",
                  wait_for='[data-testid="location-banner"]')
            # A details page with a real photo: the first card of the list that has one.
            href = first_dog_with_photo(browser, server)
            shoot(browser, server, "details", href + f"?lat={HERE[0]}&lng={HERE[1]}", "settled",
                  wait_for='[data-testid="pet-details"]', full_page=True)
            shoot_posters(browser, server, href)
            shoot(browser, server, "list-360px", "/pets", "granted", viewport=PHONE,
                  wait_for='[data-testid="distance"]', scale=2)
            # The map: pins, clusters, the visitor and the range circle (location granted → reload).
            shoot(browser, server, "map", "/map", "granted", wait_for=".leaflet-tile-loaded.leaflet-tile",
                  settle=".visitor-range")
            shoot(browser, server, "map-360px", "/map", "granted", viewport=PHONE,
                  wait_for=".leaflet-tile-loaded", settle=".visitor-range", scale=2)
            # Polish: the browser's language (Accept-Language: pl-PL) chooses it, no switch needed.
            for shot in [("pl-landing", "/", "granted", DESKTOP, '[data-testid="distance"]', False, 1),
                         ("pl-list-location-denied", "/pets", "denied", DESKTOP, '[data-testid="location-banner"]', False, 1),
                         ("pl-details", href + f"?lat={HERE[0]}&lng={HERE[1]}", "settled", DESKTOP, '[data-testid="pet-details"]', True, 1),
                         ("pl-list-360px", "/pets", "granted", PHONE, '[data-testid="distance"]', False, 2)]:
                name, path, geo, viewport, wait_for, full_page, scale = shot
                shoot(browser, server, name, path, geo, viewport=viewport, wait_for=wait_for, full_page=full_page,
                      scale=scale, locale="pl-PL")
            shoot(browser, server, "pl-map", "/map", "granted", wait_for=".leaflet-tile-loaded.leaflet-tile",
                  settle=".visitor-range", locale="pl-PL")
            shoot_reports(browser, server)
            alert_server = Server("--report-limit", "0", "--cache-ttl", "0")
            try:
                shoot_alerts(browser, alert_server)
            finally:
                alert_server.stop()
            # Phone photos (stored sideways, EXIF orientation 6, GPS tags) as our variants show them: upright.
            items, images = photo_items(6)
            stub = StubUpstream(items, images)
            photo_server = Server("--upstream", stub.url)
            try:
                # Made once ahead, so the shot shows every photo rather than conversions in progress.
                for item in items:
                    urllib.request.urlopen(photo_server.url(item["photoUrl"] + "?w=640"), timeout=60).read()
                shoot(browser, photo_server, "photos-list", "/pets", "settled", wait_for="img[data-photo]")
                shoot(browser, photo_server, "photos-details", "/pets/plain-1", "settled", wait_for="img[data-photo]")
            finally:
                photo_server.stop()
                stub.stop()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    if sys.argv[1:] == ["posters"]:
        posters_only()
    elif sys.argv[1:] == ["alerts"]:
        alerts_only()
    else:
        main()
