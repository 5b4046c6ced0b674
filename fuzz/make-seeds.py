#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora into OUT/<target>/ (docs/testing.md "Fuzzing and sanitizers"), derived from the test
fixtures (Tests/*/Fixtures/*.json) and Public/, so the seeds follow the fixtures with nothing
committed twice:

  json, announcements   every fixture body as it is, each item alone, and each item as a details body
  query                 the query strings pages and links use, with the fixtures' coordinates
  path                  every route with the fixtures' ids and photo paths, every file of Public/
  reward, dates         the fixtures' reward, lastSeenDate, createdAt and updatedAt values

and a libFuzzer dictionary per target, OUT/<target>.dict: the fixtures' keys and short values, the
query parameter names and route prefixes, so mutations can splice in whole words.

Usage: fuzz/make-seeds.py OUT   (run from the repository root)
"""
import glob
import hashlib
import json
import os
import sys


def write(out, target, content):
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16]), "wb") as seed:
        seed.write(data)


def write_dictionary(out, target, tokens):
    def escaped(token):
        return "".join(chr(byte) if 0x20 <= byte < 0x7F and byte not in b'"\\' else "\\x%02X" % byte
                       for byte in token.encode("utf-8"))
    with open(os.path.join(out, target + ".dict"), "w") as dictionary:
        for token in sorted(set(tokens)):
            dictionary.write('"%s"\n' % escaped(token))


def items_of(document):
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        for key in ("data", "announcements"):
            if isinstance(document.get(key), list):
                return document[key]
        return [document.get("data", document)]
    return []


def main(out):
    bodies = sorted(glob.glob("Tests/*/Fixtures/*.json"))
    items = []
    for path in bodies:
        with open(path, "rb") as body:
            raw = body.read()
        write(out, "json", raw)
        write(out, "announcements", raw)
        items += [item for item in items_of(json.loads(raw)) if isinstance(item, dict)]

    ids, coordinates, photos, words = set(), set(), set(), set()
    for item in items:
        for key, value in item.items():
            words.add(json.dumps(key))
            if isinstance(value, str) and len(value) <= 12:
                words.add(json.dumps(value, ensure_ascii=False))
            elif isinstance(value, dict):
                words.update(json.dumps(inner) for inner in value)
        text = json.dumps(item, ensure_ascii=False)
        write(out, "announcements", text)
        write(out, "announcements", '{"data":[' + text + "]}")
        write(out, "json", text)
        if item.get("id") is not None:
            ids.add(str(item["id"]))
        for key in ("reward",):
            if item.get(key) is not None:
                write(out, "reward", str(item[key]))
        for key in ("lastSeenDate", "createdAt", "updatedAt"):
            if item.get(key) is not None:
                write(out, "dates", str(item[key]))
        for lat, lng in (("locationLatitude", "locationLongitude"), ("latitude", "longitude")):
            if isinstance(item.get(lat), (int, float)) and isinstance(item.get(lng), (int, float)):
                coordinates.add((item[lat], item[lng]))
        if isinstance(item.get("photoUrl"), str) and item["photoUrl"].startswith("/images/"):
            photos.add(item["photoUrl"])

    for text in ("1,500.50 PLN", "$300", "300zł", "12,50 €", "PLN 1500", "0.5"):
        write(out, "reward", text)
    for text in ("2024-02-29", "2025-11-18 10:00:00", "2025-11-18T11:00:00.5+01:00", "2025-11-18T10:00:00-0130"):
        write(out, "dates", text)

    write(out, "query", "")
    for query in ("location=denied", "status=missing&species=cat&sort=oldest&page=2", "species=DOG&status=found",
                  "range=%2B15&page=100000", "sort=nearest"):
        write(out, "query", query)
    for lat, lng in sorted(coordinates)[:20]:
        write(out, "query", f"lat={lat}&lng={lng}")
        write(out, "query", f"lat={lat}&lng={lng}&range=15&sort=nearest&status=missing&location=denied")

    for path in ("/", "/pets", "/pets/", "/lost-pets", "/api/v1/announcements", "/healthz", "/readyz", "/metrics",
                 "/favicon.ico", "/static/%2e%2e/Package.swift", "/static/css//site.css", "/pets/a%2Fb%20c"):
        write(out, "path", path)
    for identifier in sorted(ids)[:20]:
        for prefix in ("/pets/", "/lost-pets/", "/api/v1/announcements/"):
            write(out, "path", prefix + identifier)
    for photo in sorted(photos)[:20]:
        write(out, "path", photo)
    # report: API bodies (valid, with nulls, mistyped) and the same reports as form lines (name=value).
    report = {"petName": "Reksio", "species": "DOG", "sex": "MALE", "age": 3, "description": "Black, white paw",
              "microchipNumber": "12345-67890-12345", "locationLatitude": 52.2297, "locationLongitude": 21.0122,
              "email": "owner@example.com", "phone": "+48 600 100 200", "lastSeenDate": "2025-11-20",
              "status": "MISSING", "reward": "500 PLN"}
    write(out, "report", json.dumps(report, ensure_ascii=False))
    write(out, "report", json.dumps(dict(report, breed=None, reward=None, phone=None, status="FOUND", sex="UNKNOWN")))
    write(out, "report", json.dumps(dict(report, age="3", email=5, extra=True)))
    write(out, "report", "\n".join(f"{key}={value}" for key, value in report.items()))
    write(out, "report", "species=cat\nsex=female\nage=5.0\nlocationLatitude=50,06\nlocationLongitude=19.93\n"
                         "phone=1\nlastSeenDate=2025-11-26\nstatus=found\ndescription=  \u2028 </script>")
    write_dictionary(out, "report", [json.dumps(key) for key in report] + [key + "=" for key in report] + [
        "null", '""', "MISSING", "FOUND", "UNKNOWN", "DOG", "CAT", "BIRD", "RABBIT", "OTHER", "MALE", "FEMALE",
        "2025-11-25", "2025-11-26", "2025-11-27", "2024-02-29", "1e400", "-0.0", "90", "-180.0000001", "40", "41",
        "@", "PLN", "zł", "\\u0000", "\n"])
    # multipart: form bodies with boundary "pb" as browsers send the report form (text fields, a file, an empty file input).
    part = lambda name, value: f'--pb\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
    filepart = lambda name, filename, data: (f'--pb\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                                             f'Content-Type: image/jpeg\r\n\r\n{data}\r\n')
    write(out, "multipart", "".join(part(key, value) for key, value in report.items()) + filepart("photo", "dog.jpg", "\xff\xd8\xff" * 40)
          + "--pb--\r\n")
    write(out, "multipart", part("a", "1") + filepart("photo", "", "") + "--pb--\r\n")
    write(out, "multipart", part("description", "Zażółć gęślą jaźń " * 50) + "--pb--\r\n")
    write(out, "multipart", part("a", "1") + part("a", "2") + filepart("f", "x", "y") + filepart("f", "z", "") + "--pb--\r\n")
    write_dictionary(out, "multipart", ["--pb", "--pb--", "\r\n", "\r\n\r\n", "Content-Disposition: form-data; ", 'name="',
                                        '"; filename="', "Content-Type: ", "Content-Transfer-Encoding: ", "\"", ";"])
    write_dictionary(out, "json", list(words) + ["null", "true", "false", "\\u00e9", "\\ud83d\\ude00", "1e400", "-0.5E-3"])
    write_dictionary(out, "announcements", list(words) + ['"data"', '"announcements"', '"location"', '"locationRadius"',
                                                         "null", "1e400", '"2024-02-29"', '"T00:00:00Z"'])
    write_dictionary(out, "query", ["lat=", "lng=", "range=", "location=denied", "status=", "species=", "sort=", "page=",
                                    "nearest", "oldest", "missing", "found", "closed", "dog", "cat", "&", "%2B", "%20", "e-5"])
    write_dictionary(out, "path", ["/static/", "/pets/", "/lost-pets/", "/images/", "/api/v1/announcements", "/healthz",
                                   "%2e", "%2F", "%00", "..", "//", "\\", "css/site.css", "favicon.svg"])
    write_dictionary(out, "reward", ["PLN", "zł", "€", "$", "EUR", ",", ".", "000", "e3"])
    write_dictionary(out, "dates", ["T", "Z", "+01:00", "-0130", ".000", " ", "-02-29", "9999-12-31", "0001-01-01"])
    for root, _, files in os.walk("Public"):
        for name in files:
            write(out, "path", "/static/" + os.path.relpath(os.path.join(root, name), "Public"))


if __name__ == "__main__":
    main(sys.argv[1])
