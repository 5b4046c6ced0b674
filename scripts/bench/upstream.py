#!/usr/bin/env python3
"""Benchmark upstream: imitates the PetSpot backend with N generated announcements.

Python 3 standard library only. Deterministic for a given --items/--seed.

  GET /api/v1/announcements[?lat=&lng=&range=]  200 {"data":[...]} (weak ETag, If-None-Match -> 304)
  GET /api/v1/announcements/{id}                 the item, or 404 {"error":{...}}
  GET /api/health                                {"status":"ok"}
  GET /images/pet-N.jpg                          with --photos DIR: DIR's photo-(N % count + 1).jpg, as the
                                                 backend's static server sends it (max-age=0, ETag,
                                                 If-None-Match -> 304); else the JSON 404
  GET /__bump                                    a new list ETag for the same items, so the next revalidation
                                                 is a 200 with the whole body: our server indexes a new
                                                 snapshot (bench.sh's refresh row)
  GET /__add                                     one new announcement (a report made upstream): the list's bytes
                                                 change by one item, every other item's bytes stay as they were
                                                 (bench.sh's steady row: what a refresh of a changed list costs)
  GET /__density[?range=15&samples=2000]         items within range km of uniformly random points of Poland's box
                                                 (the points of scripts/bench/random-location.lua):
                                                 {"median":n,"p10":n,"p90":n,"empty":fraction,"text":...}
  GET /__stats                                   {"list_calls":n,"details_calls":n,"not_modified":n,"image_calls":n}
                                                 (requests to the list/details endpoints since start;
                                                 /__stats itself is not counted)

The full list body is encoded once at start (about 30 MB at 50,000 items); each item's JSON is
also kept, so a located list is a join of pre-encoded items. Location filtering: Haversine
distance < range km (default 5), Earth radius 6371.0088 km, items in insertion order; a latitude
band (binary search over items sorted by latitude) narrows the candidates first.

With --phases "ok:60,slow:30,fail:30" (seconds each, repeated from the start) the API and photo
routes misbehave by phase: `slow` answers after --slow-seconds (default 3), `fail` answers 503
{"error":{...}}; /__stats adds {"phase": name}. /api/health and /__stats always answer.

With --layout clustered the pets are placed around a dozen Polish cities (normal spread, sigma 10-30 km by
the city's size) instead of evenly over the country: most random points then have no pet within 15 km and
a few have a crowded page, as a real service's data does.

Usage: upstream.py --items 5000 --port 3001 [--seed 1] [--host 127.0.0.1] [--photos DIR] [--phases SPEC]
                   [--layout even|clustered]
"""
import argparse
import base64
import bisect
import datetime
import hashlib
import json
import math
import random
import string
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

EARTH_RADIUS_KM = 6371.0088
LAT_RANGE = (49.0, 54.8)
LNG_RANGE = (14.1, 24.1)

