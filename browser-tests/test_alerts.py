"""E-mail alerts (docs/alerts.md) in a real Chromium, with JavaScript and without it: the folded box
shares the feed link's line and costs a phone no height, a person subscribes, confirms from the mail,
manages and stops; an unlocated list asks for a place; the summary works from the keyboard; the report
form keeps its "E-mail me matches" box."""
from __future__ import annotations

import re

import pytest

from alert_support import LOCATED, alert_mail, mail_link, mails, on_server, skipped_alerts, wait_for_mail
from conftest import ALREADY_ASKED, Server
from report_support import FORM, field_errors, fill_form, submit

BOX = '[data-testid="alert-box"]'
SUMMARY = BOX + " > summary"
PHONE = {"width": 390, "height": 844}
MODES = [pytest.param(True, id="js"), pytest.param(False, id="nojs")]


@pytest.fixture(scope="module")
def alerts_server():
    """Its own Maildir (conftest.Server), no report throttle, and `--cache-ttl 0` so an owed alert finds
    its new pet (alert_support.alert_mail)."""
    s = Server("--report-limit", "0", "--cache-ttl", "0")
    yield s
    s.stop()


def open_page(make_page, js: bool, viewport=None):
    if js:
        return make_page(geo="unavailable", viewport=viewport, init_scripts=[ALREADY_ASKED])
    return make_page(geo=None, js=False, viewport=viewport)


# --- (a) no height on a phone, folded ---------------------------------------------------------------------

# The summary sits inline on the feed link's own line (`div.feed-follow`, site.css `.feed-follow
# .alert-follow`). `lines`: the link's and the summary's fragments (getClientRects: the ::before and each
# line of the text; a summary that wrapped, or fell to the next line, shows there); `withBox` and
# `withoutBox`: the first pet card's top with the box and with the box element removed by script.
GEOMETRY = """() => {
  const rect = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  const link = document.querySelector('[data-testid="feed-link"]');
  const summary = document.querySelector('[data-testid="alert-box"] > summary');
  const card = () => document.querySelector('[data-testid="pet-card"]').getBoundingClientRect().top;
  const lines = {link: [...link.getClientRects()].map(rect), summary: [...summary.getClientRects()].map(rect)};
  const withBox = card();
  const box = document.querySelector('[data-testid="alert-box"]');
  const marker = document.createComment('alert-box');
  box.replaceWith(marker);
  const withoutBox = card();
  marker.replaceWith(box);
  return {lines, withBox, withoutBox, summaryText: summary.innerText};
}"""

LANGUAGES = [pytest.param("", "E-mail me new ones", id="en"), pytest.param("&lang=pl", "E-mailem", id="pl")]


@pytest.mark.parametrize("query,summary", LANGUAGES)
@pytest.mark.parametrize("js", MODES)
def test_folded_box_adds_no_height_on_a_phone_and_opens_below(alerts_server, make_page, js, query, summary):
    page, watcher = open_page(make_page, js, PHONE)
    page.goto(alerts_server.url(LOCATED + query))
    assert summary in page.locator(SUMMARY).inner_text()
    geometry = page.evaluate(GEOMETRY)
    link, box = geometry["lines"]["link"], geometry["lines"]["summary"]
    measured = (f"feed link line top {link[0]['top']:.1f}; summary fragments' tops "
                f"{[round(fragment['top'], 1) for fragment in box]}; first pet card top {geometry['withBox']:.1f} "
                f"with the box, {geometry['withoutBox']:.1f} without (+{geometry['withBox'] - geometry['withoutBox']:.1f} px)")
    # The link on one line, and every fragment of the summary (its "· ▸ " and its words) on that same
    # line, after the link: it neither wrapped nor fell to the next line…
    assert len(link) == 1, measured
    assert all(abs(fragment["top"] - link[0]["top"]) <= 4 for fragment in box), measured
    assert box[0]["left"] >= link[0]["right"], measured
    # …so, folded, it moves the first pet card by no more than a few px.
    assert abs(geometry["withBox"] - geometry["withoutBox"]) <= 4, measured
    fields = ["#alert-email", "#alert-instant", "#alert-daily", '[data-testid="alert-form"] button[type=submit]']
    for field in fields:
        assert not page.locator(field).is_visible(), field
    page.locator(SUMMARY).click()
    for field in fields:
        assert page.locator(field).is_visible(), field
    # Opened, the form takes the lines below the feed link.
    form_top = page.locator('[data-testid="alert-form"]').bounding_box()["y"]
    assert form_top >= link[0]["bottom"], (form_top, geometry)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator(SUMMARY).click()
    assert not page.locator("#alert-email").is_visible()
    assert watcher.errors == []


