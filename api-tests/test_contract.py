"""schemathesis against the running server on its demo upstream (docs/openapi.md): every check
(server errors, responses that do not match the schema, undocumented statuses, content types and
headers, schema-valid requests refused, schema-invalid requests accepted, ...), on every operation of
the document the server serves.

Bounded: a fixed seed and a fixed number of examples per operation, so a run takes about a minute
and a failure found once is found again. A failure fails this test with schemathesis's report."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

HERE = Path(__file__).resolve().parent


def test_schemathesis_finds_nothing(server):
    st = Path(sys.executable).parent / "st"
    examples = os.environ.get("API_CONTRACT_EXAMPLES", "50")
    result = subprocess.run(
        [
            str(st), "run", server.base + "/api/v1/openapi.json",
            "--checks", "all",
            # Every check, schema-invalid data refused too: the document admits what the server takes
            # (empty filters and empty optional fields, unknown query parameters); docs/openapi.md
            # "schemathesis" says where it stays wider than the document can say.
            "--max-examples", examples,
            "--seed", os.environ.get("API_CONTRACT_SEED", "20261127"),
            "--workers", "1",
            "--request-timeout", "20",
            "--max-failures", "20",
            "--no-color",
        ],
        cwd=HERE, capture_output=True, text=True, timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-12000:]
