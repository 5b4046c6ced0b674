"""The Atom feed of a search (docs/feeds.md) read as the standards and real readers read it:
validated against RFC 4287's RELAX NG schema (schemas/atom.rnc, Appendix B of the RFC) with
Debian's `jing` (or `trang` + `xmllint --relaxng`), and parsed with the `feedparser` library that
many feed readers and services use."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import feedparser
import pytest

from conftest import http_get
from stub_upstream import PAYLOADS

SCHEMA = Path(__file__).resolve().parent / "schemas" / "atom.rnc"
SEARCHES = ["", "?status=missing", "?species=cat&lang=pl", "?lat=52.2297&lng=21.0122", "?lat=52.2297&lng=21.0122&range=3&species=dog",
            "?species=rabbit&status=closed", "?lat=-33.9&lng=151.2&range=1"]


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


def validate(document: bytes) -> tuple[bool, str]:
    """(valid, messages) of `document` against the RFC 4287 schema."""
    with tempfile.TemporaryDirectory() as folder:
        feed = Path(folder) / "feed.xml"
        feed.write_bytes(document)
        if shutil.which("jing"):
            run = subprocess.run(["jing", "-c", str(SCHEMA), str(feed)], capture_output=True, text=True, timeout=60)
        else:
            rng = Path(folder) / "atom.rng"
            subprocess.run(["trang", "-I", "rnc", "-O", "rng", str(SCHEMA), str(rng)], check=True, timeout=60)
            run = subprocess.run(["xmllint", "--noout", "--relaxng", str(rng), str(feed)], capture_output=True, text=True, timeout=60)
        return run.returncode == 0, run.stdout + run.stderr


def list_ids(page_html: str) -> list[str]:
    return [html.unescape(x) for x in re.findall(r'data-testid="pet-card" data-pet-id="([^"]*)"', page_html)]


def test_the_schema_rejects_a_feed_without_id_and_updated():
    valid, messages = validate(b'<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>')
    assert not valid
    assert "id" in messages


@pytest.mark.parametrize("search", SEARCHES)
def test_demo_feeds_are_valid_atom(server, search):
    status, headers, body = fetch(server.url("/pets.atom" + search))
    assert status == 200
    assert headers["content-type"] == "application/atom+xml; charset=utf-8"
    valid, messages = validate(body)
    assert valid, messages


@pytest.mark.parametrize("fixture", ["xss_server", "photo_server", "many_server"])
def test_feeds_of_unusual_data_are_valid_atom(request, fixture):
    target = request.getfixturevalue(fixture)
    for search in ["", "?lat=52.2297&lng=21.0122&range=50", "?lang=pl"]:
        _, _, body = fetch(target.url("/pets.atom" + search))
        valid, messages = validate(body)
        assert valid, f"{search}: {messages}"


@pytest.mark.parametrize("search", SEARCHES)
def test_feedparser_reads_the_entries_of_the_list(server, search):
    _, _, body = fetch(server.url("/pets.atom" + search))
    _, page = http_get(server.url("/pets" + search))
    feed = feedparser.parse(body)

    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert feed.feed.id.startswith("tag:")
    assert feed.feed.title
    assert feed.feed.updated_parsed is not None
    links = {(link.rel, link.get("type")): link.href for link in feed.feed.links}
    assert links[("self", "application/atom+xml")].startswith(server.url("/pets.atom?"))
    assert links[("alternate", "text/html")].startswith(server.url("/pets?"))
    listed = list_ids(page)  # the list's first page (20); the feed goes on to 50
    ids = [entry.id.rsplit(":pets/", 1)[1] for entry in feed.entries]
    assert ids[:len(listed)] == listed
    assert len(ids) == len(listed) or len(listed) == 20
    for entry in feed.entries:
        assert entry.title and entry.summary
        assert entry.published_parsed == entry.updated_parsed
        assert entry.link.startswith(server.url("/pets/"))
        assert "lang=" in entry.link
        assert entry.get("where") is not None  # GeoRSS point, read as GeoJSON by feedparser
    dates = [entry.published_parsed for entry in feed.entries]
    assert dates == sorted(dates, reverse=True)


def test_feedparser_finds_the_640_px_photo_as_enclosure(photo_server):
    _, _, body = fetch(photo_server.url("/pets.atom"))
    feed = feedparser.parse(body)

    assert feed.entries
    for entry in feed.entries:
        assert len(entry.enclosures) == 1
        assert entry.enclosures[0].href.startswith(photo_server.url("/images/"))
        assert entry.enclosures[0].href.endswith("?w=640")
    status, headers, _ = fetch(feed.entries[0].enclosures[0].href)
    assert status == 200
    assert headers["content-type"].startswith("image/")


def test_hostile_rows_stay_text_for_a_reader(xss_server):
    _, _, body = fetch(xss_server.url("/pets.atom"))
    feed = feedparser.parse(body)

    assert not feed.bozo
    titles = [entry.title for entry in feed.entries]
    for payload in PAYLOADS:
        assert any(title.endswith(payload) for title in titles), payload
    assert b"<script" not in body
    assert b"@example.com" not in body


@pytest.mark.parametrize("path", ["/", "/pets?species=cat", "/map?status=missing&lang=pl", "/pets?lat=52.2297&lng=21.0122"])
def test_readers_discover_the_feed_of_a_page(server, path):
    _, page = http_get(server.url(path))
    found = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="([^"]+)" href="([^"]+)">', page)
    assert len(found) == 1
    href = html.unescape(found[0][1])
    _, _, body = fetch(server.url(href))
    feed = feedparser.parse(body)
    assert not feed.bozo
    assert feed.feed.language == ("pl" if "lang=pl" in path else "en")


def test_a_reader_polling_again_gets_304(server):
    url = server.url("/pets.atom?status=missing")
    _, headers, _ = fetch(url)
    for extra in [{"If-None-Match": headers["etag"]}, {"If-Modified-Since": headers["last-modified"]}]:
        request = urllib.request.Request(url, headers=extra)
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=10)
        assert answer.value.code == 304
