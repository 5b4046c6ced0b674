"""Several replicas, one service (docs/scale-out.md): each test is one row of what a visitor does with two
replicas behind nginx (round robin, no affinity), and what must happen. Replica A and B are reached
directly where a row needs "the other replica"; nginx where any replica will do.

The rows assume the shared write store (`--database-url`); against a binary without it most fail, which
shows they test something.
"""
from __future__ import annotations

import json
import re
import threading
import time
import uuid

import requests

from conftest import (SEEN_CODES, TIMEOUT, YESTERDAY, Background, Stack, hidden_input, in_parallel, new_address,
                      valid_fields)

HELD_MS = 2500  # a create the upstream holds this long: a "slow answer"


# --- the same report sent twice ------------------------------------------------------------------------------

def test_a_reload_of_a_slow_report_on_the_other_replica_shows_the_same_report(stack: Stack):
    address = new_address()
    form = stack.form(stack.a, address)
    before = stack.counts()
    stack.create_delay(HELD_MS)

    first = Background(lambda: stack.post_report(stack.a, form, address))
    stack.wait_for_create_requests(before["createRequests"] + 1)
    # The visitor presses reload while A's create is still held upstream: the browser sends the POST
    # again, and this time nginx picks B.
    reload = stack.post_report(stack.b, form, address)
    original = first.result()
    stack.create_delay(0)
    later = stack.post_report(stack.b, form, address)

    assert original.status == 201, original
    pet_id, code = original.result
    assert pet_id and code
    assert reload.status == 200, reload
    assert reload.result == (pet_id, code)
    assert later.status == 200, later
    assert later.result == (pet_id, code)
    assert stack.counts()["created"] - before["created"] == 1


def test_a_double_click_reaching_both_replicas_at_once_makes_one_report(stack: Stack):
    address = new_address()
    form = stack.form(stack.nginx, address)
    before = stack.counts()
    stack.create_delay(500)

    answers = in_parallel(lambda: stack.post_report(stack.a, form, address),
                          lambda: stack.post_report(stack.b, form, address))

    assert sorted(answer.status for answer in answers) == [200, 201], answers
    results = {answer.result for answer in answers}
    assert len(results) == 1, results
    pet_id, code = results.pop()
    assert pet_id and code
    assert stack.counts()["created"] - before["created"] == 1


def test_after_the_replica_that_made_the_report_dies_a_reload_on_the_other_shows_it(stack: Stack):
    address = new_address()
    form = stack.form(stack.nginx, address)
    before = stack.counts()
    made = stack.post_report(stack.nginx, form, address)
    assert made.status == 201, made

    stack.kill_replica(stack.replica_of(made))
    _, other = stack.other_than(made)
    reload = stack.post_report(other, form, address)

    assert reload.status == 200, reload
    assert reload.result == made.result
    assert stack.counts()["created"] - before["created"] == 1


def test_a_replica_dying_while_its_create_is_held_never_leads_to_a_second_report(stack: Stack):
    address = new_address()
    form = stack.form(stack.a, address)
    before = stack.counts()
    stack.create_delay(HELD_MS)
    first = Background(lambda: stack.post_report(stack.a, form, address, timeout=TIMEOUT))
    stack.wait_for_create_requests(before["createRequests"] + 1)

    stack.kill_replica("a")
    try:
        first.result()  # A's connection is cut: the visitor never sees that answer
    except requests.RequestException:
        pass
    reload = stack.post_report(stack.b, form, address)
    stack.create_delay(0)
    # The held create finishes upstream whatever happened to A.
    deadline = time.monotonic() + HELD_MS / 1000 + 10
    while stack.counts()["created"] - before["created"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)

    # Either the first result (if the replica recorded it) or "cannot confirm", never a new report.
    assert reload.status in (200, 409), reload
    if reload.status == 200:
        assert all(reload.result)
    assert stack.counts()["created"] - before["created"] == 1
    assert stack.counts()["createRequests"] - before["createRequests"] == 1


