"""The sightings' pages as a visitor and an owner reach them over plain HTTP (docs/sightings.md), for the checks
that read the server's own bytes: a report made through the JSON API, a sighting with hostile text, the owner's
page behind the management code (its one cookie kept by a cookie jar), and the pages after "We are reunited"."""
from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid

from report_support import YESTERDAY


def api_report(server, name: str) -> tuple[str, str]:
    """A missing dog reported through the JSON API (it has no photo, so it is not listed, but its pages work)."""
    body = {"petName": name, "species": "DOG", "sex": "MALE", "locationLatitude": 51.0782, "locationLongitude": 17.0157,
            "email": "owner@example.com", "phone": "+48 600 100 200", "lastSeenDate": YESTERDAY, "status": "MISSING",
            "description": "Sighting check " + uuid.uuid4().hex[:8]}
    request = urllib.request.Request(server.url("/api/v1/announcements"), data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=15) as answer:
        made = json.load(answer)
    return made["id"], made["managementPassword"]


class Visitor:
    """A browser without JavaScript: follows redirects and keeps cookies."""

    def __init__(self, server) -> None:
        self.server = server
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def send(self, path: str, fields: dict[str, str] | None = None) -> tuple[int, str, str]:
        """GET, or POST of `fields` urlencoded with our Origin; returns (status, final path, body)."""
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.server.base} if data else {}
        request = urllib.request.Request(self.server.url(path), data=data, headers=headers, method="POST" if data else "GET")
        try:
            with self.opener.open(request, timeout=30) as response:
                final = urllib.parse.urlsplit(response.geturl())
                return response.status, final.path + ("?" + final.query if final.query else ""), response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, path, error.read().decode("utf-8")


def collect_owner_pages(server) -> dict[str, tuple[int, str, str]]:
    """name → (status, path, body): the owner's page with a sighting (English, Polish), a wrong code's answer, the
    owner's page after "We are reunited" (with its undo) and the pet's details page with the reunited banner.
    The sighting's text carries markup, so an unescaped value would also break the document."""
    pet_id, code = api_report(server, "Owner <b>page</b> " + uuid.uuid4().hex[:6])
    finder = Visitor(server)
    sent = finder.send(f"/pets/{pet_id}/sighting", {
        "note": "<script>alert(1)</script> ran east & \"fast\"", "lat": "51.0800", "lng": "17.0200", "contact": "+48 601 000 111",
    })
    assert sent[0] == 201, (sent[:2], sent[2][-2000:])
    owner = Visitor(server)
    pages: dict[str, tuple[int, str, str]] = {}
    wrong = "000000" if code != "000000" else "111111"
    pages["owner-wrong-code"] = owner.send(f"/pets/{pet_id}/sightings", {"code": wrong})
    assert pages["owner-wrong-code"][0] == 403, pages["owner-wrong-code"][:2]
    signed = owner.send(f"/pets/{pet_id}/sightings", {"code": code})
    assert signed[0] == 200 and 'data-testid="sighting"' in signed[2], signed[:2]
    pages["owner-page"] = signed
    pages["pl-owner-page"] = owner.send(f"/pets/{pet_id}/sightings?lang=pl")
    reunited = owner.send(f"/pets/{pet_id}/sightings/reunited", {"reunited": "1"})
    assert reunited[0] == 200 and 'name="undo"' in reunited[2], reunited[:2]
    pages["owner-reunited"] = reunited
    pages["details-reunited"] = finder.send(f"/pets/{pet_id}")
    assert 'data-testid="reunited-banner"' in pages["details-reunited"][2]
    return pages
