"""Helpers for the e-mail alerts' browser checks (docs/alerts.md): the forms posted over plain HTTP
(for the Nu Html Checker, which must read the server's own bytes), the mails read from the server's
Maildir (`Server.mail_dir`, conftest.py) and parsed with Python's `email` package, and every page of
the flow collected once for the standards checks."""
from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from html.parser import HTMLParser

from report_support import post_form, valid_fields

# The located list of the brief and the feed link its alert box follows (the form's hidden `search`).
LOCATED = "/pets?lat=52.23&lng=21.01"
SEARCH = "/pets.atom?lat=52.23&lng=21.01&range=15&lang=en"


def post(server, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
    """POSTs a urlencoded form as a browser would (our Origin); returns (status, final path, body)."""
    request = urllib.request.Request(
        server.url(path), data=urllib.parse.urlencode(fields).encode(), method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": server.base},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, path, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, path, error.read().decode("utf-8")


def get(server, path: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(server.url(path), timeout=30) as response:
            return response.status, path, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, path, error.read().decode("utf-8")


def subscribe(server, email: str, frequency: str = "daily", search: str = SEARCH, query: str = "") -> tuple[int, str, str]:
    return post(server, "/alerts" + query, {"search": search, "email": email, "frequency": frequency})


def mails(server) -> list[EmailMessage]:
    """Every mail the server wrote into its Maildir (`new/`), oldest first."""
    folder = server.mail_dir / "new"
    if not folder.is_dir():
        return []
    parser = BytesParser(policy=policy.default)
    return [parser.parsebytes(file.read_bytes()) for file in sorted(folder.iterdir(), key=lambda f: f.stat().st_mtime_ns)]


def wait_for_mail(server, to: str, kind: str = "confirm", timeout: float = 20) -> EmailMessage:
    """The first mail of `kind` (its Message-ID: `<confirm.…>`, `<alert.…>`, `<digest.…>`) to `to`."""
    deadline = time.monotonic() + timeout
    while True:
        for message in mails(server):
            if to in str(message["To"]) and str(message["Message-ID"]).startswith(f"<{kind}."):
                return message
        if time.monotonic() > deadline:
            seen = [(str(m["To"]), str(m["Message-ID"])) for m in mails(server)]
            raise AssertionError(f"no {kind} mail to {to} within {timeout} s; the Maildir holds {seen}")
        time.sleep(0.2)


def html_part(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None, "the mail has no text/html part"
    return part.get_content()


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.by_testid: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "a" and values.get("data-testid") and values.get("href"):
            self.by_testid.setdefault(values["data-testid"], values["href"])


def mail_link(message: EmailMessage, testid: str) -> str:
    """The absolute href of the HTML part's link `data-testid=testid`."""
    parser = _Links()
    parser.feed(html_part(message))
    assert testid in parser.by_testid, f"no {testid} link in the mail; links: {parser.by_testid}"
    return parser.by_testid[testid]


def on_server(link: str, server) -> str:
    """The mail's absolute link (on --public-base-url) with the test server's origin instead."""
    parts = urllib.parse.urlsplit(link)
    assert parts.scheme in ("http", "https") and parts.netloc, link
    return server.base + urllib.parse.urlunsplit(("", "", parts.path, parts.query, ""))


def path_of(link: str) -> str:
    parts = urllib.parse.urlsplit(link)
    return urllib.parse.urlunsplit(("", "", parts.path, parts.query, ""))


def testid_href(body: str, testid: str) -> str:
    parser = _Links()
    parser.feed(body)
    assert testid in parser.by_testid, testid
    return parser.by_testid[testid].replace("&amp;", "&")


def report_near(server, name: str) -> str:
    """Makes a report 300 m from LOCATED through the form (a found dog, yesterday); returns its id."""
    status, body = post_form(server, valid_fields(
        species="DOG", locationLatitude="52.2320", locationLongitude="21.0140", petName=name,
        description="Brown dog with a red collar",
    ))
    assert status == 201, (status, body[:500])
    marker = 'data-pet-id="'
    start = body.index(marker) + len(marker)
    return body[start:body.index('"', start)]


def collect_alert_pages(server) -> dict[str, tuple[int, str, str]]:
    """Every page of the alert flow, walked once over HTTP: name → (status, path, body). POST answers
    and one-use tokens cannot be fetched again by a GET, so the standards checks read these bodies
    (the Nu checker from files, axe from the browser with the page routed to the body).
    Also the HTML parts of a confirmation mail (`mail-confirm-html`) and of an alert (`mail-alert-html`)."""
    pages: dict[str, tuple[int, str, str]] = {}
    # The list first, as a visitor sees it before asking: the first list a fresh alert store sees is its
    # starting point and owes nothing (docs/alerts.md "Once per pet"), so the report below must come after it.
    assert get(server, LOCATED)[0] == 200
    pages["alert-pending"] = subscribe(server, "pages@example.com", "daily")
    pages["pl-alert-pending"] = subscribe(server, "strony@example.com", "instant",
                                          search=SEARCH.replace("lang=en", "lang=pl"), query="?lang=pl")
    pages["alert-needs-place"] = post(server, "/alerts", {"search": "", "email": "x@example.com", "frequency": "daily"})
    pages["alert-bad-email"] = subscribe(server, "not-an-address")

    confirm_mail = wait_for_mail(server, "pages@example.com")
    pages["mail-confirm-html"] = (200, "mail:confirm", html_part(confirm_mail))
    confirm = path_of(mail_link(confirm_mail, "mail-confirm-link"))
    pages["alert-never-form"] = get(server, path_of(mail_link(confirm_mail, "mail-never-link")))
    pages["alert-confirm"] = get(server, confirm)
    pages["pl-alert-confirm"] = get(server, confirm.split("?")[0] + "?lang=pl")
    pages["alert-active"] = post(server, confirm, {"confirm": "1"})
    manage = testid_href(pages["alert-active"][2], "alert-manage-link")
    pages["alert-manage"] = get(server, manage)
    pages["pl-alert-manage"] = get(server, manage.split("?")[0] + "?lang=pl")
    pages["alert-manage-saved"] = post(server, manage, {"frequency": "instant", "range": "5", "language": "en", "change": "1"})
    stop = manage.replace("/alerts/manage/", "/alerts/stop/")
    pages["alert-stop-form"] = get(server, stop)
    pages["alert-stopped"] = post(server, stop, {"stop": "1"})
    pages["alert-unknown"] = get(server, "/alerts/confirm/" + "0" * 32)

    pages["mail-alert-html"] = (200, "mail:alert", html_part(alert_mail(server, "mail-alert")))
    return pages


def skipped_alerts(server) -> int:
    """`petspot_alert_mails_skipped_total{kind="alert"}`: owed alerts written as "nothing left to tell"."""
    for line in get(server, "/metrics")[2].splitlines():
        if line.startswith('petspot_alert_mails_skipped_total{kind="alert"}'):
            return int(float(line.split()[-1]))
    return 0


def alert_mail(server, prefix: str, attempts: int = 3, pet_name: str | None = None) -> EmailMessage:
    """An alert mail: an instant subscription, confirmed, then a new report 300 m from its centre.

    Retried with a new address and a new report when the server skips the owed alert: the fan-out of a
    report made here runs in a Task started inside the upstream refresh (AlertAssembly's
    `whenNewSnapshot`), and the sender's `gateway.snapshot` can still return the snapshot before it,
    which lacks the new pet, so the mail is marked sent with nothing in it (skipped in 3 of 6 fresh servers
    with the default 30 s TTL, in none of 6 with `--cache-ttl 0`, which makes the sender fetch again; the
    servers that need an alert mail use it, and test_alerts.py's xfail test keeps the loss visible)."""
    assert get(server, LOCATED)[0] == 200  # not the first list the store sees (that one owes nothing)
    for attempt in range(attempts):
        address = f"{prefix}-{attempt}@example.com"
        skipped = skipped_alerts(server)
        assert subscribe(server, address, "instant")[0] == 200
        confirm = path_of(mail_link(wait_for_mail(server, address), "mail-confirm-link"))
        assert post(server, confirm, {"confirm": "1"})[0] == 200
        report_near(server, pet_name or f"Alert-{prefix}-{attempt}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = [m for m in mails(server) if address in str(m["To"]) and str(m["Message-ID"]).startswith("<alert.")]
            if found:
                return found[0]
            if skipped_alerts(server) > skipped:
                break  # skipped: try again with a new address and a new pet
            time.sleep(0.2)
    raise AssertionError(f"no alert mail in {attempts} attempts")
