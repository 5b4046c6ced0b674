"""A tiny upstream stub whose announcements carry script payloads (the XSS page).

Serves the current backend's shape (docs/upstream.md §1): `GET /api/v1/announcements` → `{"data":[…]}`
with all 18 keys, `GET /api/v1/announcements/{id}` → the bare object or a JSON 404, the photos it
was given (`images`: decoded path → JPEG bytes, sent with `max-age=0` and an ETag like the real
backend's static server) and a JSON 404 for every other `/images/…` path. Bound to 127.0.0.1 on a
random port; runs in a daemon thread.
"""
from __future__ import annotations

import hashlib
import json
import sys
import threading
from pathlib import Path
from urllib.parse import unquote
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Each payload also tries to set window.__pwned so a silently executed script is noticed too.
PAYLOADS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "<script>window.__pwned=1</script>",
    "'><svg onload=window.__pwned=1>",
    "</textarea><script>alert(1)</script>",
    "javascript:alert(1)",
    "&lt;b&gt;entity&lt;/b&gt; &amp; <b>bold</b>",
]


def _item(index: int, payload: str) -> dict:
    return {
        "id": f"xss-{index}",
        "petName": payload,
        "species": "DOG",
        "breed": payload,
        "sex": "MALE",
        "age": 3,
        "description": f"Description {payload} end",
        "microchipNumber": payload,
        "locationLatitude": 52.23 + index / 1000,
        "locationLongitude": 21.01,
        "lastSeenDate": "2025-11-18",
        "email": f'x"onmouseover=alert(1)"@example.com',
        "phone": payload,
        # The list leaves out null photos, like the real backend; odd photo URLs must not execute.
        "photoUrl": ["javascript:alert(1)", '/images/a.png" onerror="alert(1)',
                     "data:text/html,<script>alert(1)</script>"][index % 3],
        "status": "MISSING",
        "reward": f"500 PLN {payload}" if index % 2 else "500 PLN",
        "createdAt": f"2025-11-18T10:{index:02d}:00.000Z",
        "updatedAt": "2025-12-01 14:24:13",
    }


ITEMS = [_item(i, p) for i, p in enumerate(PAYLOADS)]


def plain_items(count: int) -> list[dict]:
    """`count` ordinary, valid announcements (for pagination: more than one page of 20)."""
    species = ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"]
    items = []
    for i in range(count):
        item = _item(i, f"Pet {i + 1}")
        item.update({
            "id": f"plain-{i + 1}", "petName": f"Pet {i + 1}", "breed": None, "microchipNumber": None,
            "description": f"Ordinary announcement number {i + 1}.", "email": "owner@example.com",
            "phone": "+48 600 000 000", "photoUrl": f"/images/pet-{i + 1}.png",
            "species": species[i % 5], "status": "FOUND" if i % 3 == 0 else "MISSING",
            "reward": None, "createdAt": f"2025-11-{1 + i % 28:02d}T10:{i % 60:02d}:00.000Z",
        })
        items.append(item)
    return items


def photo_items(count: int, megapixels: float = 2) -> tuple[list[dict], dict[str, bytes]]:
    """`count` announcements with phone-like JPEG photos (EXIF orientation 6, GPS tags; made by
    scripts/photo_fixtures.py), and the photos by upstream path. Names hold a space on purpose."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import io
    import math
    from photo_fixtures import save_phone_jpeg, scene  # noqa: E402 (needs Pillow)

    width = int(math.sqrt(megapixels * 1e6 * 3 / 4))
    items, images = plain_items(count), {}
    for index, item in enumerate(items):
        buffer = io.BytesIO()
        save_phone_jpeg(scene(width, int(width * 4 / 3), index), buffer, 88)
        item["photoUrl"] = f"/images/pet%20photo%20{index + 1}.jpg"
        images[f"/images/pet photo {index + 1}.jpg"] = buffer.getvalue()
    return items, images


class _Handler(BaseHTTPRequestHandler):
    items: list[dict] = ITEMS
    images: dict[str, bytes] = {}
    def log_message(self, *args):  # keep the test output quiet
        pass

    def _send(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "stub000001")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self):  # noqa: N802 (http.server API)
        path = self.path.split("?", 1)[0]
        if path == "/api/v1/announcements":
            self._send(200, {"data": self.items})
            return
        if path.startswith("/api/v1/announcements/"):
            wanted = path.rsplit("/", 1)[1]
            for item in self.items:
                if item["id"] == wanted:
                    self._send(200, item)
                    return
        if path == "/api/health":
            self._send(200, {"status": "ok"})
            return
        photo = self.images.get(unquote(path))
        if photo is not None:
            etag = '"' + hashlib.sha1(photo).hexdigest() + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(photo)))
            self.send_header("Cache-Control", "public, max-age=0")
            self.send_header("ETag", etag)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(photo)
            return
        self._send(404, {"error": {"requestId": "stub000001", "code": "NOT_FOUND", "message": "Not found"}})

    do_HEAD = do_GET


class StubUpstream:
    """Start with `StubUpstream()`, read `.url`, call `.stop()`."""

    def __init__(self, items: list[dict] | None = None, images: dict[str, bytes] | None = None) -> None:
        handler = type("Handler", (_Handler,), {"items": ITEMS if items is None else items, "images": images or {}})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