PET_NAMES = [
    "Burek", "Azor", "Reksio", "Łatka", "Mruczek", "Filemon", "Kiwi", "Puszek", "Żabka", "Szarik",
    "Pusia", "Figa", "Kajtek", "Bąbel", "Łezka", "Śnieżka", "Kluska", "Tofik", "Misia", "Fafik",
    "Saba", "Luna", "Max", "Bella", "Ćwir", "Gacek", "Rudy", "Kropka", "Pimpek", "Dżeki",
]
BREEDS = {
    "DOG": ["Mixed breed", "Labrador Retriever", "Owczarek niemiecki", "Jamnik", "Beagle", "Border Collie", "Chart polski"],
    "CAT": ["Europejski krótkowłosy", "Maine Coon", "Persian", "Brytyjski", "Syberyjski"],
    "BIRD": ["Budgerigar", "Cockatiel", "Papuga nierozłączka", "Kanarek"],
    "RABBIT": ["Lionhead", "Baran francuski", "Mini Lop", "Karzełek"],
    "OTHER": ["Fretka", "Świnka morska", "Chomik syryjski", "Żółw stepowy"],
}
SPECIES = ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"]
SPECIES_WEIGHTS = [45, 30, 8, 9, 8]
SEXES = ["MALE", "FEMALE", "UNKNOWN"]
COLOURS = ["brown", "black", "white", "grey", "ginger", "black-and-white", "tabby", "cream"]
PLACES = [
    "Pole Mokotowskie", "Park Łazienkowski", "ul. Ząbkowska", "Rynek Główny", "Bulwary Wiślane",
    "Park Szczytnicki", "ul. Piotrkowska", "Stare Miasto", "osiedle Przyjaźń", "Las Kabacki",
]
SENTENCES_EN = [
    "Medium-sized {c} {s} with a red collar, last seen near {p}.",
    "Friendly {c} {s}, answers to its name and loves treats. Seen close to {p}.",
    "Found a {c} {s} wandering alone by {p}; it is safe with us now.",
    "Shy {c} {s} that ran off after fireworks near {p}. Please do not chase it.",
]
SENTENCES_PL = [
    "Zaginął {c} zwierzak w okolicy: {p}. Jest płochliwy, nie goń go.",
    "Znaleziony w pobliżu miejsca {p}; ma obrożę, ale brak adresówki. Proszę o kontakt.",
    "Uciekł przez balkon, ostatnio widziany przy: {p}. Ważna nagroda za pomoc!",
    "Bardzo łagodny, reaguje na imię. Widziany wieczorem — {p}.",
]
# (latitude, longitude, weight, sigma km) of the clustered layout: the largest cities, weighted roughly by size.
# Spread chosen so that, as in the data the steady-speed measurements were first made on, about two random
# points in three have no pet within 15 km and one in ten has 28 or more at 5,000 items (285 at 50,000).
CITIES = [
    (52.2297, 21.0122, 18, 30), (50.0647, 19.9450, 8, 20), (51.7592, 19.4560, 6, 18), (51.1079, 17.0385, 6, 18),
    (52.4064, 16.9252, 5, 18), (54.3520, 18.6466, 5, 20), (53.1235, 18.0084, 3, 12), (51.2465, 22.5684, 3, 12),
    (53.1325, 23.1688, 3, 12), (50.2649, 19.0238, 6, 25), (54.5189, 18.5305, 2, 10), (50.0412, 21.9991, 2, 10),
]
KM_PER_DEGREE = EARTH_RADIUS_KM * math.pi / 180.0


def location(rng, layout):
    """(latitude, longitude) of one pet: uniform over the box, or around one of CITIES."""
    if layout != "clustered":
        return round(rng.uniform(*LAT_RANGE), 6), round(rng.uniform(*LNG_RANGE), 6)
    lat, lng, _, sigma = rng.choices(CITIES, [city[2] for city in CITIES])[0]
    dlat = rng.gauss(0, sigma) / KM_PER_DEGREE
    dlng = rng.gauss(0, sigma) / (KM_PER_DEGREE * math.cos(math.radians(lat)))
    return (round(min(max(lat + dlat, LAT_RANGE[0]), LAT_RANGE[1]), 6),
            round(min(max(lng + dlng, LNG_RANGE[0]), LNG_RANGE[1]), 6))


SPECIES_WORD = {"DOG": "dog", "CAT": "cat", "BIRD": "bird", "RABBIT": "rabbit", "OTHER": "pet"}
ASCII_FOLD = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")
REQUEST_ID_ALPHABET = string.ascii_letters + string.digits


