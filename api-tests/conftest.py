"""The real `petspot-web` binary ($PETSPOT_BIN) on a free loopback port with its embedded demo
upstream, for the API contract checks (docs/openapi.md). No report limits: schemathesis makes many
reports, which the demo keeps in memory."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *extra: str) -> None:
        binary = Path(os.environ.get("PETSPOT_BIN", ".build/debug/petspot-web"))
        if not binary.is_absolute():
            binary = REPO / binary
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        log_dir = os.environ.get("API_TESTS_TMP", "/tmp")
        self.log = open(os.path.join(log_dir, f"petspot-web-api-{self.port}.log"), "wb")
        # Tiles from a closed loopback port: no check here asks for one, and none may leave the machine.
        self.process = subprocess.Popen(
            [str(binary), "--host", "127.0.0.1", "--port", str(self.port),
             "--tile-url", "http://127.0.0.1:9/{z}/{x}/{y}.png", *extra],
            cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"petspot-web exited with {self.process.returncode}; see {self.log.name}")
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=2):
                    break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("petspot-web was not ready within 30 s")
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()


@pytest.fixture(scope="session")
def server():
    s = Server("--report-limit", "0", "--api-report-limit", "0")
    yield s
    s.stop()
