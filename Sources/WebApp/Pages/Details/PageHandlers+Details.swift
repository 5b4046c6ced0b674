import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

extension PageHandlers {
    // MARK: - Details

    /// `GET /pets/{id}`: from the snapshot when it holds the id, else from the details endpoint.
    func details(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.details(id: id).path, query: request.query))
        }
        let pageURL: @Sendable (VisitorLocation) -> String = { QueryString.url(Route.details(id: id).path, $0.linkItems) }
        let key = location.pageKey(QueryString.url(Route.details(id: id).path, location.linkItems))
        return petPage(request, id: id, requestID: requestID, key: key, location: location, pageURL: pageURL, template: "details") {
            pet,
            _,
            staleNotice,
            day in
            var model = detailsModel(pet, staleNotice: staleNotice, location: location, day: day)
            model.matches = site.matchSection(for: pet, in: gateway.freshSnapshot()?.value, language: location.language)
            model.matchesFeedURL = SiteContext.matchesFeedURL(pet, language: location.language)
            return model
        }
    }

    /// The plan of a page about one pet (details, poster): from the fresh snapshot when it lists the
    /// id (kept like other pages, `PageCaches.cachedPage`), else from the details endpoint and made
    /// for this request only; an unknown id is the 404 page, a failed call the upstream's error page.
    /// `model` gets the pet, the snapshot generation it was listed in (nil when fetched apart), the
    /// stale notice of the data it came from, and the day its report age is worded for.
    func petPage<Model: ViewModel>(
        _ request: Request,
        id: String,
        requestID: String,
        key: String,
        location: VisitorLocation,
        pageURL: @escaping @Sendable (VisitorLocation) -> String,
        template: String,
        model: @escaping @Sendable (_ pet: Announcement, _ generation: Int?, _ staleNotice: String?, _ day: Int) -> Model
    ) -> RoutePlan {
        .needs(.announcement(id: id, gateway, requestID: requestID)) { source throws(HTTPError) in
            switch source {
            case .listed(let pet, let snapshot):
                return site.caches.cachedPage(request, key: key, snapshot: snapshot) { day in
                    site.renderer.page(
                        model(pet, snapshot.value.generation, staleNotice(snapshot, location), day),
                        template: template,
                        language: location.language
                    )
                }
            case .fetched(let fetched):
                // Fetched apart from the snapshot (not in the list): made for this request only.
                let page = site.renderer.page(
                    model(fetched.value, nil, staleNotice(fetched, location), site.days.today),
                    template: template,
                    language: location.language
                )
                return site.caches.reply(page, stale: fetched.isStale)
            case .failed(let error):
                throw petUnavailable(error, request: request, location: location, pageURL: pageURL)
            }
        }
    }

    /// The error for a pet the details endpoint could not give: 404 for an unknown id, else the
    /// upstream's failure with a "Try again" link.
    func petUnavailable(
        _ error: UpstreamFailure,
        request: Request,
        location: VisitorLocation,
        pageURL: @escaping @Sendable (VisitorLocation) -> String
    ) -> HTTPError {
        if case .notFound = error {
            return HTTPError(404, .errorPetNotFound, api: HTTPError.upstream(error).api).on(location, pageURL: pageURL)
        }
        return HTTPError(error.visitorStatus, .errorPetFailed, api: HTTPError.upstream(error).api)
            .on(location, retryURL: Self.sameURL(request), pageURL: pageURL)
    }

    private func detailsModel(_ pet: Announcement, staleNotice: String?, location: VisitorLocation, day: Int) -> DetailsPageModel {
        let texts = site.renderer.texts(location.language)
        let canonicalPath = Route.details(id: pet.id).path
        let name = texts.name(pet)
        // The heading shows the whole name; the title, share text and previews a card's shortened one.
        let shortName = Announcement.shortened(name, limit: Announcement.cardNameLimit)
        let phrase = texts.phrase(pet.status, pet.species)
        let shareText = texts(
            .detailsShareText,
            ("name", shortName),
            ("phrase", phrase),
            ("date", texts.date(pet.lastSeenDate)),
            ("place", texts.placeName(pet.nearestPlace) ?? texts.place(pet.place))
        )
        let photo = PhotoLinks(pet.photo, width: 1280)
        var layout = site.layout(
            title: texts(.pageTitle, ("title", texts(.detailsTitle, ("name", shortName), ("phrase", phrase)))),
            description: pet.excerpt(limit: 200) ?? shareText,
            canonicalPath: canonicalPath,
            ogImage: site.layout.absolutePhotoURL(pet.photo),
            ogType: "article",
            location: location,
            pageURL: { QueryString.url(canonicalPath, $0.linkItems) },
            hasMap: pet.place.coordinate != nil
        )
        // The sighting form's field styles (docs/sightings.md).
        layout.hasForm = pet.status != .closed && pet.reunitedAt == nil
        return DetailsPageModel(
            layout: layout,
            staleNotice: staleNotice,
            id: pet.id,
            name: name,
            statusLabel: texts.status(pet.status),
            statusClass: pet.status.rawValue,
            rewardText: texts.reward(of: pet),
            photoURL: photo?.src,
            photoSrcset: photo?.srcset,
            photoFullURL: photo?.full,
            photoAlt: texts.photoAlt(name: name, species: pet.species),
            subtitle: [texts.species(pet.species), pet.breed].compactMap { $0 }.joined(separator: " · "),
            rows: pet.detailRows(origin: location.origin, texts: texts),
            description: pet.description,
            mapURL: pet.mapURL,
            pinMap: pet.pinMap(texts: texts),
            phoneHref: pet.phoneLinkTarget,
            phoneText: pet.phone,
            emailHref: pet.email.map { "mailto:" + $0 },
            emailText: pet.email,
            shareURL: site.layout.baseURL + LayoutBuilder.withLanguage(canonicalPath, location.language),
            shareTitle: texts(.detailsShareTitle, ("name", name), ("phrase", phrase)),
            backURL: QueryString.url(Route.list.path, location.linkItems),
            photoFullText: texts(.detailsOpenPhotoFull, ("name", name)),
            shareLead: texts(.detailsShareLead, ("name", name)),
            reportAgeText: texts.reportAge(DayClock.age(of: pet.createdAt, on: day)),
            outdatedNotice: ReportAge.isOutdated(createdAt: pet.createdAt, today: day, zone: DayClock.zone) ? texts(.detailsOutdated) : nil,
            posterURL: QueryString.url(Route.poster(id: pet.id).path, location.language.linkItems),
            // The same for every visitor (no location in it), so the page stays one kept answer; a closed report has none.
            // A reunited pet's page says so instead (docs/sightings.md "Reunited"): no sighting is owed for it.
            reunitedText: pet.reunitedAt.map { at in
                let day = texts.date(CalendarDate(localDay: LocalDay.number(of: at, in: DayClock.zone)))
                return texts(pet.status == .found ? .reunitedBannerFound : .reunitedBanner, ("name", name), ("date", day))
            },
            sightingForm: pet.status == .closed || pet.reunitedAt != nil
                ? nil
                : SightingHandlers.formModel(pet: pet, values: SightingFormValues(), errors: [], texts: texts, language: location.language),
            sightingsURL: LayoutBuilder.withLanguage(Route.sightings(id: pet.id).path, location.language)
        )
    }
}
