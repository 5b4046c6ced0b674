"""Every page type checked by the standards tests: name → (server fixture, path, expected status)."""
from conftest import MAX_ID, NO_PHOTO_ID

PAGE_TYPES = {
    "landing": ("server", "/", 200),
    "landing-located": ("server", "/?lat=52.2297&lng=21.0122", 200),
    "landing-banner": ("server", "/?location=denied", 200),
    "list": ("server", "/pets", 200),
    "list-banner": ("server", "/pets?location=denied", 200),
    "list-filtered": ("server", "/pets?status=missing&species=dog&sort=oldest", 200),
    "list-located": ("server", "/pets?lat=52.2297&lng=21.0122&sort=nearest", 200),
    "list-page-2": ("many_server", "/pets?page=2", 200),
    "list-empty": ("server", "/pets?status=closed&species=rabbit", 200),
    "details": ("server", f"/pets/{MAX_ID}", 200),
    "details-no-photo": ("server", f"/pets/{NO_PHOTO_ID}", 200),
    "map": ("server", "/map", 200),
    "poster": ("server", f"/pets/{MAX_ID}/poster", 200),
    "poster-no-photo": ("server", f"/pets/{NO_PHOTO_ID}/poster", 200),
    # "I've seen this pet" alone, and the owner's page before the code (docs/sightings.md).
    "sighting-form": ("server", f"/pets/{MAX_ID}/sighting", 200),
    "sightings-login": ("server", f"/pets/{MAX_ID}/sightings", 200),
    "map-located": ("server", "/map?lat=52.2297&lng=21.0122&range=500", 200),
    "map-empty": ("server", "/map?status=closed&species=rabbit", 200),
    "error-400-map": ("server", "/map?status=lost", 400),
    "error-400": ("server", "/pets?lat=1", 400),
    "error-404-pet": ("server", "/pets/does-not-exist", 404),
    "error-404-path": ("server", "/nope", 404),
    "error-502": ("down_server", "/pets", 502),
    "error-502-details": ("down_server", f"/pets/{MAX_ID}", 502),
    "xss-list": ("xss_server", "/pets", 200),
    "xss-details": ("xss_server", "/pets/xss-1", 200),
    "xss-map": ("xss_server", "/map", 200),
    "xss-poster": ("xss_server", "/pets/xss-1/poster", 200),
}

# The same checks on the Polish pages (?lang=pl chooses it), one of each kind.
POLISH = ["landing-located", "list-banner", "list-located", "list-page-2", "list-empty", "details",
          "details-no-photo", "error-400", "error-404-path", "error-502", "map", "map-located", "map-empty", "poster"]
PAGE_TYPES.update({
    f"pl-{name}": (PAGE_TYPES[name][0], PAGE_TYPES[name][1] + ("&" if "?" in PAGE_TYPES[name][1] else "?") + "lang=pl",
                   PAGE_TYPES[name][2])
    for name in POLISH
})
PAGE_TYPES["pl-error-400-lang"] = ("server", "/pets?lang=de", 400)

# The e-mail alerts' pages (docs/alerts.md): POST answers and pages of one-use mail tokens, walked once
# over HTTP by the `alert_pages` fixture (alert_support.collect_alert_pages) rather than fetched by path.
ALERT_PAGES = ["alert-pending", "pl-alert-pending", "alert-needs-place", "alert-bad-email", "alert-never-form",
               "alert-confirm", "pl-alert-confirm", "alert-active", "alert-manage", "pl-alert-manage",
               "alert-manage-saved", "alert-stop-form", "alert-stopped", "alert-unknown"]
# The HTML parts of the mails, validated as the documents they are (`<!doctype html>`).
ALERT_MAILS = ["mail-confirm-html", "mail-alert-html"]

# The owner's pages of a sighting (docs/sightings.md): behind the management code and its cookie, walked once over
# HTTP by the `owner_pages` fixture (sighting_support.collect_owner_pages).
OWNER_PAGES = ["owner-page", "pl-owner-page", "owner-wrong-code", "owner-reunited", "details-reunited"]
