"""schemathesis against the running server on its demo upstream (docs/openapi.md): every check
(server errors, responses that do not match the schema, undocumented statuses, content types and
headers, schema-valid requests refused, ...), on every operation of the document the server serves.

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
            # The one check left out: schema-invalid data refused. The server is lenient where the
            # document cannot say so (any letter case in `species`, spaces and dashes in a microchip
            # number, any past day, unknown query parameters ignored): docs/openapi.md.
            "--exclude-checks", "negative_data_rejection",
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