@pytest.mark.parametrize("js", MODES)
def test_map_box_is_folded_too(alerts_server, make_page, js):
    page, watcher = open_page(make_page, js, PHONE)
    page.goto(alerts_server.url(LOCATED.replace("/pets", "/map")))
    assert page.locator(SUMMARY).is_visible()
    assert not page.locator("#alert-email").is_visible()
    page.locator(SUMMARY).click()
    assert page.locator("#alert-email").is_visible()
    assert page.locator('[data-testid="alert-form"] input[name=search]').get_attribute("value").startswith("/pets.atom?lat=52.23")
    assert watcher.errors == []


# --- (b) the whole flow by a person ----------------------------------------------------------------------

@pytest.mark.parametrize("js", MODES)
def test_subscribe_confirm_manage_and_stop(alerts_server, make_page, js):
    address = f"walker-{'js' if js else 'nojs'}@example.com"
    page, watcher = open_page(make_page, js, PHONE)
    page.goto(alerts_server.url(LOCATED))
    page.locator(SUMMARY).click()
    page.get_by_label("Your e-mail address").fill(address)
    page.get_by_label("Once a day, at 8:00").check()
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Send me a confirmation e-mail").click()
    response = navigation.value
    assert response.status == 200
    assert response.headers["cache-control"] == "no-store"
    assert page.locator('[data-testid="alert-pending"]').is_visible()
    assert address not in page.url and address not in page.content()

    mail = wait_for_mail(alerts_server, address)
    assert mail["To"].addresses[0].addr_spec == address
    assert mail.get_content_type() == "multipart/alternative"
    link = mail_link(mail, "mail-confirm-link")
    assert re.match(r"https?://[^/]+/alerts/confirm/[0-9a-f]{32}", link), link
    page.goto(on_server(link, alerts_server))
    confirm = page.locator('[data-testid="alert-confirm"]')
    assert confirm.is_visible()
    assert "15 km" in confirm.inner_text()

    with page.expect_navigation():
        confirm.get_by_role("button", name="Confirm").click()
    active = page.locator('[data-testid="alert-active"]')
    assert active.is_visible()
    with page.expect_navigation():
        active.locator('[data-testid="alert-manage-link"]').click()
    assert re.search(r"/alerts/manage/[0-9a-f]{32}", page.url), page.url
    manage = page.locator('[data-testid="alert-manage"]')
    assert manage.is_visible()
    assert page.locator("#alert-daily").is_checked()  # the frequency chosen in the box
    assert page.locator("#alert-range").input_value() == "15"

    page.select_option("#alert-range", "5")
    with page.expect_navigation():
        manage.get_by_role("button", name="Save").click()
    assert page.locator('[data-testid="alert-saved"]').is_visible()
    assert page.locator("#alert-range").input_value() == "5"
    assert "5 km" in page.locator('[data-testid="alert-manage"] .alert-what').inner_text()

    with page.expect_navigation():
        page.locator('[data-testid="alert-stop"]').click()
    assert page.locator('[data-testid="alert-stopped"]').is_visible()
    assert "5 km" in page.locator('[data-testid="alert-stopped"]').inner_text()
    assert watcher.errors == []


