import Foundation
import TestSupport
import Testing

@testable import WebApp

/// The languages (docs/languages.md) over HTTP: every page kind in both languages, chosen by `?lang` or `Accept-Language`,
/// kept by links, announced by `hreflang`, and never served from a cache to the other language.
@Suite("Pages in Polish and English")
struct LanguagePagesTests {
    /// Two pets with everything the formats show: a date, sex, age, reward, coordinates.
    static let listJSON = PageJSON.list([
        PageJSON.item(
            "lang-max",
            name: "Max",
            overrides: [
                "sex": "MALE", "age": 2, "reward": "500 PLN", "lastSeenDate": "2025-11-18", "status": "MISSING",
                "createdAt": "2025-11-20T10:00:00.000Z", "updatedAt": "2025-11-20T10:00:00.000Z",
            ]
        ),
        PageJSON.item(
            "lang-luna",
            name: "Luna",
            overrides: [
                "species": "CAT", "sex": "FEMALE", "age": 5, "lastSeenDate": "2025-05-05", "status": "FOUND",
                "locationLatitude": 52.25, "locationLongitude": 21.05,
            ]
        ),
    ])

    /// Every page kind: landing, list, details, located list, banner, 404 and a 400.
    static let pageKinds = [
        "/", "/pets", "/pets/lang-max", "/pets?lat=52.2297&lng=21.0122", "/pets?location=denied",
        "/no-such-page", "/pets?lat=500&lng=1", "/map", "/map?lat=52.2297&lng=21.0122",
    ]

    static func htmlLang(_ html: String) -> String? {
        PageHTML.captures(#"<html lang="([a-z]+)">"#, in: html).first
    }

    /// The `href` of `<link rel="alternate" hreflang="<code>">`.
    static func alternate(_ code: String, in html: String) -> String? {
        PageHTML.captures(#"<link rel="alternate" hreflang="\#(code)" href="([^"]*)">"#, in: html).first.map(PageHTML.unescape)
    }

    @Test func lang_parameter_decides_every_page_kind_whatever_the_header() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            for path in Self.pageKinds {
                for (code, header) in [("pl", "en-US,en;q=0.9"), ("en", "pl-PL,pl;q=0.9")] {
                    let url = path + (path.contains("?") ? "&" : "?") + "lang=" + code
                    let page = try await app.get(url, headers: ["Accept-Language": header])
                    #expect(Self.htmlLang(page.text) == code, "\(url)")
                    #expect(page.header("Content-Language") == code, "\(url)")
                    #expect(page.header("Vary")?.contains("Accept-Language") != true, "\(url): the URL decided")
                }
            }
        }
    }