# --- a photo kept by one replica, used on the other --------------------------------------------------------

def test_a_photo_kept_by_one_replica_is_used_by_the_other(stack: Stack):
    address = new_address()
    form = stack.form(stack.nginx, address)
    before = stack.counts()
    mistaken = stack.post_report(stack.nginx, {**form, "species": ""}, address)
    assert mistaken.status == 422, mistaken
    kept = hidden_input(mistaken.text, "keptPhoto")
    assert kept, "the 422 page keeps the photo"
    submission = hidden_input(mistaken.text, "submission") or form["submission"]

    _, other = stack.other_than(mistaken)
    corrected = stack.post_report(other, {**form, "submission": submission, "keptPhoto": kept}, address, photo=False)

    assert corrected.status == 201, corrected
    pet_id, code = corrected.result
    assert pet_id and code
    assert stack.counts()["created"] - before["created"] == 1
    details = requests.get(f"{stack.upstream}/api/v1/announcements/{pet_id}", timeout=10).json()
    assert details.get("photoUrl"), "the kept photo reached the upstream"


# --- the other replica sees a new report at once ------------------------------------------------------------

FRESHNESS_PATHS = ("/pets", "/map", "/pets.atom", "/api/v1/announcements")


def test_a_new_report_is_on_the_other_replicas_pages_within_a_second(stack: Stack):
    address = new_address()
    form = stack.form(stack.a, address)
    made = stack.post_report(stack.a, form, address)
    assert made.status == 201, made
    published = time.monotonic()
    pet_id, _ = made.result
    assert pet_id

    # Poll every 20 ms; the bound (35 s, past the 30 s TTL) only ends the loop, the delay is recorded.
    delays: dict[str, float] = {}
    pending = set(FRESHNESS_PATHS)
    deadline = published + 35
    while pending and time.monotonic() < deadline:
        for path in sorted(pending):
            answer = requests.get(stack.b + path, headers={"X-Forwarded-For": address}, timeout=10)
            if answer.status_code == 200 and pet_id in answer.text:
                delays[path] = time.monotonic() - published
                pending.discard(path)
        time.sleep(0.02)
    recorded = ", ".join(f"{path} {delays[path]:.3f} s" if path in delays else f"{path} not seen" for path in FRESHNESS_PATHS)
    # scripts/scale-out.sh prints this line before pytest's summary.
    (stack.work / "freshness.txt").write_text(f"new report seen on the other replica after: {recorded}\n")
    # Control: the replica that made it lists it (else the pages above could never show it).
    assert pet_id in requests.get(stack.a + "/api/v1/announcements", timeout=10).text
    assert not pending, f"never seen on B: {sorted(pending)}"
    assert max(delays.values()) <= 1.0, delays


# --- limits that hold across replicas ------------------------------------------------------------------------

def test_wrong_management_codes_are_limited_whichever_replica_gets_them(stack: Stack):
    pet_id, right = stack.upstream_create()
    wrong = "000000" if right != "000000" else "111111"
    address = new_address()
    before = stack.counts()

    # Through nginx, which alternates between the replicas (checked with the answers' X-Scale-Replica).
    answers = [stack.post_code(stack.nginx, pet_id, wrong, address) for _ in range(5)]
    statuses = [answer.status for answer in answers]

    assert {stack.replica_of(answer) for answer in answers} == {"a", "b"}
    assert statuses[:4] == [403] * 4, statuses
    assert statuses[4] == 429, statuses
    assert stack.counts()["photoRequests"] - before["photoRequests"] == 4


def test_the_report_limit_counts_reports_on_both_replicas(stack: Stack):
    address = new_address()
    before = stack.counts()
    # Forms first, then the four POSTs in a row through nginx, which alternates them between the replicas.
    forms = [stack.form(stack.a, address) for _ in range(4)]
    answers = [stack.post_report(stack.nginx, form, address) for form in forms]

    assert {stack.replica_of(answer) for answer in answers} == {"a", "b"}
    assert [answer.status for answer in answers] == [201, 201, 201, 429], answers
    assert int(answers[3].headers.get("Retry-After", "0")) > 0
    assert stack.counts()["created"] - before["created"] == 3


