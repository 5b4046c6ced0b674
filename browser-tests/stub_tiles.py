"""A stub tile server for the browser tests and screenshots (docs/map.md): the real server's
`--tile-url` points here, never at OpenStreetMap (this machine has no internet, and the tests must
not depend on it).

`GET /tiles/{z}/{x}/{y}.png` answers a 256 px PNG drawn with Pillow: a pale land colour, a faint
grid and, every few tiles, a "road", so a screenshot reads as a map. It counts requests and keeps
the last User-Agent. Bound to 127.0.0.1 on a random port; runs in a daemon thread.
"""
from __future__ import annotations

import io
import re
import threading
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image, ImageDraw

TILE = re.compile(r"^/tiles/(\d+)/(\d+)/(\d+)\.png$")


@lru_cache(maxsize=512)
def tile_png(z: int, x: int, y: int) -> bytes:
    image = Image.new("RGB", (256, 256), (236, 233, 223) if (x + y) % 2 else (240, 237, 228))
    draw = ImageDraw.Draw(image)
    for step in range(0, 256, 64):
        draw.line([(step, 0), (step, 255)], fill=(225, 221, 210), width=1)
        draw.line([(0, step), (255, step)], fill=(225, 221, 210), width=1)
    if x % 3 == 0:
        draw.line([(128, 0), (128, 255)], fill=(255, 255, 255), width=6)
    if y % 4 == 1:
        draw.line([(0, 96), (255, 96)], fill=(252, 214, 164), width=5)
    if (x * 7 + y * 3 + z) % 11 == 0:
        draw.ellipse([(60, 140), (150, 210)], fill=(170, 211, 223))
    if (x * 5 + y) % 9 == 0:
        draw.rectangle([(150, 20), (230, 80)], fill=(200, 226, 180))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


class _Handler(BaseHTTPRequestHandler):
    stub: "StubTiles"

    def log_message(self, *args):  # keep the test output quiet
        pass

    def do_GET(self):  # noqa: N802 (http.server API)
        with self.stub.lock:
            self.stub.requests += 1
            self.stub.user_agent = self.headers.get("User-Agent", "")
        match = TILE.match(self.path.split("?", 1)[0])
        if not match:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = tile_png(*(int(group) for group in match.groups()))
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "public, max-age=86400")
        self.end_headers()
        self.wfile.write(body)


class StubTiles:
    """Start with `StubTiles()`, pass `.template` as `--tile-url`, call `.stop()`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.user_agent = ""
        handler = type("Handler", (_Handler,), {"stub": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.template = f"http://127.0.0.1:{self.server.server_address[1]}/tiles/{{z}}/{{x}}/{{y}}.png"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