def generate(count, seed, layout="even", first=0):
    """The announcements, as dicts with all 18 keys in the backend's order (nulls explicit); numbered from
    `first` (photo URLs, e-mail addresses). The even layout draws exactly what it drew before layouts existed."""
    rng = random.Random(seed)
    year_start = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
    used_created = set()
    items = []
    for n in range(first, first + count):
        species = rng.choices(SPECIES, SPECIES_WEIGHTS)[0]
        name = rng.choice(PET_NAMES) if rng.random() < 0.85 else None
        seen_day = rng.randrange(0, 362)  # lastSeenDate within 2025, leaves room for createdAt
        seen = year_start + datetime.timedelta(days=seen_day)
        created = seen + datetime.timedelta(seconds=rng.randrange(0, 3 * 86400))
        while created in used_created:  # distinct per item
            created += datetime.timedelta(seconds=1)
        used_created.add(created)
        updated = created + (datetime.timedelta(0) if rng.random() < 0.5
                             else datetime.timedelta(seconds=rng.randrange(1, 2 * 86400)))
        colour, place = rng.choice(COLOURS), rng.choice(PLACES)
        if rng.random() < 0.5:
            desc = rng.choice(SENTENCES_EN).format(c=colour, s=SPECIES_WORD[species], p=place)
        else:
            desc = rng.choice(SENTENCES_PL).format(c=colour, p=place)
        if rng.random() < 0.4:
            desc += " " + rng.choice(SENTENCES_PL).format(c=colour, p=rng.choice(PLACES))
        contact_name = (name or "pet").translate(ASCII_FOLD).lower()
        email = f"{contact_name}.{n}@example.com" if rng.random() < 0.7 else None
        phone = (f"+48 {rng.randrange(500, 900)} {rng.randrange(0, 1000):03d} {rng.randrange(0, 1000):03d}"
                 if (email is None or rng.random() < 0.6) else None)
        items.append({
            "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "petName": name,
            "species": species,
            "breed": rng.choice(BREEDS[species]) if rng.random() < 0.7 else None,
            "sex": rng.choice(SEXES),
            "age": rng.randrange(0, 16) if rng.random() < 0.8 else None,
            "description": desc,
            "microchipNumber": "".join(rng.choice(string.digits) for _ in range(15)) if rng.random() < 0.4 else None,
            "locationLatitude": (spot := location(rng, layout))[0],
            "locationLongitude": spot[1],
            "lastSeenDate": seen.strftime("%Y-%m-%d"),
            "email": email,
            "phone": phone,
            "photoUrl": f"/images/pet-{n % 50}.jpg",
            "status": "MISSING" if rng.random() < 0.65 else "FOUND",
            "reward": "500 PLN" if rng.random() < 0.2 else None,
            "createdAt": created.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "updatedAt": updated.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        })
    return items


