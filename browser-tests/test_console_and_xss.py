"""No JavaScript error on any page; upstream script payloads never execute."""
from __future__ import annotations

import pytest

from conftest import ALREADY_ASKED, MAX_ID, NO_PHOTO_ID, ZIGGY_ID
from stub_upstream import ITEMS

PAGES = [
    "/", "/pets", "/pets?location=denied", "/pets?lat=52.2297&lng=21.0122",
    "/pets?status=missing&species=cat&sort=oldest", 
    f"/pets/{MAX_ID}", f"/pets/{ZIGGY_ID}", f"/pets/{NO_PHOTO_ID}",
    "/pets/does-not-exist", "/pets?lat=1", "/nope",
    "/map", "/map?lat=52.2297&lng=21.0122", "/map?status=found",
]


@pytest.mark.parametrize("geo", ["granted", "denied", "unavailable"])
def test_no_javascript_error_on_any_page(server, make_page, geo):
    page, watcher = make_page(geo=geo)
    for path in PAGES:
        page.goto(server.url(path))
        page.wait_for_load_state("load")
        page.wait_for_timeout(150)  # location.js may reload once; let it settle
        page.wait_for_load_state("load")
        page.mouse.wheel(0, 20000)  # lazy photos load (and fail) too
        page.wait_for_timeout(100)
    assert watcher.errors == []
    assert watcher.dialogs == []


def test_no_javascript_error_on_502_page(down_server, make_page):
    page, watcher = make_page(geo="unavailable")
    for path in ["/", "/pets", f"/pets/{MAX_ID}"]:
        response = page.goto(down_server.url(path))
        assert response.status == 502
        page.wait_for_load_state("load")
    assert watcher.errors == []


PWNED = "window.__pwned === undefined && !document.querySelector('script:not([src]), [onerror], [onload], [onmouseover]')"


@pytest.mark.parametrize("geo", ["granted", "unavailable"])
def test_script_payloads_from_upstream_never_run(xss_server, make_page, geo):
    page, watcher = make_page(geo=geo)
    paths = ["/", "/pets", "/pets?location=denied", "/map"] + [f"/pets/{item['id']}" for item in ITEMS]
    for path in paths:
        response = page.goto(xss_server.url(path))
        assert response.status == 200, (path, response.status)
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)
        page.mouse.move(200, 300)
        page.mouse.wheel(0, 20000)
        assert page.evaluate(PWNED), path
    assert watcher.dialogs == []
    assert watcher.errors == []
    # The payload is shown as text, exactly as given.
    page.goto(xss_server.url("/pets/xss-0"))
    assert page.locator("h1").inner_text().strip() == "<script>alert(1)</script>"
    page.goto(xss_server.url("/pets/xss-1"))
    assert page.locator("h1").inner_text().strip() == '"><img src=x onerror=alert(1)>'
    assert page.locator("img[src='x']").count() == 0
