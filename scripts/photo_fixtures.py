#!/usr/bin/env python3
"""Makes phone-like test photos for the photo pipeline (docs/photos.md): JPEGs whose pixels are stored
sideways with EXIF orientation 6 (as phones do) and GPS tags (what must never be served).

    photo_fixtures.py OUT_DIR [--count 20] [--megapixels 12] [--prefix photo] [--quality 90]

Each picture is an upright portrait scene, sky (blue) at the top and grass (green) at the bottom,
a dark pet standing on the grass, a yellow sun in the top-left corner; it is rotated 90° counter-
clockwise before saving, so only a viewer that applies orientation 6 (rotate 90° clockwise) shows
it upright. Light noise makes the JPEG about as large as a phone's (2–4 MB at 12 MP). Needs Pillow.
Deterministic for a given index.
"""
from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ORIENTATION = 0x0112
GPS_IFD = 0x8825
WARSAW_GPS = {1: "N", 2: (52.0, 13.0, 47.16), 3: "E", 4: (21.0, 0.0, 43.92), 5: 0, 6: 112.0}


def scene(width: int, height: int, index: int) -> Image.Image:
    """The upright picture: `width` × `height` (portrait)."""
    rng = random.Random(index)
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    horizon = int(height * 0.62)
    for y in range(0, horizon, 4):  # sky: light to deep blue towards the top
        t = y / horizon
        draw.rectangle((0, y, width, y + 4), fill=(int(40 + 110 * t), int(110 + 90 * t), int(220 + 30 * t)))
    grass = (40 + rng.randint(0, 40), 150 + rng.randint(0, 40), 50)
    draw.rectangle((0, horizon, width, height), fill=grass)
    sun = int(width * 0.2)
    draw.ellipse((sun // 2, sun // 2, sun // 2 + sun * 2, sun // 2 + sun * 2), fill=(250, 215, 60))
    # The pet: body, head, ears, legs, standing on the grass.
    fur = (60 + rng.randint(0, 60), 40 + rng.randint(0, 40), 30)
    cx, ground = width // 2 + rng.randint(-width // 10, width // 10), horizon + int(height * 0.2)
    body_w, body_h = int(width * 0.45), int(height * 0.13)
    draw.ellipse((cx - body_w // 2, ground - body_h - int(height * 0.08), cx + body_w // 2, ground - int(height * 0.08)), fill=fur)
    for dx in (-0.18, -0.08, 0.08, 0.18):
        x = cx + int(width * dx)
        draw.rectangle((x - width // 60, ground - int(height * 0.11), x + width // 60, ground), fill=fur)
    head = int(width * 0.13)
    hx, hy = cx + body_w // 2 - head // 3, ground - body_h - int(height * 0.1)
    draw.ellipse((hx - head, hy - head, hx + head, hy + head), fill=fur)
    draw.polygon([(hx - head, hy - head // 2), (hx - head // 2, hy - head * 2), (hx - head // 4, hy - head)], fill=fur)
    draw.polygon([(hx + head // 4, hy - head), (hx + head // 2, hy - head * 2), (hx + head, hy - head // 2)], fill=fur)
    draw.ellipse((hx + head // 3, hy - head // 3, hx + head // 3 + head // 5, hy - head // 3 + head // 5), fill=(250, 250, 250))
    # Grain, so the JPEG weighs what a phone photo weighs.
    noise = Image.effect_noise((width // 2, height // 2), 40).resize((width, height)).filter(ImageFilter.GaussianBlur(0.6))
    return Image.blend(image, Image.merge("RGB", (noise, noise, noise)), 0.2)


def save_phone_jpeg(upright: Image.Image, path: Path, quality: int) -> None:
    """Saves `upright` as a phone would: pixels rotated, orientation 6, GPS position."""
    stored = upright.rotate(90, expand=True)  # counter-clockwise: orientation 6 turns it back
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    exif[0x010F] = "PetSpot test camera"  # Make
    gps = exif.get_ifd(GPS_IFD)
    gps.update(WARSAW_GPS)
    stored.save(path, "JPEG", quality=quality, exif=exif.tobytes())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--megapixels", type=float, default=12)
    parser.add_argument("--prefix", default="photo")
    parser.add_argument("--quality", type=int, default=90)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    # Upright 3:4 portrait of the asked pixel count (12 MP: 3000 × 4000).
    width = int(math.sqrt(args.megapixels * 1e6 * 3 / 4))
    height = int(width * 4 / 3)
    for index in range(args.count):
        path = args.out / f"{args.prefix}-{index + 1}.jpg"
        save_phone_jpeg(scene(width, height, index), path, args.quality)
        print(f"{path} {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
