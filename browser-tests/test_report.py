"""Report a lost or found pet (docs/report-flow.md) in a real Chromium: with and without JavaScript,
a refused form that keeps every value and the photo, "Use my location", and Nu + axe on every
page of the flow in both languages."""
from __future__ import annotations

import json
import re
import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ALREADY_ASKED, HERE, Server, http_get
from report_support import (CODE, FORM, RESULT, field_errors, fill_form, post_form, result_of, submit,
                            valid_fields)
from test_html_validation import VNU

AXE = Axe()


@pytest.fixture(scope="module")
def report_server():
    """The demo server without the per-address report throttle: this module makes many reports."""
    s = Server("--report-limit", "0")
    yield s
    s.stop()


def pet_page_exists(server, pet_id: str, name: str) -> None:
    status, body = http_get(server.url(f"/pets/{pet_id}"))
    assert status == 200, status
    assert name in body


def test_report_with_javascript_map_click_photo_and_code(report_server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(report_server.url("/report"))
    # With JavaScript: the location tools and the map are shown.
    assert page.locator("[data-use-location]").is_visible()
    map_box = page.locator("[data-report-map]")
    map_box.wait_for(state="visible")
    latitude, longitude = page.locator("#report-locationLatitude"), page.locator("#report-locationLongitude")
    assert latitude.input_value() == "" and longitude.input_value() == ""
    # Tapping the map fills both number fields with the tapped place (inside Poland's default view).
    map_box.scroll_into_view_if_needed()
    box = map_box.bounding_box()
    map_box.click(position={"x": box["width"] * 0.6, "y": box["height"] * 0.4})
    page.wait_for_function("() => document.querySelector('#report-locationLatitude').value !== ''")
    lat, lng = float(latitude.input_value()), float(longitude.input_value())
    assert 45 < lat < 60 and 10 < lng < 30, (lat, lng)
    assert page.locator(".report-map .leaflet-marker-icon").count() == 1

    fill_form(page, lat=None, lng=None, name="Burek-js")
    response = submit(page)
    assert response.status == 201
    assert response.headers["cache-control"] == "no-store"
    pet_id, code = result_of(page)
    # Copy / Print exist only with JavaScript.
    assert page.get_by_role("button", name="Copy").is_visible()
    assert page.get_by_role("button", name="Print").is_visible()
    assert code not in page.url
    pet_page_exists(report_server, pet_id, "Burek-js")
    page.locator('[data-testid="result-pet-link"]').click()
    page.wait_for_selector('[data-testid="pet-details"]')
    assert page.url.endswith(f"/pets/{pet_id}")
    assert watcher.errors == []


def test_report_without_javascript_uses_the_number_fields(report_server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(report_server.url("/report?status=found"))
    # No script: no location button, no map, the number fields are the way.
    assert not page.locator("[data-use-location]").is_visible()
    assert not page.locator("[data-report-map]").is_visible()
    assert page.locator("#report-status-found").is_checked()
    page.check("#report-sex-unknown")
    fill_form(page, name="Found-nojs")
    page.check("#report-sex-unknown")
    response = submit(page)
    assert response.status == 201
    pet_id, _ = result_of(page)
    # The code is on the page; Copy / Print need a script and stay hidden.
    assert not page.locator("[data-code-actions]").is_visible()
    pet_page_exists(report_server, pet_id, "Found-nojs")


def test_refused_form_keeps_values_and_photo_and_resubmits_without_a_file(report_server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(report_server.url("/report"))
    fill_form(page, phone="", age="0", name="Kept-values")
    page.fill("#report-description", "Black dog, white paw")
    # The browser's own checks (min=1) would stop this form: the server's answer is what is tested.
    page.evaluate("document.querySelector('[data-report-form]').noValidate = true")
    response = submit(page)
    assert response.status == 422
    assert sorted(field_errors(page)) == ["age", "contact"]
    for field in ("age", "contact"):
        error = page.locator(f'[data-testid="field-error"][data-field="{field}"]')
        assert error.is_visible() and error.inner_text().strip()
    assert page.locator("#report-age").get_attribute("aria-invalid") == "true"
    # Every value kept, the photo too.
    assert page.locator("#report-petName").input_value() == "Kept-values"
    assert page.locator("#report-description").input_value() == "Black dog, white paw"
    assert page.locator("#report-species").input_value() == "DOG"
    assert page.locator("#report-sex-male").is_checked()
    assert float(page.locator("#report-locationLatitude").input_value()) == pytest.approx(52.2297)
    assert page.locator("#report-age").input_value() == "0"
    assert page.locator('[data-testid="kept-photo"]').is_visible()
    assert page.locator("#report-photo").get_attribute("required") is None
    # The error summary takes the focus, so a screen reader hears it first.
    assert page.evaluate("document.activeElement.hasAttribute('data-error-summary')")

    page.fill("#report-age", "4")
    page.fill("#report-phone", "600 100 200")
    assert page.locator("#report-photo").evaluate("e => e.files.length") == 0
    response = submit(page)
    assert response.status == 201
    pet_id, _ = result_of(page)
    status, body = http_get(report_server.url(f"/pets/{pet_id}"))
    assert status == 200 and "Kept-values" in body and f"/images/{pet_id}" in body
    assert watcher.errors == []


def test_use_my_location_fills_the_place(report_server, make_page):
    page, watcher = make_page(geo="granted")
    page.goto(report_server.url("/report"))
    page.get_by_role("button", name="Use my location").click()
    page.wait_for_function("() => document.querySelector('#report-locationLatitude').value !== ''")
    assert float(page.locator("#report-locationLatitude").input_value()) == pytest.approx(HERE[0], abs=1e-4)
    assert float(page.locator("#report-locationLongitude").input_value()) == pytest.approx(HERE[1], abs=1e-4)
    assert page.locator(".report-map .leaflet-marker-icon").count() == 1
    assert watcher.errors == []


def test_form_prefilled_from_a_located_page(report_server, make_page):
    page, _ = make_page(geo=None, js=False)
    page.goto(report_server.url("/report?lat=52.2297&lng=21.0122"))
    assert float(page.locator("#report-locationLatitude").input_value()) == pytest.approx(52.2297)
    assert float(page.locator("#report-locationLongitude").input_value()) == pytest.approx(21.0122)


# --- Nu Html Checker and axe on every page of the flow, both languages -------------------------

GET_PAGES = {
    "form": ("/report", 200),
    "form-found": ("/report?status=found", 200),
    "photo-retry": ("/report/photo?id=x", 200),
}
LANGUAGES = ["en", "pl"]


def with_language(path: str, language: str) -> str:
    return path if language == "en" else path + ("&" if "?" in path else "?") + "lang=pl"


def flow_bodies(server, language: str) -> dict[str, str]:
    """Every page of the flow as the server sends it: the GET pages, a refused form, a result."""
    bodies = {}
    for name, (path, status) in GET_PAGES.items():
        got, body = http_get(server.url(with_language(path, language)))
        assert got == status, (name, got)
        bodies[name] = body
    refused, body = post_form(server, valid_fields(email="", age="0"), path=with_language("/report", language))
    assert refused == 422, refused
    bodies["refused"] = body
    made, body = post_form(server, valid_fields(), path=with_language("/report", language))
    assert made == 201, made
    bodies["result"] = body
    return bodies


@pytest.fixture(scope="module")
def vnu_flow_report(report_server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("report-html")
    files = {}
    for language in LANGUAGES:
        for name, body in flow_bodies(report_server, language).items():
            file = folder / f"{language}-{name}.html"
            file.write_text(body, encoding="utf-8")
            files[f"{language}-{name}"] = file
    result = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, files.values())],
                            capture_output=True, text=True, timeout=120)
    messages = json.loads(result.stderr or result.stdout or '{"messages": []}')["messages"]
    report = {name: [] for name in files}
    for message in messages:
        name = next((n for n, f in files.items() if message.get("url", "").endswith("/" + f.name)), None)
        assert name is not None, message
        report[name].append(message)
    return report


FLOW_NAMES = [f"{language}-{name}" for language in LANGUAGES for name in [*GET_PAGES, "refused", "result"]]


@pytest.mark.parametrize("name", FLOW_NAMES)
def test_report_pages_are_valid_html(vnu_flow_report, name):
    errors = [f"line {m.get('lastLine')}: {m.get('message')} [{m.get('extract', '').strip()}]"
              for m in vnu_flow_report[name] if m.get("type") in ("error", "non-document-error")]
    assert errors == [], "\n".join(errors)


def axe_violations(page) -> list[str]:
    violations = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}" for v in violations]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("name", GET_PAGES)
def test_report_get_pages_have_no_axe_violation(report_server, make_page, name, language, width):
    path, status = GET_PAGES[name]
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800}, init_scripts=[ALREADY_ASKED])
    assert page.goto(report_server.url(with_language(path, language))).status == status
    page.wait_for_load_state("load")
    assert axe_violations(page) == []
    assert watcher.errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_refused_and_result_pages_have_no_axe_violation(report_server, make_page, language):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(report_server.url(with_language("/report", language)))
    fill_form(page, phone="", age="0", name="Axe")
    page.evaluate("document.querySelector('[data-report-form]').noValidate = true")
    assert submit(page).status == 422
    page.wait_for_selector('[data-testid="field-error"]')
    assert axe_violations(page) == []
    page.fill("#report-age", "2")
    page.fill("#report-phone", "600100200")
    assert submit(page).status == 201
    page.wait_for_selector(RESULT)
    assert re.fullmatch(r"\d{6}", page.locator(CODE).inner_text().strip())
    assert axe_violations(page) == []
    assert watcher.errors == []
    assert page.locator(FORM).count() == 0