    @Test func accept_language_decides_without_lang_and_the_answer_varies_by_it() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let cases: [(String?, String)] = [
                (nil, "en"), ("pl", "pl"), ("pl-PL,pl;q=0.9,en-US;q=0.8", "pl"), ("en-GB,en;q=0.9,pl;q=0.8", "en"),
                ("en;q=0.4, pl;q=0.6", "pl"), ("de-DE, pl;q=0.5", "pl"), ("de, fr", "en"), ("pl;q=0, en;q=0.1", "en"),
            ]
            for path in Self.pageKinds {
                for (header, expected) in cases {
                    let page = try await app.get(path, headers: header.map { ["Accept-Language": $0] } ?? [:])
                    #expect(Self.htmlLang(page.text) == expected, "\(path) with \(header ?? "no header")")
                    #expect(page.header("Content-Language") == expected, "\(path) with \(header ?? "no header")")
                    #expect(page.header("Vary")?.contains("Accept-Language") == true, "\(path)")
                }
            }
        }
    }

    @Test func every_link_and_form_keeps_the_lang_the_url_chose() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            for path in [
                "/?lang=pl", "/pets?lang=pl&status=missing", "/pets?lang=pl&lat=52.2297&lng=21.0122", "/pets/lang-max?lang=pl",
                "/pets?lang=pl&location=denied",
            ] {
                let html = try await app.get(path).text
                let own = PageHTML.hrefs(html).filter { $0.hasPrefix("/") && !$0.hasPrefix("/static/") && !$0.hasPrefix("/images/") }
                #expect(!own.isEmpty)
                for link in own {
                    let lang = PageHTML.query(of: link)["lang"]
                    // The switch's English link is the one that changes it.
                    #expect(
                        lang == "pl"
                            || (lang == "en" && html.contains(#"href="\#(link.replacingOccurrences(of: "&", with: "&amp;"))" hreflang="en""#)),
                        "\(path): \(link)"
                    )
                }
                if html.contains("<form") {
                    #expect(html.contains(#"<input type="hidden" name="lang" value="pl">"#), "\(path)")
                }
            }
            // Without `lang` in the URL, links leave it out: the next page negotiates again.
            let negotiated = try await app.get("/pets", headers: ["Accept-Language": "pl"]).text
            let links = PageHTML.hrefs(negotiated).filter { $0.hasPrefix("/pets") && !$0.contains("hreflang") }
            #expect(links.contains { PageHTML.query(of: $0)["lang"] == nil })
        }
    }

    @Test func hreflang_alternates_and_the_switch_keep_the_page_and_its_query() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let html = try await app.get("/pets?status=missing&species=dog&lang=pl").text
            #expect(Self.alternate("pl", in: html) == "https://petspot.example/pets?status=missing&species=dog&lang=pl")
            #expect(Self.alternate("en", in: html) == "https://petspot.example/pets?status=missing&species=dog&lang=en")
            #expect(Self.alternate("x-default", in: html) == "https://petspot.example/pets?status=missing&species=dog")
            #expect(html.contains(#"<a href="/pets?status=missing&amp;species=dog&amp;lang=en" hreflang="en" lang="en">English</a>"#))
            #expect(
                html.contains(#"<a href="/pets?status=missing&amp;species=dog&amp;lang=pl" hreflang="pl" lang="pl" aria-current="true">Polski</a>"#)
            )
            for path in Self.pageKinds {
                let page = try await app.get(path).text
                for code in ["pl", "en", "x-default"] { #expect(Self.alternate(code, in: page) != nil, "\(path) \(code)") }
            }
            let details = try await app.get("/pets/lang-max?lat=52.2&lng=21").text
            #expect(Self.alternate("pl", in: details) == "https://petspot.example/pets/lang-max?lat=52.2&lng=21&lang=pl")
        }
    }

    @Test func polish_pages_speak_polish_with_polish_formats() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let details = try await app.get("/pets/lang-max?lang=pl&lat=52.2&lng=21.0").text
            for text in [
                "♂ Samiec", "2 lata", "18 lis 2025", "Nagroda 500 PLN", "52,2297° N, 21,0122° E", "km stąd", "ZAGINIONE",
                "<title>Max — zaginiony pies · PetSpot</title>", "Udostępnij", "Wróć do listy zwierząt", "Zdjęcie: Max, pies",
                #"data-share-copied="Link skopiowany""#, "Pokaż na mapie", "Wszystkie zwierzęta",
            ] {
                #expect(details.contains(text), "details: \(text)")
            }
            #expect(!details.contains("Last seen"))
            #expect(PageHTML.meta("og:locale", in: details) == "pl_PL")
            #expect(PageHTML.meta("og:url", in: details) == "https://petspot.example/pets/lang-max?lang=pl")
            #expect(details.contains(#"data-share-url="https://petspot.example/pets/lang-max?lang=pl""#))

            let list = try await app.get("/pets?lang=pl").text
            for text in [
                "Zaginione i znalezione zwierzęta", "2 zwierzęta", "5 maj 2025", "Ostatnio widziane", "Dowolny status",
                "Najnowsze", "Zastosuj", "ZNALEZIONE", "Kot",
            ] {
                #expect(list.contains(text), "list: \(text)")
            }
            let located = try await app.get("/pets?lang=pl&lat=52.2297&lng=21.0122&range=20").text
            #expect(located.contains("2 zwierzęta w promieniu 20 km od Ciebie"))
            #expect(PageHTML.texts(ofTestID: "distance", in: located).allSatisfy { $0.hasSuffix(" km stąd") && $0.contains(",") })
            #expect(PageHTML.texts(ofTestID: "distance", in: located).count == 2)

            let landing = try await app.get("/?lang=pl&lat=52.2297&lng=21.0122").text
            #expect(landing.contains("W promieniu 10 km od Ciebie"))
            #expect(landing.contains("Ostatnie zgłoszenia"))

            let english = try await app.get("/pets/lang-max?lat=52.2&lng=21.0").text
            for text in ["♂ Male", "2 years", "Nov 18, 2025", "Reward 500 PLN", "52.2297° N, 21.0122° E", "km away", "MISSING"] {
                #expect(english.contains(text), "English details: \(text)")
            }
        }
    }

    @Test func the_map_speaks_polish_too() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let map = try await app.get("/map?lang=pl&lat=52.2297&lng=21.0122&range=20").text
            for text in [
                "<title>Mapa: Zaginione i znalezione zwierzęta · PetSpot</title>", "Zaginione i znalezione zwierzęta na mapie",
                #"aria-label="Mapa: 2 zwierzęta""#, "Miejsca tych zwierząt", #"data-zoom-in="Przybliż""#, #"data-visitor-label="Tu jesteś""#,
                #"data-attribution="© autorzy OpenStreetMap""#, "2 zwierzęta w promieniu 20 km od Ciebie", "Ostatnio widziane 18 lis 2025",
                ">Lista<span", "km stąd",
            ] {
                #expect(map.contains(text), "map: \(text)")
            }
            let details = try await app.get("/pets/lang-max?lang=pl").text
            #expect(details.contains(#"aria-label="Mapa miejsca, w którym ostatnio widziano zwierzę: Max""#))
            #expect(details.contains("Nie udało się wczytać tła mapy, więc pinezka jest pokazana na zwykłym tle."))
            let list = try await app.get("/pets?lang=pl&status=missing").text
            #expect(list.contains(#"href="/map?status=missing&amp;lang=pl" data-testid="map-link">Mapa<span"#))
            let geoJSON = try await app.get("/api/v1/announcements.geojson", headers: ["Accept-Language": "pl"])
            let english = try await app.get("/api/v1/announcements.geojson")
            #expect(geoJSON.body == english.body)
        }
    }

    @Test func the_polish_banner_mirrors_the_mobile_apps() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let html = try await app.get("/pets?location=denied", headers: ["Accept-Language": "pl-PL"]).text
            let banner = try #require(PageHTML.section("location-banner", tag: "section", in: html))
            #expect(banner.contains("Wymagany dostęp do lokalizacji"))
            #expect(banner.contains("Włącz dostęp do lokalizacji w ustawieniach przeglądarki, aby zobaczyć zwierzęta w pobliżu."))
            #expect(banner.contains(">Spróbuj ponownie</a>"))
            #expect(banner.contains(#"aria-label="Zamknij""#))
        }
    }

    @Test func error_and_400_pages_follow_the_page_language() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let unknownLang = try await app.get("/pets?lang=de", headers: ["Accept-Language": "pl"])
            #expect(unknownLang.status == 400)
            #expect(unknownLang.text.contains("Parametr „lang” jest nieprawidłowy: lang musi mieć wartość pl lub en."))
            #expect(Self.htmlLang(unknownLang.text) == "pl")
            let unknownEnglish = try await app.get("/pets/lang-max?lang=xx")
            #expect(unknownEnglish.status == 400)
            #expect(unknownEnglish.text.contains("The parameter ‘lang’ is not valid: lang must be pl or en."))

            let badLat = try await app.get("/pets?lat=91&lng=0&lang=pl")
            #expect(badLat.status == 400)
            #expect(badLat.text.contains("lat musi być liczbą od -90 do 90."))
            #expect(badLat.text.contains("Sprawdź adres"))
            let notFound = try await app.get("/nowhere?lang=pl")
            #expect(notFound.status == 404)
            #expect(notFound.text.contains("Pod tym adresem nie ma strony."))
            #expect(notFound.text.contains("Błąd 404"))
            let noPage = try await app.get("/pets?page=9", headers: ["Accept-Language": "pl"])
            #expect(noPage.status == 404)
            #expect(noPage.text.contains("Ta lista nie ma strony 9: ma 1 stronę."))
        }
    }

    @Test func answers_the_server_makes_itself_follow_accept_language() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let polish = try await app.get("/pets", method: "POST", headers: ["Accept-Language": "pl-PL,pl;q=0.9"])
            #expect(polish.status == 405)
            #expect(polish.header("Allow") == "GET, HEAD")
            #expect(Self.htmlLang(polish.text) == "pl")
            #expect(polish.text.contains("Metoda POST jest niedozwolona."))
            #expect(polish.header("X-Request-Id") != nil)
            let english = try await app.get("/pets", method: "POST")
            #expect(english.status == 405)
            #expect(english.text.contains("Method POST is not allowed."))
            #expect(Self.htmlLang(english.text) == "en")
        }
    }

    @Test func the_json_api_is_the_same_in_every_language() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            let plain = try await app.get("/api/v1/announcements")
            let polish = try await app.get("/api/v1/announcements?lang=pl", headers: ["Accept-Language": "pl"])
            #expect(plain.body == polish.body)
            #expect(polish.header("Content-Language") == nil)
            let bad = try await app.get("/api/v1/announcements?lat=95&lng=0", headers: ["Accept-Language": "pl"])
            #expect(bad.status == 400)
            #expect(bad.text.contains("lat must be a number from -90 to 90."))
        }
    }

    @Test(arguments: ["/", "/pets", "/pets/lang-max", "/pets?lat=52.2297&lng=21.0122", "/pets?status=found", "/map"])
    func caches_never_give_one_languages_page_to_the_other(path: String) async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            // Enough repeats for every cache: the page cache keeps a page made twice, the server
            // keeps it for the URL once asked again; languages interleaved in both orders.
            var englishTag: String?
            for round in 0..<5 {
                for header in round % 2 == 0 ? ["pl-PL", "en-US", "de"] : ["de", "en-US", "pl-PL"] {
                    let page = try await app.get(path, headers: ["Accept-Language": header])
                    let expected = header == "pl-PL" ? "pl" : "en"
                    #expect(page.status == 200)
                    #expect(Self.htmlLang(page.text) == expected, "\(path) round \(round) \(header)")
                    #expect(page.header("Content-Language") == expected)
                    if expected == "en" { englishTag = page.header("ETag") }
                }
            }
            // A Polish visitor's cache holding the English page's ETag gets the Polish page, not a 304.
            let revalidated = try await app.get(path, headers: ["Accept-Language": "pl", "If-None-Match": try #require(englishTag)])
            #expect(revalidated.status == 200)
            #expect(Self.htmlLang(revalidated.text) == "pl")
        }
    }

    @Test func two_accept_language_fields_cannot_put_a_page_under_the_other_languages_key() async throws {
        try await withApp(listJSON: Self.listJSON) { app in
            // The first field decides for the pages as for the server's kept answers.
            let request = "GET /pets HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nAccept-Language: pl\r\nConnection: close\r\n\r\n"
            for _ in 0..<4 {
                let answer = await rawSend(port: app.app.port, text: request)
                #expect(answer.contains(#"<html lang="en">"#))
            }
            for _ in 0..<3 {
                let english = try await app.get("/pets", headers: ["Accept-Language": "de"])
                #expect(Self.htmlLang(english.text) == "en")
                let polish = try await app.get("/pets", headers: ["Accept-Language": "pl"])
                #expect(Self.htmlLang(polish.text) == "pl")
            }
        }
    }
}
