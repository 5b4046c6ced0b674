import WebApp

// Representative view models of every page template, filled as the pages fill them (20 cards on a
// list page, 5 on the landing page, a located visitor, a full details page), so the template
// benchmark (Sources/template-benchmark, scripts/bench/templates.sh) and CompiledTemplatesTests
// render what the site renders. A test-support target, not part of the shipped WebApp: it fills the
// models through their `package` access (their memberwise initializers written by `@TemplateFields`);
// WebApp's public API does not show them (docs/architecture.md).

/// A page template and a view model of the shape the site renders it with.
package struct TemplateSample: Sendable {
    /// What the sample is, e.g. "list (20 cards)".
    package let label: String
    /// The template's name below Templates/, e.g. `list` or `partials/card`.
    package let template: String
    /// The view model, as both renderers take it.
    package let model: any Sendable
}

/// Sample view models for every page template (see `TemplateSample`).
package enum TemplateSamples {
    /// One sample per page template, the list page with `listCards` cards and the map with `mapPlaces` places.
    package static func all(listCards: Int = 20, mapPlaces: Int = 20) -> [TemplateSample] {
        [
            TemplateSample(label: "list (\(listCards) cards)", template: "list", model: list(cards: listCards)),
            TemplateSample(label: "details", template: "details", model: details()),
            TemplateSample(label: "map (\(mapPlaces) places)", template: "map", model: map(places: mapPlaces)),
            TemplateSample(label: "landing (5 cards)", template: "landing", model: landing()),
            TemplateSample(label: "error (404)", template: "error", model: error()),
            TemplateSample(label: "poster", template: "poster", model: poster()),
            TemplateSample(label: "card partial", template: "partials/card", model: card(0)),
            TemplateSample(label: "report form", template: "report", model: reportForm()),
            TemplateSample(label: "report result", template: "report-result", model: reportResult()),
            TemplateSample(label: "report photo", template: "report-photo", model: photoForm()),
            TemplateSample(label: "possible matches", template: "matches", model: matchesPage()),
            TemplateSample(label: "alert manage page", template: "alert", model: alertManage()),
            TemplateSample(label: "alert mail (HTML)", template: "mail/alert-html", model: alertMail()),
            TemplateSample(label: "alert mail (text)", template: "mail/alert-text", model: alertMail()),
            TemplateSample(label: "confirmation mail (HTML)", template: "mail/confirm-html", model: confirmationMail()),
            TemplateSample(label: "confirmation mail (text)", template: "mail/confirm-text", model: confirmationMail()),
            TemplateSample(label: "sighting form", template: "sighting", model: sightingPage(owner: false)),
            TemplateSample(label: "owner's sightings", template: "sighting", model: sightingPage(owner: true)),
            TemplateSample(label: "sighting mail (HTML)", template: "mail/sighting-html", model: sightingMail()),
            TemplateSample(label: "sighting mail (text)", template: "mail/sighting-text", model: sightingMail()),
        ]
    }

    private static func alertManage() -> AlertPageModel {
        var model = AlertPageModel(layout: layout())
        model.heading = "Manage your alert"
        model.isManage = true
        model.action = "/alerts/manage/0123456789abcdef0123456789abcdef?lang=en"
        model.what = "Missing dogs within 5 km of 52.230, 21.010"
        model.saved = true
        model.hasRanges = true
        model.frequencyOptions = [
            ChoiceModel(value: "instant", label: "As they come", selected: true, id: "alert-instant"),
            ChoiceModel(value: "daily", label: "Once a day", selected: false, id: "alert-daily"),
        ]
        model.rangeOptions = [1, 5, 10].map { OptionModel(value: String($0), label: "\($0) km", selected: $0 == 5) }
        model.languageOptions = [
            OptionModel(value: "en", label: "English", selected: true), OptionModel(value: "pl", label: "Polski", selected: false),
        ]
        return model
    }

    private static func alertMail() -> MailModel {
        var model = MailModel(what: "Missing dogs within 5 km of 52.230, 21.010")
        model.pets = (0..<3).map { index in
            MailPetModel(
                id: "a1b2c3d4-100\(index)",
                detailURL: "https://petspot.example/pets/a1b2c3d4-100\(index)?lang=en",
                name: index == 1 ? "Max & <Rex>" : "Max",
                speciesLabel: "Dog",
                statusLabel: "MISSING",
                placeText: "Mokotów, Warszawa",
                distanceText: index == 2 ? nil : "1.2 km away",
                reportAgeText: "Reported today",
                photoURL: index == 0 ? "https://petspot.example/images/a.jpg?w=640&format=jpeg" : nil,
                photoAlt: "Photo of Max, a dog",
                reasons: index == 0 ? [MailReasonModel(text: "2.1 km apart")] : []
            )
        }
        model.moreText = "and 4 more"
        model.allURL = "https://petspot.example/pets?lat=52.2300&lng=21.0100&range=5&lang=en"
        model.manageURL = "https://petspot.example/alerts/manage/0123456789abcdef0123456789abcdef?lang=en"
        model.stopURL = "https://petspot.example/alerts/stop/0123456789abcdef0123456789abcdef"
        return model
    }

    private static func sightingPage(owner: Bool) -> SightingPageModel {
        var model = SightingPageModel(layout: layout(), heading: "I've seen Max")
        model.detailsURL = "/pets/a1b2c3d4-1001?lang=en"
        if owner {
            model.isOwner = true
            model.hasSightings = true
            model.sightings = [
                SightingItemModel(
                    id: "0123456789abcdef0123456789abcdef",
                    ago: "2 hours ago",
                    when: "2026-12-01 14:30",
                    whenISO: "2026-12-01T13:30:00Z",
                    place: "Krzyki, Wrocław",
                    distance: "1.2 km from where it was last seen",
                    mapURL: "https://www.openstreetmap.org/?mlat=51.1&mlon=17.03#map=16/51.1/17.03",
                    latitude: "51.1",
                    longitude: "17.03",
                    note: "Ran <east> & away",
                    contact: "+48 600 100 200",
                    photoURL: "/pets/a1b2c3d4-1001/sightings/0123456789abcdef0123456789abcdef/photo"
                )
            ]
            model.reunited = ReunitedFormModel(
                action: "/pets/a1b2c3d4-1001/sightings/reunited?lang=en",
                lang: "en",
                lead: "Is your pet home?",
                button: "We are reunited",
                homeText: "Reunited: Max & <Rex> has been home since Dec 01, 2026.",
                mayUndo: true
            )
        } else {
            model.problem = "Too many sightings from here."
            model.form = SightingFormModel(
                action: "/pets/a1b2c3d4-1001/sighting?lang=en",
                lang: "en",
                isFound: false,
                note: "by the <river>",
                seenAt: "2026-12-01T14:30",
                latitude: "",
                longitude: "",
                place: "Krzyki",
                contact: "",
                hasLocation: false,
                centerLatitude: "51.1079",
                centerLongitude: "17.0385",
                noteError: nil,
                seenAtError: "That time is in the future.",
                placeError: nil,
                contactError: nil,
                photoError: nil,
                errorCount: "1 problem to fix"
            )
        }
        return model
    }

    private static func sightingMail() -> MailModel {
        var model = MailModel(what: "Max & <Rex>")
        model.sightings = [
            MailSightingModel(
                when: "2026-12-01 14:30",
                place: "Krzyki, Wrocław",
                mapURL: "https://www.openstreetmap.org/?mlat=51.1&mlon=17.03#map=16/51.1/17.03",
                note: "Ran <east> & away",
                contact: nil,
                hasPhoto: true
            )
        ]
        model.ownerURL = "https://petspot.example/pets/a1b2c3d4-1001/sightings?lang=en"
        model.stopURL = "https://petspot.example/alerts/stop/0123456789abcdef0123456789abcdef"
        return model
    }

    private static func confirmationMail() -> MailModel {
        var model = MailModel(what: "Missing dogs within 5 km of 52.230, 21.010")
        model.isConfirm = true
        model.confirmURL = "https://petspot.example/alerts/confirm/0123456789abcdef0123456789abcdef?lang=en"
        model.neverURL = "https://petspot.example/alerts/never/0123456789abcdef0123456789abcdef?lang=en"
        return model
    }

    private static func matchesPage() -> MatchesPageModel {
        var section = details().matches
        section = section.map { MatchSectionModel(title: $0.title, lead: $0.lead, cards: $0.cards, allURL: nil, allText: $0.allText) }
        return MatchesPageModel(
            layout: layout(),
            staleNotice: nil,
            heading: "Possible matches for Max",
            backURL: "/pets/a1b2c3d4-1000",
            matches: section,
            matchesFeedURL: "/pets/a1b2c3d4-1000/matches.atom?lang=en"
        )
    }

    private static func layout(isHome: Bool = false, isList: Bool = false, isMap: Bool = false) -> LayoutModel {
        var layout = LayoutModel(
            pageTitle: "Lost and found pets near you · PetSpot",
            metaDescription: "Missing and found pets reported near you.",
            canonicalURL: "https://petspot.example/pets",
            ogTitle: "Lost and found pets near you",
            ogDescription: "Missing and found pets reported near you.",
            ogImage: "https://petspot.example/img/og.png",
            ogType: "website",
            twitterCard: "summary_large_image",
            homeURL: "/?lat=51.1079&lng=17.0385",
            listURL: "/pets?lat=51.1079&lng=17.0385",
            mapURL: "/map?lat=51.1079&lng=17.0385",
            isHome: isHome,
            isList: isList,
            isMap: isMap,
            hasMap: true,
            locationState: "known"
        )
        layout.feedURL = "/pets.atom?lat=51.1079&lng=17.0385"
        layout.feedTitle = "Lost and found pets near you (Atom)"
        return layout
    }

    private static func card(_ index: Int) -> CardModel {
        CardModel(
            id: "a1b2c3d4-\(1000 + index)",
            detailURL: "/pets/a1b2c3d4-\(1000 + index)?lat=51.1079&lng=17.0385",
            name: ["Max", "Luna", "Burek", "Mruczek", "Unnamed pet"][index % 5],
            speciesLabel: ["Dog", "Cat", "Other"][index % 3],
            statusLabel: ["MISSING", "FOUND"][index % 2],
            statusClass: ["missing", "found"][index % 2],
            photoURL: "/images/a1b2c3d4-\(1000 + index)/0?w=640",
            photoSrcset: "/images/a1b2c3d4-\(1000 + index)/0?w=320 320w, /images/a1b2c3d4-\(1000 + index)/0?w=640 640w",
            photoAlt: "Photo of Max, a dog",
            breed: index % 3 == 0 ? "Golden Retriever" : nil,
            lastSeenText: "Nov 18, 2025",
            placeText: "ul. Świdnicka 12, Wrocław",
            distanceText: "\(index % 9).\(index % 7) km away",
            rewardText: index % 4 == 0 ? "Reward 500 PLN" : nil,
            excerpt: "Very friendly, answers to her name, wears a red collar with a bell. Last seen near the park gate in the evening.",
            reportAgeText: "Reported 3 days ago",
            placeName: "Krzyki, Wrocław"
        )
    }

    private static func options(_ values: [(String, String)], selected: Int) -> [OptionModel] {
        values.enumerated().map { OptionModel(value: $0.element.0, label: $0.element.1, selected: $0.offset == selected) }
    }

    private static func list(cards count: Int) -> ListPageModel {
        ListPageModel(
            layout: layout(isList: true),
            banner: nil,
            staleNotice: nil,
            heading: "Lost and found pets",
            resultSummary: "124 pets within 15 km of you",
            mapURL: "/map?lat=51.1079&lng=17.0385",
            cards: (0..<count).map(card),
            hasCards: count > 0,
            emptyMessage: "No pets match these filters.",
            clearFiltersURL: nil,
            statusOptions: options([("", "Any status"), ("missing", "Missing"), ("found", "Found")], selected: 0),
            speciesOptions: options([("", "Any species"), ("dog", "Dogs"), ("cat", "Cats"), ("other", "Other")], selected: 0),
            sortOptions: options([("newest", "Newest first"), ("nearest", "Nearest first")], selected: 1),
            hiddenFields: [HiddenField(name: "lat", value: "51.1079"), HiddenField(name: "lng", value: "17.0385")],
            pagination: PaginationModel(previousURL: nil, nextURL: "/pets?lat=51.1079&lng=17.0385&page=2", summary: "Page 1 of 7")
        )
    }

    private static func landing() -> LandingPageModel {
        LandingPageModel(
            layout: layout(isHome: true),
            banner: nil,
            staleNotice: nil,
            cards: (0..<5).map(card),
            hasCards: true,
            emptyMessage: "Nothing reported near you yet.",
            viewAllURL: "/pets?lat=51.1079&lng=17.0385",
            nearbyText: "Within 15 km of you"
        )
    }

    private static func details() -> DetailsPageModel {
        var model = DetailsPageModel(
            layout: layout(),
            staleNotice: nil,
            id: "a1b2c3d4-1000",
            name: "Max",
            statusLabel: "MISSING",
            statusClass: "missing",
            rewardText: "Reward 500 PLN",
            photoURL: "/images/a1b2c3d4-1000/0?w=1280",
            photoSrcset: "/images/a1b2c3d4-1000/0?w=640 640w, /images/a1b2c3d4-1000/0?w=1280 1280w",
            photoFullURL: "/images/a1b2c3d4-1000/0",
            photoAlt: "Photo of Max, a dog",
            subtitle: "Dog · Golden Retriever",
            rows: [
                DetailRow(label: "Species", value: "Dog", href: nil), DetailRow(label: "Breed", value: "Golden Retriever", href: nil),
                DetailRow(label: "Sex", value: "Male", href: nil), DetailRow(label: "Age", value: "3 years", href: nil),
                DetailRow(label: "Last seen", value: "Nov 18, 2025, 18:30", href: nil),
                DetailRow(
                    label: "Place",
                    value: "ul. Świdnicka 12, Wrocław",
                    href: "https://www.openstreetmap.org/?mlat=51.1&mlon=17.03#map=16/51.1/17.03"
                ),
                DetailRow(label: "Distance", value: "2.3 km away", href: nil), DetailRow(label: "Microchip", value: "616093900123456", href: nil),
            ],
            description: "Very friendly, answers to his name, wears a red collar with a bell.\nLast seen near the park gate in the evening.",
            mapURL: "https://www.openstreetmap.org/?mlat=51.1&mlon=17.03",
            pinMap: PinMapModel(
                latitude: "51.1",
                longitude: "17.03",
                statusClass: "missing",
                label: "Map of where Max was last seen",
                tileURL: "/tiles/{z}/{x}/{y}.png"
            ),
            phoneHref: "tel:+48601234567",
            phoneText: "+48 601 234 567",
            emailHref: "mailto:owner@example.com",
            emailText: "owner@example.com",
            shareURL: "https://petspot.example/pets/a1b2c3d4-1000",
            shareTitle: "Max — missing dog",
            backURL: "/pets?lat=51.1079&lng=17.0385",
            photoFullText: "Open photo",
            shareLead: "Share this announcement",
            reportAgeText: "Reported 3 days ago",
            posterURL: "/pets/a1b2c3d4-1000/poster"
        )
        model.matches = MatchSectionModel(
            title: "Could this be the same pet?",
            lead: "Found pets reported near where this pet was lost, around the same time.",
            cards: [
                MatchCardModel(
                    id: "a1b2c3d4-2000",
                    detailURL: "/pets/a1b2c3d4-2000",
                    name: "Unnamed pet",
                    kind: "Dog · golden retriever",
                    statusLabel: "FOUND",
                    statusClass: "found",
                    thumbURL: "/images/a1b2c3d4-2000/0?w=320",
                    thumbAlt: "Photo of Unnamed pet, a dog",
                    lastSeenText: "Nov 20, 2025",
                    placeText: "Krzyki, Wrocław",
                    certainText: nil,
                    reasons: ["2.1 km apart", "found 2 days after it was lost", "same breed (golden retriever)"].map(MatchReasonModel.init)
                )
            ],
            allURL: "/pets/a1b2c3d4-1000/matches",
            allText: "All possible matches (1)"
        )
        model.matchesFeedURL = "/pets/a1b2c3d4-1000/matches.atom?lang=en"
        return model
    }

    private static func map(places count: Int) -> MapPageModel {
        MapPageModel(
            layout: layout(isMap: true),
            banner: nil,
            staleNotice: nil,
            heading: "Lost and found pets on the map",
            resultSummary: "\(count) pets within 15 km of you",
            listURL: "/pets?lat=51.1079&lng=17.0385",
            mapLabel: "Map of \(count) pets",
            tileURL: "/tiles/{z}/{x}/{y}.png",
            visitorLatitude: "51.1079",
            visitorLongitude: "17.0385",
            rangeMeters: "15000",
            places: (0..<count).map { index in
                MapPlaceModel(
                    card: card(index),
                    thumbnailURL: "/images/a1b2c3d4-\(1000 + index)/0?w=320",
                    latitude: "51.1\(index)",
                    longitude: "17.0\(index)",
                    mapURL: "https://www.openstreetmap.org/?mlat=51.1&mlon=17.0"
                )
            },
            hasPlaces: count > 0,
            emptyMessage: "No pets match these filters."
        )
    }

    private static func error() -> ErrorPageModel {
        ErrorPageModel(
            layout: layout(),
            status: 404,
            heading: "Page not found",
            message: "This announcement does not exist or was removed.",
            retryURL: nil,
            listURL: "/pets",
            homeURL: "/"
        )
    }

    private static func poster() -> PosterPageModel {
        PosterPageModel(
            layout: layout(),
            id: "a1b2c3d4-1000",
            headline: "LOST",
            statusClass: "missing",
            name: "Max",
            kind: "Dog · Golden Retriever",
            photoURL: "/images/a1b2c3d4-1000/0?w=1280",
            photoAlt: "Photo of Max, a dog",
            sexText: "Male",
            ageText: "3 years",
            placeText: "Krzyki, Wrocław",
            lastSeenText: "Nov 18, 2025",
            description: "Very friendly, wears a red collar with a bell.",
            rewardText: "Reward 500 PLN",
            phoneText: "+48 601 234 567",
            emailText: "owner@example.com",
            qrPath: "M0 0h7v7h-7zM9 0h1v1h-1zM14 0h7v7h-7z",
            qrSize: 29,
            shareURL: "https://petspot.example/pets/a1b2c3d4-1000",
            detailsURL: "/pets/a1b2c3d4-1000",
            qrLabel: "QR code: the announcement's address"
        )
    }

    private static func field(_ value: String, error: String? = nil) -> FieldModel { FieldModel(value: value, error: error) }

    private static func reportForm() -> ReportFormModel {
        ReportFormModel(
            layout: layout(),
            heading: "Report a missing pet",
            isFound: false,
            action: "/report",
            problem: "Please correct 2 fields.",
            problemCount: "2 problems",
            errors: [
                FieldErrorModel(field: "Name", anchor: "#petName", message: "Give the pet's name or leave it empty."),
                FieldErrorModel(field: "Phone", anchor: "#phone", message: "A phone number has 9 to 15 digits."),
            ],
            submission: "5f0c2a",
            keptPhoto: "tmp-1234",
            keptPhotoText: "Your photo is kept: max.jpg",
            statusOptions: [
                ChoiceModel(value: "missing", label: "Missing", selected: true, id: "status-missing"),
                ChoiceModel(value: "found", label: "Found", selected: false, id: "status-found"),
            ],
            statusError: nil,
            speciesOptions: options([("dog", "Dog"), ("cat", "Cat"), ("other", "Other")], selected: 0),
            speciesError: nil,
            sexOptions: [
                ChoiceModel(value: "male", label: "Male", selected: true, id: "sex-male"),
                ChoiceModel(value: "female", label: "Female", selected: false, id: "sex-female"),
            ],
            sexError: nil,
            petName: field("Max", error: "Give the pet's name or leave it empty."),
            breed: field("Golden Retriever"),
            age: field("3"),
            description: field("Red collar with a bell."),
            microchipNumber: field(""),
            lastSeenDate: field("2025-11-18"),
            today: "2025-11-20",
            locationLatitude: field("51.1079"),
            locationLongitude: field("17.0385"),
            email: field("owner@example.com"),
            phone: field("60123", error: "A phone number has 9 to 15 digits."),
            contactError: nil,
            reward: field("500"),
            photoError: nil,
            tileURL: "/tiles/{z}/{x}/{y}.png"
        )
    }

    private static func reportResult() -> ReportResultModel {
        ReportResultModel(
            layout: layout(),
            petID: "a1b2c3d4-1000",
            petURL: "/pets/a1b2c3d4-1000",
            shareURL: "https://petspot.example/pets/a1b2c3d4-1000",
            managementPassword: "k3-Vq9-xT2",
            photoUploaded: false,
            retryAction: "/report/a1b2c3d4-1000/photo",
            keptPhoto: "tmp-1234"
        )
    }

    private static func photoForm() -> PhotoFormModel {
        PhotoFormModel(
            layout: layout(),
            action: "/report/a1b2c3d4-1000/photo",
            petID: "a1b2c3d4-1000",
            problem: "The photo could not be read.",
            codeError: nil,
            photoError: "Send a JPEG, PNG, WebP or HEIC photo.",
            keptPhoto: nil,
            keptPhotoText: nil
        )
    }
}
