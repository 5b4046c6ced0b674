"""The stack scripts/scale-out.sh started (docs/scale-out.md): nginx in front of replicas A and B, the demo
upstream with its test hooks, a throwaway PostgreSQL; and the report form and API calls the rows send.

Every address is loopback. Every request has a timeout, every wait a bound. Each test reports from
client addresses of its own (X-Forwarded-For, trusted from 127.0.0.1), so limits never leak between rows.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parent.parent
PHOTO = REPO / "Tests" / "WebAppTests" / "Fixtures" / "photos" / "oriented-gps.jpg"
POSTGRES_SH = REPO / "scripts" / "lib" / "postgres.sh"
YESTERDAY = (date.today() - timedelta(days=1)).isoformat()
TIMEOUT = 60  # seconds, any one request (a held create takes a few)

# Every management code a row saw: none may be in the database in clear (the last row).
SEEN_CODES: set[str] = set()

_addresses = itertools.count(1)


def new_address() -> str:
    """A client address no other test uses (TEST-NET-2, 198.51.100.0/24, then 203.0.113.0/24)."""
    n = next(_addresses)
    return f"198.51.100.{n}" if n < 255 else f"203.0.113.{n - 254}"


def valid_fields(**changes: str | None) -> dict[str, str]:
    """A valid report (a found cat in Kraków, yesterday); `changes` replace, add or (None) remove fields."""
    fields = {
        "status": "FOUND", "species": "CAT", "sex": "UNKNOWN", "lastSeenDate": YESTERDAY,
        "locationLatitude": "50.0614", "locationLongitude": "19.9366", "email": "finder@example.com",
        "petName": "Mruczek", "description": "Grey cat with a red collar " + uuid.uuid4().hex[:8],
    }
    fields.update(changes)
    return {name: value for name, value in fields.items() if value is not None}


def hidden_input(html: str, name: str) -> str | None:
    match = re.search(r'<input[^>]*name="' + re.escape(name) + r'"[^>]*>', html)
    if not match:
        return None
    value = re.search(r'value="([^"]*)"', match.group(0))
    return value.group(1) if value else None


def result_of(html: str) -> tuple[str | None, str | None]:
    """(pet id, management code) of a result page; None where the page has none."""
    pet = re.search(r'data-testid="report-result"[^>]*data-pet-id="([^"]+)"', html)
    code = re.search(r'data-testid="management-password"[^>]*>\s*(\d{6})\s*<', html)
    if code:
        SEEN_CODES.add(code.group(1))
    return (pet.group(1) if pet else None, code.group(1) if code else None)


class Answer:
    def __init__(self, response: requests.Response, elapsed: float):
        self.status = response.status_code
        self.text = response.text
        self.headers = response.headers
        self.elapsed = elapsed
        self.replica = response.headers.get("X-Scale-Replica")

    @property
    def result(self) -> tuple[str | None, str | None]:
        return result_of(self.text)

    def __repr__(self) -> str:
        return f"<{self.status} via {self.replica or 'direct'} in {self.elapsed:.2f} s>"


class Stack:
    def __init__(self) -> None:
        env = os.environ
        self.nginx = env["SCALE_NGINX"]
        self.replicas = {"a": env["SCALE_A"], "b": env["SCALE_B"]}
        self.upstream = env["SCALE_UPSTREAM"]
        self.pg_folder = env["SCALE_PG_FOLDER"]
        self.work = Path(env["SCALE_WORK"])
        self.shared_store = env.get("SCALE_SHARED_STORE") == "1"
        self._lock = threading.Lock()

    @property
    def a(self) -> str:
        return self.replicas["a"]

    @property
    def b(self) -> str:
        return self.replicas["b"]

    def replica_of(self, answer: "Answer") -> str:
        """The name ("a" or "b") of the replica that answered through nginx (its X-Scale-Replica header)."""
        assert answer.replica, "not an answer through nginx"
        for name, base in self.replicas.items():
            if base.endswith("//" + answer.replica):
                return name
        raise AssertionError(f"unknown replica {answer.replica}")

    def other_than(self, answer: "Answer") -> tuple[str, str]:
        """(name, base URL) of the replica that did NOT answer `answer` (which came through nginx)."""
        name = "b" if self.replica_of(answer) == "a" else "a"
        return name, self.replicas[name]

    # The report form, as a browser sends it.

    def form(self, base: str, address: str) -> dict[str, str]:
        """GET /report: the valid fields and the form's own `submission` reference."""
        page = requests.get(base + "/report", headers={"X-Forwarded-For": address}, timeout=TIMEOUT)
        assert page.status_code == 200, page.status_code
        submission = hidden_input(page.text, "submission")
        assert submission, "the form has no submission reference"
        return valid_fields(submission=submission)

    def post_report(self, base: str, fields: dict[str, str], address: str, photo: bool = True,
                    timeout: float = TIMEOUT, path: str = "/report") -> Answer:
        files = {"photo": ("dog.jpg", PHOTO.read_bytes(), "image/jpeg")} if photo else None
        data = list(fields.items())
        if files is None:
            # Still multipart, as the browser sends a form whose file input is empty.
            files = {"photo": ("", b"", "application/octet-stream")}
        started = time.monotonic()
        response = requests.post(base + path, data=data, files=files, timeout=timeout,
                                 headers={"Origin": base, "X-Forwarded-For": address})
        return Answer(response, time.monotonic() - started)

    def post_code(self, base: str, pet_id: str, code: str, address: str) -> Answer:
        """POST /report/photo: a photo with a management code (the retry form)."""
        return self.post_report(base, {"id": pet_id, "managementPassword": code}, address, path="/report/photo")

    def api_create(self, base: str, body: dict, address: str, key: str | None = None) -> Answer:
        headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
        if key is not None:
            headers["Idempotency-Key"] = f'"{key}"'
        started = time.monotonic()
        response = requests.post(base + "/api/v1/announcements", data=json.dumps(body), headers=headers, timeout=TIMEOUT)
        return Answer(response, time.monotonic() - started)

    # The demo upstream's test hooks (docs/demo-upstream-writes.md "Test hooks").

    def counts(self) -> dict[str, int]:
        response = requests.get(self.upstream + "/__demo/counts", timeout=10)
        response.raise_for_status()
        return response.json()

    def create_delay(self, milliseconds: int) -> None:
        requests.get(self.upstream + f"/__demo/create-delay?ms={milliseconds}", timeout=10).raise_for_status()

    def wait_for_create_requests(self, at_least: int, within: float = 20) -> None:
        """Until the upstream has received `at_least` creates in all (bounded)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.counts()["createRequests"] >= at_least:
                return
            time.sleep(0.01)
        raise AssertionError(f"the upstream did not receive create number {at_least} within {within} s")

    def upstream_create(self) -> tuple[str, str]:
        """An announcement made straight at the upstream: (id, management code)."""
        body = {"species": "DOG", "sex": "MALE", "locationLatitude": 52.2297, "locationLongitude": 21.0122,
                "email": "owner@example.com", "lastSeenDate": YESTERDAY, "status": "MISSING"}
        response = requests.post(self.upstream + "/api/v1/announcements", json=body, timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        made = response.json()
        return made["id"], made["managementPassword"]

    # PostgreSQL (scripts/lib/postgres.sh) and the replicas' processes.

    def postgres(self, command: str) -> None:
        subprocess.run(["bash", str(POSTGRES_SH), command, self.pg_folder], check=True, timeout=60,
                       stdout=subprocess.DEVNULL)

    def psql(self, sql: str) -> str:
        return subprocess.run(["psql", "-h", self.pg_folder, "-U", "postgres", "-d", "petspot", "-qAt", "-c", sql],
                              check=True, timeout=60, capture_output=True, text=True).stdout

    def pg_dump(self) -> bytes:
        return subprocess.run(["pg_dump", "-h", self.pg_folder, "-U", "postgres", "petspot"], check=True, timeout=120,
                              capture_output=True).stdout

    def _pid_file(self, name: str) -> Path:
        return self.work / "pids" / f"replica-{name}.pid"

    def kill_replica(self, name: str) -> None:
        """kill -9 of replica `name`, as a crashed pod; returns once it is gone (at most 10 s)."""
        pid = int(self._pid_file(name).read_text())
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            try:
                if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
                    return  # a zombie of the script: dead, not yet reaped
            except OSError:
                return
            time.sleep(0.1)
        raise AssertionError(f"replica {name} ({pid}) did not die")

    def start_replica(self, name: str) -> None:
        """Starts replica `name` again with its settings and port; waits for /healthz (at most 30 s)."""
        args = (self.work / f"replica-{name}.args").read_text().splitlines()
        with open(self.work / f"replica-{name}.log", "ab") as log:
            process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True)
        self._pid_file(name).write_text(str(process.pid))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(self.replicas[name] + "/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"replica {name} did not start again")

    def replica_alive(self, name: str) -> bool:
        try:
            return requests.get(self.replicas[name] + "/healthz", timeout=2).status_code == 200
        except requests.RequestException:
            return False


@pytest.fixture(scope="session")
def stack() -> Stack:
    return Stack()


@pytest.fixture(autouse=True)
def steady(stack: Stack):
    """Every row starts with both replicas up, the database running and no create delay, whatever the
    row before did."""
    stack.create_delay(0)
    yield
    stack.create_delay(0)
    stack.postgres("resume")
    for name in ("a", "b"):
        if not stack.replica_alive(name):
            stack.kill_replica(name)
            stack.start_replica(name)


def in_parallel(*calls):
    """Runs the calls at once (released together by a barrier) and returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT + 15)
    if errors:
        raise errors[0]
    assert all(not thread.is_alive() for thread in threads), "a parallel call did not end"
    return results


class Background:
    """A call started now and collected later (a visitor's first, slow POST)."""

    def __init__(self, call):
        self._result = None
        self._error = None
        self._thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self._thread.start()

    def _run(self, call):
        try:
            self._result = call()
        except Exception as error:  # noqa: BLE001 - raised by result()
            self._error = error

    def result(self, timeout: float = TIMEOUT + 15):
        self._thread.join(timeout=timeout)
        assert not self._thread.is_alive(), "the background call did not end"
        if self._error:
            raise self._error
        return self._result
