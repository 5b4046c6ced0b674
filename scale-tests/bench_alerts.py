"""The alert rows of the benchmark (docs/alerts.md, docs/performance.md "E-mail alerts"), run by
`SCALE_BENCH=alerts scripts/scale-out.sh` (and `ALERTS=1 scripts/bench.sh`) on its stack: two replicas,
nginx, PostgreSQL, the demo upstream and a real SMTP server (aiosmtpd). Prints figures, asserts nothing.

  1. Report made on replica A → its alert accepted by the SMTP server: 20 subscriptions at 20 points,
     one report near each, one after another; p50 and max.
  2. A report written straight to the upstream → its alert accepted (the replicas learn of it at their
     next refresh: the TTL, 30 s on this stack).
  3. 10,000 owed mails from one replica (B stopped): 10,000 confirmed subscriptions written into the table,
     one report near them; the time from the report to the last mail accepted, and mails per second.
     (ALERT_ROWS=report,upstream,drain chooses rows.)
  4. Reads while it sends: warm /pets on replica A against nginx serving the same bytes (wrk, one after the
     other), on the quiet stack and during the drain of row 3: the ratio to nginx either way.
Every request has a timeout, every loop a bound; only loopback addresses.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import TIMEOUT, YESTERDAY, Stack  # noqa: E402
from test_alerts import MAIL_DIR, POINTS, report_near, subscribe, upstream_report  # noqa: E402


def row(text: str) -> None:
    print(f"   {text}", flush=True)


def accepted_at(address: str) -> float | None:
    """When the SMTP server wrote the first alert mail to `address` (its file's time), or None."""
    for path in (MAIL_DIR / "new").glob("*"):
        meta = MAIL_DIR / "envelopes" / (path.name + ".json")
        if meta.exists() and address in meta.read_text() and b"Message-ID: <alert." in path.read_bytes()[:4096]:
            return path.stat().st_mtime
    return None


def report_to_mail(stack: Stack, count: int = 20) -> None:
    latencies = []
    for index in range(count):
        # A point of its own, away from the suite's rows and from each other (0.5 degrees apart).
        POINTS[f"bench-{index}"] = (49.6 + 0.5 * (index // 8), 15.2 + 1.1 * (index % 8))
        address = subscribe(stack, f"bench-{index}")
        started = time.time()
        report_near(stack, stack.a, f"bench-{index}")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and accepted_at(address) is None:
            time.sleep(0.02)
        accepted = accepted_at(address)
        if accepted is not None:
            latencies.append(max(accepted - started, 0))
    if latencies:
        row(f"report on A → alert accepted by the SMTP server, {len(latencies)} of {count}: "
            f"p50 {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    else:
        row("report on A → alert accepted: none arrived within 30 s")


def upstream_to_mail(stack: Stack) -> None:
    POINTS["bench-upstream"] = (49.3, 23.0)
    address = subscribe(stack, "bench-upstream")
    lat, lng = POINTS["bench-upstream"]
    body = {"species": "DOG", "sex": "MALE", "locationLatitude": lat + 0.01, "locationLongitude": lng,
            "email": "owner@example.com", "lastSeenDate": YESTERDAY, "status": "MISSING"}
    started = time.time()
    upstream_report(stack, body)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and accepted_at(address) is None:
        time.sleep(0.05)
    accepted = accepted_at(address)
    row("report straight to the upstream → alert accepted: "
        + (f"{accepted - started:.1f} s (TTL 30 s)" if accepted else "none within 60 s"))


def wrk_rate(url: str, seconds: int = 4) -> float | None:
    if not shutil.which("wrk"):
        return None
    out = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", url], capture_output=True, text=True,
                         timeout=seconds + 30).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return float(match.group(1)) if match else None


class StaticNginx:
    """nginx (Debian nginx-light) serving the bytes replica A answers for /pets, on a port of its own: the
    reference the benchmark's ratios are taken against (docs/performance.md "How to measure")."""

    def __init__(self, stack: Stack, path: str = "/pets"):
        self.folder = stack.work / "nginx-static"
        (self.folder / "root").mkdir(parents=True, exist_ok=True)
        (self.folder / "root" / "pets.html").write_bytes(requests.get(stack.a + path, timeout=TIMEOUT).content)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        (self.folder / "nginx.conf").write_text(f"""daemon off; master_process on; worker_processes auto;
pid {self.folder}/nginx.pid; error_log {self.folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{ access_log off; sendfile on; default_type text/html;
  client_body_temp_path {self.folder}/tmp; proxy_temp_path {self.folder}/tmp; fastcgi_temp_path {self.folder}/tmp;
  uwsgi_temp_path {self.folder}/tmp; scgi_temp_path {self.folder}/tmp;
  server {{ listen 127.0.0.1:{self.port}; root {self.folder}/root; location / {{ try_files /pets.html =404; }} }} }}
""")
        (self.folder / "tmp").mkdir(exist_ok=True)
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([binary, "-p", str(self.folder), "-e", str(self.folder / "error.log"),
                                         "-c", str(self.folder / "nginx.conf")], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}/pets"
        for _ in range(100):
            try:
                if requests.get(self.url, timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def ratios(stack: Stack, nginx: StaticNginx) -> tuple[float, float] | None:
    """(ours, nginx) warm /pets answers per second, one after the other."""
    ours = wrk_rate(stack.a + "/pets")
    theirs = wrk_rate(nginx.url)
    return (ours, theirs) if ours and theirs else None


def drain(stack: Stack, count: int = 10_000) -> None:
    lat, lng = 49.1, 19.0
    POINTS["bench-drain"] = (lat, lng)
    tag = uuid.uuid4().hex[:6]
    # Written as `PostgresAlertStore.subscribe` writes them: the centre as an `earth` point (docs/alerts-store.md).
    stack.psql(f"""
        INSERT INTO petspot_alert_subscription (id, email, address_hash, kind, lat, lng, range_km, frequency, language,
          state, created_at, centre)
        SELECT md5('{tag}' || n), 'drain-{tag}-' || n || '@example.com',
          sha256(convert_to('drain-{tag}-' || n || '@example.com', 'UTF8')), 'search', la, lo, 10, 'instant', 'en',
          'active', now(), ll_to_earth(la, lo)
        FROM (SELECT n, {lat} + (random() - 0.5) * 0.02 AS la, {lng} + (random() - 0.5) * 0.02 AS lo
              FROM generate_series(1, {count}) AS n) AS points""")
    stack.kill_replica("b")
    nginx = StaticNginx(stack)
    quiet = ratios(stack, nginx)
    before = len(list((MAIL_DIR / "new").glob("*")))
    started = time.monotonic()
    report_near(stack, stack.a, "bench-drain")
    during = ratios(stack, nginx)
    deadline = time.monotonic() + 600
    last = started
    while time.monotonic() < deadline:
        now = len(list((MAIL_DIR / "new").glob("*"))) - before
        if now >= count:
            last = time.monotonic()
            break
        time.sleep(0.5)
    received = len(list((MAIL_DIR / "new").glob("*"))) - before
    elapsed = (last if received >= count else time.monotonic()) - started
    row(f"{count} owed mails from replica A alone: {received} accepted in {elapsed:.1f} s, "
        f"{received / elapsed:.0f} mails/s (one SMTP connection, reused)")
    nginx.stop()
    if quiet and during:
        row(f"warm /pets on replica A ÷ nginx, same bytes: quiet {quiet[0]:.0f} / {quiet[1]:.0f} = {quiet[0] / quiet[1]:.2f}; "
            f"while it sends {during[0]:.0f} / {during[1]:.0f} = {during[0] / during[1]:.2f}")
    else:
        row("warm /pets while sending: wrk not installed (Debian wrk)")
    stack.start_replica("b")


def main() -> None:
    stack = Stack()
    print("== alerts: two replicas on one PostgreSQL, aiosmtpd as the mail server", flush=True)
    rows = os.environ.get("ALERT_ROWS", "report,upstream,drain").split(",")
    if "report" in rows:
        report_to_mail(stack)
    if "upstream" in rows:
        upstream_to_mail(stack)
    if "drain" in rows:
        drain(stack)


if __name__ == "__main__":
    main()
