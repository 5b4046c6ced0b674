"""Photos come from our resized variants (docs/photos.md): list images are `srcset` candidates, never the
original; every photo is shown upright (the originals are stored sideways with EXIF orientation 6)."""
from __future__ import annotations

import time

import pytest

from conftest import ALREADY_ASKED

# Colour of a point of the drawn photo, as fractions of its size: sky near the top, grass near the bottom.
PIXEL = """([img, fx, fy]) => {
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  return Array.from(context.getImageData(Math.floor(fx * img.naturalWidth), Math.floor(fy * img.naturalHeight), 1, 1).data);
}"""


def load_all_photos(page) -> None:
    """Scrolls through the page so every lazy photo loads, then waits for them (bounded)."""
    height = page.evaluate("document.body.scrollHeight")
    for y in range(0, height + 800, 600):
        page.evaluate(f"window.scrollTo(0, {y})")
        page.wait_for_timeout(50)
    wait_until(page, "[...document.querySelectorAll('img[data-photo]')].every(i => i.complete && i.naturalWidth > 0)")


def wait_until(page, expression: str, seconds: float = 30) -> None:
    """Polls `expression` (wait_for_function evaluates strings, which the site's CSP forbids)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(100)


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 780}, {"width": 1280, "height": 900}], ids=["360px", "1280px"])
def test_list_images_come_from_srcset_variants(photo_server, make_page, viewport):
    page, watcher = make_page(geo="unavailable", viewport=viewport, init_scripts=[ALREADY_ASKED])
    page.goto(photo_server.url("/pets"))
    load_all_photos(page)
    photos = page.evaluate("""[...document.querySelectorAll('img[data-photo]')].map(i => ({
        current: i.currentSrc, srcset: i.getAttribute('srcset'), width: i.naturalWidth, height: i.naturalHeight}))""")
    assert len(photos) == 20
    for photo in photos:
        candidates = {part.strip().split(" ")[0] for part in photo["srcset"].split(",")}
        path = photo["current"].replace(photo_server.base, "")
        assert path in candidates, f"{path} is not one of {candidates}"
        asked = int(path.rsplit("?w=", 1)[1])
        assert photo["width"] <= asked  # the variant is at most as wide as asked, never the original
        assert photo["height"] > photo["width"]  # upright portrait, not the sideways stored pixels
    assert watcher.errors == []


def test_photos_are_shown_upright_without_the_original(photo_server, make_page):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(photo_server.url("/pets/plain-1"))
    img = page.locator('[data-testid="pet-details"] img[data-photo]')
    img.wait_for(state="visible")
    wait_until(page, "document.querySelector('img[data-photo]').complete && document.querySelector('img[data-photo]').naturalWidth > 0")
    handle = img.element_handle()
    top = page.evaluate(PIXEL, [handle, 0.9, 0.03])
    bottom = page.evaluate(PIXEL, [handle, 0.05, 0.97])
    assert top[2] > top[0] + 60, f"top should be sky blue, got {top}"
    assert bottom[1] > bottom[0] + 40 and bottom[1] > bottom[2], f"bottom should be grass green, got {bottom}"
    # "Open photo" gives the full variant: a WebP no longer than 2048, never the JPEG as it came.
    href = page.locator("a", has_text="Open photo").get_attribute("href")
    response = page.request.get(photo_server.url(href))
    assert response.status == 200
    assert response.headers["content-type"] == "image/webp"
    assert b"GPS" not in response.body() and b"Exif" not in response.body()
    assert watcher.errors == []
