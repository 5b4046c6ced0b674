"""The poster (docs/poster.md): one A4 page when Chromium prints it, in both languages, and its QR
code read back from a screenshot (Debian zbar-tools) is the pet's share link, which opens the pet."""
from __future__ import annotations

import subprocess

import pytest

from conftest import ALREADY_ASKED, MAX_ID, NO_PHOTO_ID

A4 = {"width": "8.27in", "height": "11.69in"}  # CDP Page.printToPDF paperWidth/paperHeight


def pdf_pages(path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("pet_id", [MAX_ID, NO_PHOTO_ID], ids=["with-photo", "without-photo"])
def test_poster_prints_on_exactly_one_a4_page(server, make_page, tmp_path, lang, pet_id):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url(f"/pets/{pet_id}/poster?lang={lang}"))
    page.wait_for_selector('[data-testid="poster"]')
    page.wait_for_load_state("networkidle")
    target = tmp_path / f"poster-{lang}.pdf"
    page.pdf(path=str(target), print_background=True, **A4)  # Page.printToPDF
    assert pdf_pages(target) == 1
    # On screen: the Print button (shown by the script) and how to print.
    assert page.locator("[data-print]").is_visible()
    assert watcher.errors == []


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_poster_qr_code_reads_back_as_the_share_link_that_opens_the_pet(server, make_page, tmp_path, lang):
    page, watcher = make_page(geo="unavailable", init_scripts=[ALREADY_ASKED])
    page.goto(server.url(f"/pets/{MAX_ID}/poster?lang={lang}"))
    code = page.locator('[data-testid="poster-qr"]')
    shot = tmp_path / "qr.png"
    code.screenshot(path=str(shot))
    read = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True, text=True, check=True).stdout.strip()
    expected = server.url(f"/pets/{MAX_ID}?lang={lang}")
    assert read == expected
    assert page.locator('[data-testid="poster-url"]').inner_text().strip() == expected
    page.goto(read)
    assert page.locator('[data-testid="pet-details"]').get_attribute("data-pet-id") == MAX_ID
    assert page.locator("html").get_attribute("lang") == lang
    assert watcher.errors == []
