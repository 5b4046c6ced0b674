"""axe-core (bundled in axe-playwright-python, offline) finds no violation on any page type."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ALREADY_ASKED
from pages import PAGE_TYPES

AXE = Axe()


PHONE_CHECKED = ["landing", "list-banner", "details", "error-404-pet", "map", "pl-list-banner", "pl-details", "pl-map"]
CASES = [(name, 1280) for name in PAGE_TYPES] + [(name, 360) for name in PHONE_CHECKED]


@pytest.mark.parametrize(("name", "width"), CASES, ids=[f"{n}-{w}px" for n, w in CASES])
def test_axe_finds_no_violation(request, make_page, name, width):
    fixture, path, status = PAGE_TYPES[name]
    server = request.getfixturevalue(fixture)
    page, watcher = make_page(geo="unavailable", viewport={"width": width, "height": 800},
                              init_scripts=[ALREADY_ASKED])
    response = page.goto(server.url(path))
    assert response.status == status
    page.wait_for_load_state("load")
    results = AXE.run(page)
    violations = results.response["violations"]
    summary = [f"{v['id']} ({v['impact']}): {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}"
               for v in violations]
    assert summary == [], "\n".join(summary)
    assert watcher.errors == []
