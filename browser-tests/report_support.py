"""Helpers for the report flow's browser checks (docs/report-flow.md): the form filled in a real
Chromium, and the same form posted over plain HTTP (for the Nu Html Checker, which must read the
server's own bytes, not the browser's DOM)."""
from __future__ import annotations

import re
import urllib.error
import urllib.request
import uuid
from datetime import date, timedelta

from conftest import REPO

PHOTO = REPO / "Tests" / "WebAppTests" / "Fixtures" / "photos" / "oriented-gps.jpg"
FORM = '[data-testid="report-form"]'
RESULT = '[data-testid="report-result"]'
CODE = '[data-testid="management-password"]'
FIELD_ERROR = '[data-testid="field-error"]'
YESTERDAY = (date.today() - timedelta(days=1)).isoformat()


def fill_form(page, *, lat: str | None = "52.2297", lng: str | None = "21.0122", phone: str = "+48 600 100 200",
              name: str = "Reksio", photo: bool = True, age: str = "3") -> None:
    """Fills the required fields (species, sex, the date is today by default), the place, a phone
    and a real phone photo. `lat`/`lng` None leaves the place as it is (set by the map or geolocation)."""
    page.select_option("#report-species", "DOG")
    page.check("#report-sex-male")
    page.fill("#report-petName", name)
    page.fill("#report-age", age)
    # Yesterday: valid whatever the hour (today in Warsaw can still be tomorrow for the UTC backend).
    page.fill("#report-lastSeenDate", YESTERDAY)
    if lat is not None:
        page.fill("#report-locationLatitude", lat)
    if lng is not None:
        page.fill("#report-locationLongitude", lng)
    page.fill("#report-phone", phone)
    if photo:
        page.set_input_files("#report-photo", str(PHOTO))


def submit(page):
    """Clicks the submit button and returns the navigation's response (the server's own page)."""
    with page.expect_navigation() as navigation:
        page.locator(FORM + " button[type=submit]").click()
    return navigation.value


def result_of(page) -> tuple[str, str]:
    """(pet id, management code) of the result page the browser shows."""
    result = page.locator(RESULT)
    result.wait_for()
    pet_id = result.get_attribute("data-pet-id")
    code = page.locator(CODE).inner_text().strip()
    assert pet_id and re.fullmatch(r"[0-9A-Za-z-]+", pet_id), pet_id
    assert re.fullmatch(r"\d{6}", code), code
    return pet_id, code


def field_errors(page) -> list[str]:
    return page.locator(FIELD_ERROR).evaluate_all("es => es.map(e => e.dataset.field)")


def post_form(server, fields: dict[str, str], photo: bool = True, path: str = "/report") -> tuple[int, str]:
    """POSTs the report form as a browser would (multipart, our Origin) and returns (status, body)."""
    boundary = "----petspot" + uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    if photo:
        parts.append((f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="dog.jpg"\r\n'
                      "Content-Type: image/jpeg\r\n\r\n").encode() + PHOTO.read_bytes() + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    request = urllib.request.Request(server.url(path), data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": server.base,
    })
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def valid_fields(**changes: str) -> dict[str, str]:
    """A valid report's fields (a found cat in Kraków, yesterday); `changes` replace or add values."""
    fields = {
        "status": "FOUND", "species": "CAT", "sex": "UNKNOWN", "lastSeenDate": YESTERDAY,
        "locationLatitude": "50.0614", "locationLongitude": "19.9366", "email": "finder@example.com",
        "description": "Grey cat with a red collar",
    }
    fields.update(changes)
    return {name: value for name, value in fields.items() if value is not None}
