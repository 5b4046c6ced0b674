"""Fixtures for the browser and standards checks (docs/platform.md).

The real `petspot-web` binary runs as a subprocess on a free loopback port ($PETSPOT_BIN, default
`.build/debug/petspot-web`, relative to the repository root) and is always stopped at the end.
Chromium is Debian's (`/usr/bin/chromium`), driven by Playwright. Every wait is bounded.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from stub_tiles import StubTiles
from stub_upstream import StubUpstream, photo_items, plain_items

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("PETSPOT_CHROMIUM", "/usr/bin/chromium")
HERE = (52.2297, 21.0122)  # Warsaw, Palace of Culture: the granted position

# Demo data set ids (Sources/DemoUpstream): photo 404s / absolute unreachable photo / no photo.
MAX_ID = "9b7dab12-1616-4bd7-8da3-ea83d8a481a8"
ZIGGY_ID = "424f682b-d2a7-4b75-b37b-10c783d1b5c1"
NO_PHOTO_ID = "d0ce0911-336d-4702-ab99-768c86037c6e"  # Ćwirek

# Marks sessionStorage as "already asked" so a page stays where it is (for layout, axe, screenshots).
ALREADY_ASKED = "try { sessionStorage.setItem('petspot.locationAsked', '1'); } catch (e) {}"

# Counts every geolocation request a page makes (in sessionStorage, so it survives navigations).
COUNT_ASKS = """
(() => {
  const geo = navigator.geolocation;
  if (!geo) return;
  const original = geo.getCurrentPosition.bind(geo);
  geo.getCurrentPosition = function (ok, fail, options) {
    const n = Number(sessionStorage.getItem('__geoAsks') || '0') + 1;
    sessionStorage.setItem('__geoAsks', String(n));
    return original(ok, fail, options);
  };
})();
"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url: str, timeout: float = 10) -> tuple[int, str]:
    """GET that returns (status, body) for error statuses too."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


_tiles: StubTiles | None = None


def default_tiles() -> StubTiles:
    """The stub tile server every Server uses unless given its own `--tile-url` (started once)."""
    global _tiles
    if _tiles is None:
        _tiles = StubTiles()
    return _tiles


class Server:
    """One petspot-web process on 127.0.0.1:<free port>. Its tiles always come from a stub on
    127.0.0.1 (`default_tiles()` unless `--tile-url` is given): never from the real tile server."""

    def __init__(self, *extra: str) -> None:
        if "--tile-url" not in extra:
            extra = (*extra, "--tile-url", default_tiles().template)
        # Alert mails (docs/alerts.md "Delivery") go to a Maildir of this server's own, never to the
        # shared default /tmp/petspot-mail: tests read them from `mail_dir / "new"`.
        self.own_mail_dir = "--mail-dir" not in extra
        if self.own_mail_dir:
            extra = (*extra, "--mail-dir", tempfile.mkdtemp(prefix="petspot-mail-", dir=os.environ.get("BROWSER_TESTS_TMP")))
        self.mail_dir = Path(extra[extra.index("--mail-dir") + 1])
        binary = Path(os.environ.get("PETSPOT_BIN", ".build/debug/petspot-web"))
        if not binary.is_absolute():
            binary = REPO / binary
        if not binary.exists():
            raise RuntimeError(f"server binary not found: {binary} (set PETSPOT_BIN)")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(os.environ.get("BROWSER_TESTS_TMP", "/tmp"),
                                     f"petspot-web-{self.port}.log"), "wb")
        self.process = subprocess.Popen(
            [str(binary), "--host", "127.0.0.1", "--port", str(self.port), *extra],
            cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"petspot-web exited with {self.process.returncode}; see {self.log.name}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2):
                    break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("petspot-web did not answer /healthz within 30 s")
                time.sleep(0.2)

    def url(self, path: str) -> str:
        return self.base + path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()
        if self.own_mail_dir:
            shutil.rmtree(self.mail_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    """The demo server (embedded demo upstream, ~24 announcements)."""
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def xss_server():
    """A server whose upstream data holds script payloads."""
    stub = StubUpstream()
    s = Server("--upstream", stub.url)
    yield s
    s.stop()
    stub.stop()


@pytest.fixture(scope="session")
def many_server():
    """A server whose upstream holds 45 ordinary announcements (three pages)."""
    stub = StubUpstream(plain_items(45))
    s = Server("--upstream", stub.url)
    yield s
    s.stop()
    stub.stop()


@pytest.fixture(scope="session")
def photo_server():
    """A server whose upstream holds 24 announcements with phone-like 2 MP JPEG photos (stored
    sideways with EXIF orientation 6 and GPS tags, names with spaces)."""
    items, images = photo_items(24)
    stub = StubUpstream(items, images)
    s = Server("--upstream", stub.url)
    yield s
    s.stop()
    stub.stop()


@pytest.fixture(scope="session")
def down_server():
    """A server whose upstream refuses connections (→ 502 pages)."""
    s = Server("--upstream", f"http://127.0.0.1:{free_port()}")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def alert_server():
    """The demo server of the alert flow's standards checks: its own Maildir, no report throttle (an
    alert mail needs a new report), and `--cache-ttl 0` so the sender reads the list that holds the new
    pet (alert_support.alert_mail says why the default TTL loses some alerts)."""
    s = Server("--report-limit", "0", "--cache-ttl", "0")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def alert_pages(alert_server):
    """name → (status, path, body) of every alert page and mail part (alert_support.collect_alert_pages)."""
    from alert_support import collect_alert_pages  # imported here: alert_support imports this module
    return collect_alert_pages(alert_server)


@pytest.fixture(scope="session")
def owner_pages(alert_server):
    """name → (status, path, body) of the owner's pages of a sighting (sighting_support.collect_owner_pages)."""
    from sighting_support import collect_owner_pages  # imported here, as alert_support above
    return collect_owner_pages(alert_server)


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    b = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"],
    )
    yield b
    b.close()