def encode(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def weak_etag(body):
    """Express-style weak ETag: W/"<length hex>-<base64 sha1, 27 chars>"."""
    digest = base64.b64encode(hashlib.sha1(body).digest()).decode("ascii")[:27]
    return f'W/"{len(body):x}-{digest}"'


def haversine_km(lat1, lng1, lat2, lng2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


class ParameterError(Exception):
    def __init__(self, field, message):
        super().__init__(message)
        self.field, self.message = field, message


def parse_number(raw, name):
    try:
        value = float(raw.strip())
    except ValueError:
        value = float("nan")
    if raw.strip() == "" or not math.isfinite(value):
        raise ParameterError(name, f"Parameter '{name}' must be a valid number")
    return value


class Store:
    def __init__(self, items, seed=1, layout="even"):
        self.seed, self.layout = seed, layout
        self.stats = {"list_calls": 0, "details_calls": 0, "not_modified": 0, "image_calls": 0}
        self.stats_lock = threading.Lock()
        self.cache_lock = threading.Lock()
        self.bumps = 0
        self.index(items, [encode(item) for item in items])

    def index(self, items, item_bodies):
        """Makes items (and their encoded bodies) the list: built aside, then swapped in one step."""
        by_id = {item["id"]: i for i, item in enumerate(items)}
        list_body = b'{"data":[' + b",".join(item_bodies) + b"]}"
        order = sorted(range(len(items)), key=lambda i: items[i]["locationLatitude"])
        lat_sorted = [items[i]["locationLatitude"] for i in order]
        with self.cache_lock:
            self.items, self.item_bodies, self.by_id = items, item_bodies, by_id
            self.list_body, self.list_etag = list_body, weak_etag(list_body)
            self.lat_sorted_idx, self.lat_sorted = order, lat_sorted
            self.located_cache = {}

    def add(self):
        """One new announcement at the head of the list (newest first, as the backend sends them)."""
        with self.stats_lock:
            self.bumps += 1
            number = len(self.items)
            created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            item = generate(1, self.seed * 1_000_003 + self.bumps, self.layout, first=number)[0]
            item["createdAt"] = item["updatedAt"] = created
            self.index([item] + self.items, [encode(item)] + self.item_bodies)
        return item["id"]

    def density(self, range_km, samples):
        """Items within range_km of `samples` uniformly random points of the box (seeded: repeatable)."""
        rng = random.Random(7)
        counts = []
        for _ in range(samples):
            lat, lng = rng.uniform(*LAT_RANGE), rng.uniform(*LNG_RANGE)
            counts.append(len(self.within(lat, lng, range_km)))
        counts.sort()
        at = lambda q: counts[min(len(counts) - 1, int(q * len(counts)))]
        empty = sum(1 for c in counts if c == 0) / len(counts)
        return {"median": at(0.5), "p10": at(0.1), "p90": at(0.9), "empty": round(empty, 3), "samples": samples,
                "range": range_km,
                "text": f"median {at(0.5)}, 10th percentile {at(0.1)}, 90th {at(0.9)}, none in {empty:.0%} of points"}

    def within(self, lat, lng, range_km):
        """Indexes of the items strictly closer than range_km, in insertion order."""
        with self.cache_lock:
            items, order, lat_sorted = self.items, self.lat_sorted_idx, self.lat_sorted
        # Great-circle distance >= R * |dlat| (radians): outside the band means outside the range.
        band = range_km / KM_PER_DEGREE * (1 + 1e-9) + 1e-9
        lo = bisect.bisect_left(lat_sorted, lat - band)
        hi = bisect.bisect_right(lat_sorted, lat + band)
        hits = [i for i in order[lo:hi]
                if haversine_km(lat, lng, items[i]["locationLatitude"], items[i]["locationLongitude"]) < range_km]
        hits.sort()
        return hits

    def count(self, key):
        with self.stats_lock:
            self.stats[key] += 1

    def located(self, lat, lng, range_km):
        """(body, etag) of the items strictly closer than range_km, in insertion order."""
        key = (lat, lng, range_km)
        with self.cache_lock:
            hit = self.located_cache.get(key)
        if hit:
            return hit
        bodies = self.item_bodies
        body = b'{"data":[' + b",".join(bodies[i] for i in self.within(lat, lng, range_km)) + b"]}"
        result = (body, weak_etag(body))
        with self.cache_lock:
            if len(self.located_cache) >= 4096:
                self.located_cache.clear()
            self.located_cache[key] = result
        return result


def new_request_id():
    return "".join(random.choice(REQUEST_ID_ALPHABET) for _ in range(10))


def etag_matches(if_none_match, etag):
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    strip = lambda tag: tag.strip()[2:] if tag.strip().startswith("W/") else tag.strip()
    return any(strip(tag) == strip(etag) for tag in if_none_match.split(","))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle + delayed ACK add
    # ~40 ms to every keep-alive response, and the upstream would look slow.
    disable_nagle_algorithm = True
    server_version = "bench-upstream"
    sys_version = ""
    store = None  # set in main
    photos = []  # photo bytes with their ETags, with --photos

    def log_message(self, format, *args):  # quiet
        pass

    def send_body(self, status, body, content_type="application/json; charset=utf-8", etag=None, request_id=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("request-id", request_id or new_request_id())
        self.send_header("Access-Control-Allow-Origin", "*")
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status, body, etag=None):
        """200/other with body; a 2xx whose ETag the client has becomes a 304 without a body."""
        request_id = new_request_id()
        if etag and 200 <= status < 300 and etag_matches(self.headers.get("If-None-Match"), etag):
            self.store.count("not_modified")
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("request-id", request_id)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_body(status, body, etag=etag, request_id=request_id)

    def send_error_json(self, status, code, message, field=None):
        request_id = new_request_id()
        error = {"code": code, "message": message, "requestId": request_id}
        if field:
            error["field"] = field
        body = encode({"error": error})
        self.send_body(status, body, etag=weak_etag(body), request_id=request_id)

    def do_HEAD(self):
        self.do_GET()

    phases = []  # (name, seconds) with --phases
    started = 0.0

    def phase(self):
        if not self.phases:
            return "ok"
        cycle = sum(seconds for _, seconds in self.phases)
        at = (time.monotonic() - self.started) % cycle
        for name, seconds in self.phases:
            if at < seconds:
                return name
            at -= seconds
        return "ok"

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        store = self.store
        if path == "/__stats":
            with store.stats_lock:
                body = encode(dict(store.stats, phase=self.phase()))
            self.send_body(200, body)
            return
        if path == "/__bump":
            with store.stats_lock:
                store.bumps += 1
                store.list_etag = weak_etag(store.list_body + b" " + str(store.bumps).encode())
            self.send_body(200, b'{"status":"bumped"}')
            return
        if path == "/__add":
            self.send_body(200, encode({"status": "added", "id": store.add()}))
            return
        if path == "/__density":
            query = parse_qs(parts.query)
            range_km = float(query.get("range", ["15"])[0])
            samples = int(query.get("samples", ["2000"])[0])
            self.send_body(200, encode(store.density(range_km, samples)))
            return
        if path == "/api/health":
            self.send_body(200, b'{"status":"ok"}')
            return
        phase = self.phase()
        if phase == "slow":
            time.sleep(self.slow_seconds)
        elif phase == "fail":
            self.send_error_json(503, "INTERNAL_SERVER_ERROR", "The service is failing (soak phase)")
            return
        if path in ("/api/v1/announcements", "/api/v1/announcements/"):
            store.count("list_calls")
            self.list(parse_qs(parts.query, keep_blank_values=True))
        elif path.startswith("/images/pet-") and path.endswith(".jpg") and self.photos:
            store.count("image_calls")
            number = path[len("/images/pet-"):-len(".jpg")]
            if not number.isdigit():
                self.send_error_json(404, "NOT_FOUND", f"Route GET {path} not found")
                return
            body, etag = self.photos[int(number) % len(self.photos)]
            if etag_matches(self.headers.get("If-None-Match"), etag):
                store.count("not_modified")
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "public, max-age=0")
            self.send_header("ETag", etag)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        elif path.startswith("/api/v1/announcements/"):
            store.count("details_calls")
            item_id = unquote(path[len("/api/v1/announcements/"):])
            index = store.by_id.get(item_id)
            if index is None:
                self.send_error_json(404, "NOT_FOUND", f"Announcement with id '{item_id}' not found")
            else:
                body = store.item_bodies[index]
                self.send_json(200, body, etag=weak_etag(body))
        else:
            self.send_error_json(404, "NOT_FOUND", f"Route GET {path} not found")

    def list(self, query):
        store = self.store
        raw_lat, raw_lng, raw_range = (query.get(k, [None])[0] for k in ("lat", "lng", "range"))
        try:
            lat = parse_number(raw_lat, "lat") if raw_lat is not None else None
            if lat is not None and not -90 <= lat <= 90:
                raise ParameterError("lat", "Parameter 'lat' must be between -90 and 90")
            lng = parse_number(raw_lng, "lng") if raw_lng is not None else None
            if lng is not None and not -180 <= lng <= 180:
                raise ParameterError("lng", "Parameter 'lng' must be between -180 and 180")
            range_km = 5
            if raw_range is not None:
                value = parse_number(raw_range, "range")
                if value != round(value):
                    raise ParameterError("range", "Parameter 'range' must be an integer")
                if value <= 0:
                    raise ParameterError("range", "Parameter 'range' must be greater than zero")
                range_km = int(value)
            if lat is not None and lng is None:
                raise ParameterError("lng", "Parameter 'lng' is required when 'lat' is provided")
            if lng is not None and lat is None:
                raise ParameterError("lat", "Parameter 'lat' is required when 'lng' is provided")
        except ParameterError as error:
            self.send_error_json(400, "INVALID_PARAMETER", error.message, field=error.field)
            return
        if lat is None:
            self.send_json(200, store.list_body, etag=store.list_etag)
        else:
            body, etag = store.located(lat, lng, range_km)
            self.send_json(200, body, etag=etag)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=38)
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--photos", help="folder of photo-N.jpg files served as /images/pet-K.jpg")
    parser.add_argument("--phases", default="", help='e.g. "ok:60,slow:30,fail:30" (seconds each, cycled)')
    parser.add_argument("--slow-seconds", type=float, default=3.0)
    parser.add_argument("--layout", choices=["even", "clustered"], default="even")
    args = parser.parse_args()
    Handler.phases = [(name, float(seconds)) for name, seconds in
                      (part.split(":") for part in args.phases.split(",") if part)]
    Handler.slow_seconds = args.slow_seconds
    Handler.started = time.monotonic()
    Handler.store = Store(generate(args.items, args.seed, args.layout), args.seed, args.layout)
    if args.photos:
        import os
        names = sorted((n for n in os.listdir(args.photos) if n.startswith("photo-") and n.endswith(".jpg")),
                       key=lambda n: int(n[len("photo-"):-len(".jpg")]))
        for name in names:
            with open(os.path.join(args.photos, name), "rb") as f:
                body = f.read()
            Handler.photos.append((body, '"' + hashlib.sha1(body).hexdigest() + '"'))
    server = Server((args.host, args.port), Handler)
    print(f"upstream: {args.items} items ({len(Handler.store.list_body)} bytes) on "
          f"http://{args.host}:{server.server_address[1]}", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
