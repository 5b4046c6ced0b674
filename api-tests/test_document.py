"""The served OpenAPI document (docs/openapi.md): what /api/v1/openapi.json gives is the committed
JSON form of docs/openapi.yaml, a valid OpenAPI 3.1 document, and cacheable."""

import json
import urllib.request

import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from conftest import REPO


def fetch(server, headers=None):
    request = urllib.request.Request(server.base + "/api/v1/openapi.json", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_served_document_is_the_yaml_document(server):
    status, headers, body = fetch(server)
    assert status == 200
    assert headers["Content-Type"].startswith("application/json")
    served = json.loads(body)
    with open(REPO / "docs/openapi.yaml", encoding="utf-8") as f:
        assert served == yaml.safe_load(f)


def test_the_served_document_is_valid_openapi_3_1(server):
    _, _, body = fetch(server)
    document = json.loads(body)
    assert document["openapi"].startswith("3.1")
    try:
        validate(document)
    except OpenAPIValidationError as error:  # pragma: no cover - the message is the point
        raise AssertionError(f"openapi-spec-validator: {error}") from error


def test_the_served_document_is_cacheable_and_revalidates_with_its_etag(server):
    status, headers, _ = fetch(server)
    assert status == 200
    assert "max-age=" in headers["Cache-Control"] and "public" in headers["Cache-Control"]
    etag = headers["ETag"]
    again, _, body = fetch(server, {"If-None-Match": etag})
    assert again == 304 and body == b""