class Watcher:
    """Collects JavaScript errors and dialogs of every page in a context."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []

    def attach(self, page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", self._console)
        page.on("dialog", self._dialog)

    def _console(self, message) -> None:
        if message.type != "error":
            return
        # A photo that 404s or cannot be reached is a network error, not a JavaScript error.
        if message.text.startswith("Failed to load resource"):
            return
        self.errors.append(f"console: {message.text} @ {message.location}")

    def _dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()


def set_geolocation(context, page, mode: str) -> None:
    """mode: granted (HERE), denied, unavailable. Called in every test that runs scripts."""
    cdp = context.new_cdp_session(page)
    if mode == "granted":
        context.grant_permissions(["geolocation"])
        context.set_geolocation({"latitude": HERE[0], "longitude": HERE[1]})
    elif mode == "denied":
        target = cdp.send("Target.getTargetInfo")
        cdp.send("Browser.setPermission", {
            "permission": {"name": "geolocation"}, "setting": "denied",
            "browserContextId": target["targetInfo"]["browserContextId"],
        })
    elif mode == "unavailable":
        context.grant_permissions(["geolocation"])
        # An override without coordinates means "position unavailable" (error code 2).
        cdp.send("Emulation.setGeolocationOverride", {})
    else:
        raise ValueError(mode)
    return cdp


@pytest.fixture
def make_page(browser):
    """make_page(geo=..., js=True, viewport=..., init_scripts=..., permissions=...) → (page, watcher)."""
    contexts = []

    def factory(geo: str | None = "unavailable", js: bool = True, viewport=None,
                init_scripts=(), permissions=()):
        context = browser.new_context(
            java_script_enabled=js,
            viewport=viewport or {"width": 1280, "height": 900},
        )
        contexts.append(context)
        context.set_default_timeout(10_000)
        context.set_default_navigation_timeout(15_000)
        for script in init_scripts:
            context.add_init_script(script)
        if permissions:
            context.grant_permissions(list(permissions))
        watcher = Watcher()
        context.on("page", watcher.attach)
        page = context.new_page()
        watcher.attach(page)
        if geo is not None:
            set_geolocation(context, page, geo)
        return page, watcher

    yield factory
    for context in contexts:
        context.close()


# --- pass/fail counts for run.sh ("browser: N passed, M failed") ---------------------------------

_counts = {"passed": 0, "failed": 0}


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        _counts["passed"] += 1
    elif report.failed:  # a failure in setup, call or teardown
        _counts["failed"] += 1


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("BROWSER_COUNTS_FILE")
    if path:
        Path(path).write_text(json.dumps(_counts))
