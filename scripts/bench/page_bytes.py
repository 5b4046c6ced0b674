#!/usr/bin/env python3
"""Bytes a browser loads for one page (the photo benchmark, docs/performance.md): headless Chromium (Debian's), a fresh
context per viewport, every response's encoded size counted from the DevTools protocol
(Network.loadingFinished encodedDataLength: headers and body as they came over the wire).

    page_bytes.py URL [--width 360] [--height 780]

Prints one line: `initial=BYTES photos=N scrolled=BYTES photos=N`: what the page loads by itself
(lazy photos below the fold are not fetched), then after scrolling through the whole page.
"""
from __future__ import annotations

import argparse
import os

from playwright.sync_api import sync_playwright


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--height", type=int, default=780)
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("PETSPOT_CHROMIUM", "/usr/bin/chromium"),
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        context = browser.new_context(viewport={"width": args.width, "height": args.height})
        # The location script would reload the page with a position: mark it as asked already.
        context.add_init_script("try { sessionStorage.setItem('petspot.locationAsked', '1'); } catch (e) {}")
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        loaded = {"bytes": 0, "photos": 0}
        photo_requests = set()

        def on_request(event):
            if "/images/" in event["request"]["url"]:
                photo_requests.add(event["requestId"])

        def on_finished(event):
            loaded["bytes"] += int(event["encodedDataLength"])
            if event["requestId"] in photo_requests:
                loaded["photos"] += 1

        cdp.on("Network.requestWillBeSent", on_request)
        cdp.on("Network.loadingFinished", on_finished)
        page.goto(args.url, wait_until="networkidle", timeout=60_000)
        page.wait_for_timeout(500)
        initial = dict(loaded)
        height = page.evaluate("document.body.scrollHeight")
        for y in range(0, height + args.height, args.height // 2):
            page.evaluate(f"window.scrollTo(0, {y})")
            page.wait_for_timeout(150)
        page.wait_for_load_state("networkidle", timeout=60_000)
        page.wait_for_timeout(500)
        print(f"initial={initial['bytes']} photos={initial['photos']} scrolled={loaded['bytes']} photos={loaded['photos']}")
        browser.close()


if __name__ == "__main__":
    main()