# --- the API's Idempotency-Key --------------------------------------------------------------------------------

def api_report(**changes) -> dict:
    body = {"species": "DOG", "sex": "MALE", "petName": "Azor", "locationLatitude": 52.2297,
            "locationLongitude": 21.0122, "email": "owner@example.com", "lastSeenDate": YESTERDAY, "status": "MISSING",
            "description": "Brown dog " + uuid.uuid4().hex[:8]}
    body.update(changes)
    return body


def test_the_same_idempotency_key_on_both_replicas_gives_the_same_answer(stack: Stack):
    key = str(uuid.uuid4())
    body = api_report()
    before = stack.counts()

    first = stack.api_create(stack.a, body, new_address(), key)
    again = stack.api_create(stack.b, body, new_address(), key)
    other_body = stack.api_create(stack.b, api_report(petName="Burek"), new_address(), key)

    assert first.status == 201, first
    code = json.loads(first.text).get("managementPassword")
    assert code, "the 201 body carries the management code"
    SEEN_CODES.add(code)
    assert again.status == 201, again
    assert again.text == first.text
    assert other_body.status == 422, other_body
    assert stack.counts()["created"] - before["created"] == 1


def test_the_same_idempotency_key_at_once_on_both_replicas_makes_one_report(stack: Stack):
    key = str(uuid.uuid4())
    body = api_report()
    before = stack.counts()
    stack.create_delay(HELD_MS)

    answers = in_parallel(lambda: stack.api_create(stack.a, body, new_address(), key),
                          lambda: stack.api_create(stack.b, body, new_address(), key))

    assert sorted(answer.status for answer in answers) == [201, 409], answers
    assert stack.counts()["createRequests"] - before["createRequests"] == 1


# --- the database down or hung ---------------------------------------------------------------------------------

