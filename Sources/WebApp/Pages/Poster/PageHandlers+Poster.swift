import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

extension PageHandlers {
    /// `GET /pets/{id}/poster` (docs/poster.md): one printable A4 page with a big status line, the
    /// photo, the facts, the contact and a QR code of the pet's share link in the poster's language.
    /// From the snapshot (kept like other pages), else from the details endpoint; unknown id → 404 page.
    func poster(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.poster(id: id).path, query: request.query))
        }
        let pageURL: @Sendable (VisitorLocation) -> String = { QueryString.url(Route.poster(id: id).path, $0.language.linkItems) }
        let key = location.pageKey(pageURL(location))
        return petPage(request, id: id, requestID: requestID, key: key, location: location, pageURL: pageURL, template: "poster") {
            pet,
            generation,
            _,
            day in
            // A poster of a pet fetched apart (generation nil) makes its QR code for this request only.
            posterModel(pet, generation: generation, location: location, day: day)
        }
    }

    private func posterModel(_ pet: Announcement, generation: Int?, location: VisitorLocation, day: Int) -> PosterPageModel {
        let texts = site.renderer.texts(location.language)
        // A printed heading has room for a card's name, not for a paragraph (the page shows it whole).
        let name = Announcement.shortened(texts.name(pet), limit: Announcement.cardNameLimit)
        let phrase = texts.phrase(pet.status, pet.species)
        // The share link always names the poster's language, so a scan opens the page the poster was printed in.
        let shareURL = site.layout.baseURL + QueryString.url(Route.details(id: pet.id).path, [("lang", location.language.language.rawValue)])
        let code =
            generation.map { site.caches.posterCodes.code(for: shareURL, generation: $0) }
            ?? PosterCodes().code(for: shareURL, generation: 0)
        let canonicalPath = Route.poster(id: pet.id).path
        return PosterPageModel(
            layout: site.layout(
                title: texts(.pageTitle, ("title", texts(.posterTitle, ("name", name), ("phrase", phrase)))),
                description: pet.excerpt(limit: 200) ?? texts(.detailsTitle, ("name", name), ("phrase", phrase)),
                canonicalPath: canonicalPath,
                location: location,
                pageURL: { QueryString.url(canonicalPath, $0.language.linkItems) }
            ),
            id: pet.id,
            headline: texts.posterHeadline(pet.status, sex: pet.sex),
            statusClass: pet.status.rawValue,
            name: name,
            kind: [texts.species(pet.species), pet.breed].compactMap { $0 }.joined(separator: " · "),
            photoURL: PhotoLinks(pet.photo, width: 1280)?.src,
            photoAlt: texts.photoAlt(name: name, species: pet.species),
            sexText: texts.sex(pet.sex),
            ageText: texts.age(pet.age),
            placeText: texts.placeName(pet.nearestPlace) ?? texts.place(pet.place),
            lastSeenText: texts.date(pet.lastSeenDate),
            description: pet.excerpt(limit: 280),
            rewardText: texts.reward(of: pet),
            phoneText: pet.phone,
            emailText: pet.email,
            qrPath: code?.path,
            qrSize: code?.size ?? 0,
            shareURL: shareURL,
            detailsURL: QueryString.url(Route.details(id: pet.id).path, location.language.linkItems),
            qrLabel: texts(.posterQRLabel, ("name", name))
        )
    }
}
