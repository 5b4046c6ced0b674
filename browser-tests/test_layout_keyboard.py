"""360 px phones: no horizontal scrolling. Keyboard: Tab reaches everything, focus is visible."""
from __future__ import annotations

import pytest

from conftest import ALREADY_ASKED, MAX_ID, NO_PHOTO_ID

PHONE = {"width": 360, "height": 740}
PAGES = {
    "landing": "/",
    "list": "/pets",
    "list-banner": "/pets?location=denied",
    "list-located": "/pets?lat=52.2297&lng=21.0122",
    "details": f"/pets/{MAX_ID}",
    "details-no-photo": f"/pets/{NO_PHOTO_ID}",
    "error-404": "/pets/does-not-exist",
    "error-400": "/pets?lat=1",
    "map": "/map",
    "report": "/report",
    "report-found-located": "/report?status=found&lat=52.2297&lng=21.0122",
}


@pytest.mark.parametrize("name", PAGES)
def test_no_horizontal_scroll_at_360px(server, make_page, name):
    page, watcher = make_page(geo="unavailable", viewport=PHONE, init_scripts=[ALREADY_ASKED])
    page.goto(server.url(PAGES[name]))
    page.wait_for_load_state("load")
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth,"
        " body: document.body.scrollWidth})"
    )
    assert widths["scroll"] <= widths["inner"], widths
    offenders = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > window.innerWidth + 0.5; })
        // A map's tiles reach past its edges by design; its container clips them (overflow: hidden).
        .filter(e => !e.closest('.leaflet-container') || getComputedStyle(e.closest('.leaflet-container')).overflow !== 'hidden')
        .slice(0, 5).map(e => e.tagName + '.' + e.className)""")
    assert offenders == [], offenders
    assert watcher.errors == []


@pytest.mark.parametrize("width", [360, 768, 1280])
def test_report_form_fits_and_tab_reaches_submit(server, make_page, width):
    """The report form (docs/report-flow.md) at phone to desktop widths: no horizontal scrolling, and
    Tab alone gets from the top of the page to the submit button."""
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800}, init_scripts=[ALREADY_ASKED])
    page.goto(server.url("/report"))
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('[data-report-form] button[type=submit]')"):
            break
    else:
        raise AssertionError("Tab never reached the report form's submit button")
    assert page.locator("[data-report-form] button[type=submit]").is_visible()
    assert watcher.errors == []


def test_no_horizontal_scroll_at_360px_on_502(down_server, make_page):
    page, watcher = make_page(geo="unavailable", viewport=PHONE, init_scripts=[ALREADY_ASKED])
    response = page.goto(down_server.url("/pets"))
    assert response.status == 502
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert watcher.errors == []


# Content of a closed <details> (the alert box) is not rendered, so Tab rightly skips it; its <summary>
# (and what is inside the summary) stays.
FOCUSABLE = """() => {
  const folded = e => { for (let d = e.closest('details:not([open])'); d; d = d.parentElement?.closest('details:not([open])')) {
      const summary = d.querySelector(':scope > summary');
      if (!summary || !summary.contains(e)) return true; }
    return false; };
  return [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])')]
  .filter(e => !e.disabled && !e.closest('[hidden]') && !folded(e) && getComputedStyle(e).visibility !== 'hidden'
               && getComputedStyle(e).display !== 'none')
  .map((e, i) => { e.dataset.tabIndexProbe = String(i); return i; }); }"""

FOCUS_STATE = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  // The focused element and a few ancestors (the stretched card link draws its ring on the card via
  // :focus-within): focus is visible when an outline or box-shadow there appears only with focus.
  const chain = [];
  for (let a = e, depth = 0; a && depth < 5; a = a.parentElement, depth++) chain.push(a);
  const look = () => chain.map(a => { const s = getComputedStyle(a);
    return {outline: s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none'
                     : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
            shadow: s.boxShadow}; });
  const focused = look();
  e.blur();
  const blurred = look();
  e.focus();
  let via = null;
  chain.forEach((a, i) => {
    if (via === null && (focused[i].outline !== blurred[i].outline || focused[i].shadow !== blurred[i].shadow)
        && (focused[i].outline !== 'none' || focused[i].shadow !== 'none')) {
      via = a.tagName + (a.className ? '.' + a.className : '');
    }
  });
  return {probe: e.dataset.tabIndexProbe ?? null, tag: e.tagName, via,
          text: (e.textContent || e.name || '').trim().slice(0, 40), visible: via !== null};
}"""


@pytest.mark.parametrize("name", ["landing", "list", "list-banner", "details", "error-404", "map"])
def test_tab_reaches_every_control_with_visible_focus(server, make_page, name):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url(PAGES[name]))
    page.wait_for_load_state("load")
    expected = set(page.evaluate(FOCUSABLE))
    assert expected
    reached, invisible = set(), []
    for _ in range(len(expected) + 10):
        page.keyboard.press("Tab")
        state = page.evaluate(FOCUS_STATE)
        if state is None:
            continue
        if state["probe"] is not None:
            probe = int(state["probe"])
            if probe in reached:
                continue
            reached.add(probe)
        if not state["visible"]:
            invisible.append(state)
        if reached >= expected:
            break
    missing = expected - reached
    assert not missing, page.evaluate(
        "ids => ids.map(i => document.querySelector(`[data-tab-index-probe='${i}']`).outerHTML.slice(0, 120))",
        sorted(missing))
    assert invisible == [], invisible
    assert watcher.errors == []