class ReadLoop:
    """GETs on both replicas in a loop (bounded) while a row breaks the database: every status recorded."""

    PATHS = ("/pets", "/api/v1/announcements", "/pets.atom", "/healthz")

    def __init__(self, stack: Stack):
        self.statuses: list[tuple[str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(stack,), daemon=True)
        self._thread.start()

    def _run(self, stack: Stack):
        deadline = time.monotonic() + 120
        i = 0
        while not self._stop.is_set() and time.monotonic() < deadline:
            base = (stack.a, stack.b)[i % 2]
            path = self.PATHS[i % len(self.PATHS)]
            try:
                status = requests.get(base + path, timeout=10).status_code
            except requests.RequestException as error:
                status = -1
                print("read failed:", base + path, error)
            self.statuses.append((base + path, status))
            i += 1
            time.sleep(0.02)

    def stop(self) -> list[tuple[str, int]]:
        self._stop.set()
        self._thread.join(timeout=20)
        return self.statuses


def assert_refused_with_the_form_back(stack: Stack, base: str, before_created: int):
    address = new_address()
    form = stack.form(base, address)
    fields = {**form, "petName": "Filemon <b>&", "description": "Black cat, white paws " + uuid.uuid4().hex[:6],
              "phone": "+48 600 100 200"}
    answer = stack.post_report(base, fields, address, timeout=15)
    assert answer.status == 503, answer
    assert int(answer.headers.get("Retry-After", "0")) > 0, answer.headers
    assert answer.elapsed <= 2.5 + 0.5, f"answered after {answer.elapsed:.2f} s"
    for name in ("petName", "description", "phone", "email", "lastSeenDate", "locationLatitude", "locationLongitude"):
        sent = fields[name].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert sent in answer.text, f"{name} not back in the form"
    assert stack.counts()["created"] == before_created, "nothing may be created upstream"


def writes_work_again(stack: Stack, within: float = 20) -> bool:
    """A report through each replica succeeds again (bounded retries while pools reconnect)."""
    deadline = time.monotonic() + within
    pending = {"a": stack.a, "b": stack.b}
    while pending and time.monotonic() < deadline:
        for name, base in list(pending.items()):
            address = new_address()
            answer = stack.post_report(base, stack.form(base, address), address, timeout=15)
            if answer.status == 201:
                del pending[name]
        time.sleep(0.5)
    return not pending


def test_with_the_database_killed_reads_work_and_writes_refuse_until_it_is_back(stack: Stack):
    reads = ReadLoop(stack)
    time.sleep(0.5)
    before = stack.counts()
    try:
        stack.postgres("kill")
        time.sleep(0.3)
        assert_refused_with_the_form_back(stack, stack.a, before["created"])
        assert_refused_with_the_form_back(stack, stack.b, before["created"])
    finally:
        stack.postgres("start")
    statuses = reads.stop()
    assert statuses, "the read loop ran"
    assert all(status == 200 for _, status in statuses), [s for s in statuses if s[1] != 200][:10]
    assert writes_work_again(stack), "writes did not come back after the restart, without restarting replicas"


def test_with_the_database_hung_reads_work_and_writes_refuse_until_it_resumes(stack: Stack):
    reads = ReadLoop(stack)
    time.sleep(0.5)
    before = stack.counts()
    try:
        stack.postgres("hang")
        assert_refused_with_the_form_back(stack, stack.a, before["created"])
        assert_refused_with_the_form_back(stack, stack.b, before["created"])
    finally:
        stack.postgres("resume")
    statuses = reads.stop()
    assert statuses, "the read loop ran"
    assert all(status == 200 for _, status in statuses), [s for s in statuses if s[1] != 200][:10]
    assert writes_work_again(stack), "writes did not come back after SIGCONT, without restarting replicas"


def test_a_report_held_upstream_when_the_database_dies_is_shown_and_never_made_twice(stack: Stack):
    address = new_address()
    form = stack.form(stack.a, address)
    before = stack.counts()
    stack.create_delay(HELD_MS)
    first = Background(lambda: stack.post_report(stack.a, form, address))
    stack.wait_for_create_requests(before["createRequests"] + 1)
    try:
        # The create is with the upstream (the submission recorded as "sending"); the database dies.
        stack.postgres("kill")
        made = first.result()
    finally:
        stack.postgres("start")
    stack.create_delay(0)

    # Made upstream, so the visitor sees the result and the code, database or not.
    assert made.status == 201, made
    pet_id, code = made.result
    assert pet_id and code
    # Then a resubmit on the other replica, once the database is back: the first result or "cannot
    # confirm", never a second report (retried for up to 15 s while the result is being recorded).
    deadline = time.monotonic() + 15
    while True:
        again = stack.post_report(stack.b, form, address)
        if again.status in (200, 409) or time.monotonic() > deadline:
            break
        assert again.status == 503, again
        time.sleep(0.5)
    assert again.status in (200, 409), again
    if again.status == 200:
        assert again.result == (pet_id, code)
    assert stack.counts()["created"] - before["created"] == 1


# --- at rest --------------------------------------------------------------------------------------------------

def test_the_database_holds_no_management_code_in_clear(stack: Stack):
    # A report of its own, so the check never depends on which rows ran before.
    address = new_address()
    made = stack.post_report(stack.nginx, stack.form(stack.nginx, address), address)
    assert made.status == 201, made
    dump = stack.pg_dump().decode("utf-8", "replace")
    tables = re.findall(r"CREATE (?:UNLOGGED )?TABLE (\S+)", dump)
    assert tables, "the shared store made no table: nothing was stored in PostgreSQL"
    rows = sum(int(stack.psql(f"SELECT count(*) FROM {table}").strip()) for table in tables)
    assert rows > 0, "the store's tables are empty"
    assert SEEN_CODES, "no management code was seen"
    leaked = sorted(code for code in SEEN_CODES if re.search(r"(?<!\d)" + code + r"(?!\d)", dump))
    assert not leaked, f"{len(leaked)} management code(s) in clear in pg_dump"