def test_alert_mail_arrives_for_a_report_made_here(alerts_server):
    """With `--cache-ttl 0` (the default is the next test): an instant alert of a report made
    through our form, with its links absolute and the List-Unsubscribe one-click headers."""
    mail = alert_mail(alerts_server, "arrives")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(r"<https?://[^>]+/alerts/stop/[0-9a-f]{32}>", str(mail["List-Unsubscribe"]))
    for testid in ("mail-all-link", "mail-manage-link", "mail-stop-link"):
        assert mail_link(mail, testid).startswith(alerts_server.base)


def test_alert_mail_arrives_with_the_default_cache_ttl():
    """The default 30 s cache: the sender reads the pets from the fan-out's list when the published snapshot
    is still the one before (AlertSender.write), so the mail is neither lost nor skipped."""
    s = Server("--report-limit", "0")
    try:
        skipped = skipped_alerts(s)
        alert_mail(s, "default-ttl", attempts=1)
        assert skipped_alerts(s) == skipped
    finally:
        s.stop()


# --- (c) no place, no form -------------------------------------------------------------------------------

@pytest.mark.parametrize("js", MODES)
def test_unlocated_list_asks_for_a_place_not_an_address(alerts_server, make_page, js):
    page, watcher = open_page(make_page, js)
    page.goto(alerts_server.url("/pets"))
    page.locator(SUMMARY).click()
    needs = page.locator('[data-testid="alert-needs-place"]')
    assert needs.is_visible()
    assert "first show the pets near a place" in needs.inner_text()
    assert page.locator('[data-testid="alert-form"]').count() == 0
    assert page.locator(BOX + " input[type=email]").count() == 0
    assert watcher.errors == []


# --- (d) keyboard ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("js", MODES)
def test_summary_is_reached_by_tab_and_opens_with_enter_and_space(alerts_server, make_page, js):
    page, watcher = open_page(make_page, js)
    page.goto(alerts_server.url(LOCATED))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('[data-testid=alert-box] > summary')"):
            break
    else:
        raise AssertionError("Tab never reached the alert box's summary")
    is_open = "() => document.querySelector('[data-testid=alert-box]').open"
    assert not page.evaluate(is_open)
    page.keyboard.press("Enter")
    assert page.evaluate(is_open)
    assert page.locator("#alert-email").is_visible()
    page.keyboard.press("Space")
    assert not page.evaluate(is_open)
    page.keyboard.press("Space")
    assert page.evaluate(is_open)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "alert-email"
    assert watcher.errors == []


# --- (e) the report form's "E-mail me possible matches" ---------------------------------------------------

@pytest.mark.parametrize("js", MODES)
def test_match_alerts_checkbox_has_a_label_and_survives_a_refused_form(alerts_server, make_page, js):
    page, watcher = open_page(make_page, js)
    page.goto(alerts_server.url("/report"))
    box = page.locator('input[type=checkbox][name="matchAlerts"]')
    assert box.count() == 1
    label = page.locator(f'label[for="{box.get_attribute("id")}"]')
    assert label.inner_text().strip()
    assert page.get_by_label(label.inner_text().strip()).get_attribute("name") == "matchAlerts"
    assert not box.is_checked()
    label.click()  # the label ticks it
    assert box.is_checked()

    fill_form(page, phone="", age="0", name="Refused-match")
    page.fill("#report-email", "owner@example.com")
    # The browser's own checks (min=1) would stop this form: the server's answer is what is tested.
    page.evaluate("document.querySelector('[data-report-form]').noValidate = true")
    response = submit(page)
    assert response.status == 422
    assert "age" in field_errors(page)
    assert page.locator(FORM).is_visible()
    assert page.locator('input[name="matchAlerts"]').is_checked()
    assert page.locator("#report-email").input_value() == "owner@example.com"
    # Nothing was asked for: a refused report follows nothing (no confirmation mail).
    assert not any("owner@example.com" in str(m["To"]) for m in mails(alerts_server))
    assert watcher.errors == []
