import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

extension PageHandlers {
    /// `GET /pets.atom` (docs/feeds.md): the list's search as an Atom 1.0 feed (RFC 4287) of its
    /// newest `FeedSearch.maxEntries` announcements. The same parser and 400 pages as `/pets`, the
    /// same snapshot and index, and the same rendered-page reuse (`PageCaches.cachedPage`), so a
    /// repeated feed URL is a kept answer like a repeated page.
    func feed(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        let filters: ListFilters
        do {
            (location, filters) = try ListFilters.parseWithLocation(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.feed.path, query: request.query))
        }
        let search = FeedSearch(filters: filters, location: location)
        // The canonical path joins every spelling; whether the header chose the language changes
        // the answer's headers (`Vary`), so it is part of the key too.
        let key = "feed|" + search.location.pageKey(search.path) + (location.language.explicit ? "" : "|vary")
        return listPlan(request, requestID: requestID, location: location) { snapshot in
            site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                feedResponse(snapshot, search: search, headerChoseLanguage: !location.language.explicit)
            }
        }
    }

    private func feedResponse(_ snapshot: Fetched<Snapshot>, search: FeedSearch, headerChoseLanguage: Bool) -> Response {
        let language = search.location.language.language
        let texts = site.renderer.texts(search.location.language)
        let authority = site.caches.feedEntries.authority
        let index = search.filters.index(of: snapshot.value)
        let found = index.page(search.filters.query(location: search.location), offset: 0, limit: FeedSearch.maxEntries)
        let (addresses, markup, owner) = site.caches.feedEntries.fragments(
            generation: snapshot.value.generation,
            language: language,
            all: found.all,
            positions: found.positions,
            keep: !search.filters.reunited
        ) {
            entryFragment($0, texts: texts, authority: authority, markup: $1)
        }
        // Each entry's first line (its length and hash) is asked for now and arrives while the head
        // is written; then the rest of its lines, which arrive while the entries before it are
        // written. An entry is rarely in cache at 50,000 items, and reading them before writing
        // waited for every miss in turn (perf: half the time the feed spent on its own code).
        for address in addresses { Prefetch.line(at: address) }
        let updated = found.positions.first.map { found.all[$0].createdAt.wholeSeconds } ?? FeedSearch.emptyUpdated.wholeSeconds
        var head: [UInt8] = []
        head.reserveCapacity(1024)
        site.feedHeads.write(search, updated: AtomDate.string(updated), into: &head)
        // The tag folds the head, each entry's kept hash and its distance (the tail never changes).
        var entryBytes = 0
        var tag = EntityTag.Composite(EntityTag.hash(head))
        for (slot, address) in addresses.enumerated() {
            let fragment = FeedEntries.Fragment(prefixedAt: address)
            fragment.entry.prefetchLines()
            entryBytes += fragment.entry.size + 32
            tag.add(fragment.hash)
            tag.add(found.distancesKm[slot]?.bitPattern ?? FeedSearch.noDistance)
        }
        let body = [UInt8].written(capacity: head.count + entryBytes + FeedSearch.tail.count) { output in
            output.append(array: head)
            // The shared markup, the separator and the distance texts pinned once for all entries
            // (`CardSet.withWriter`).
            markup.withPieces { pieces in
                FeedSearch.summarySeparatorBytes.withView { separator in
                    texts.withDistanceWriter { distance in
                        for (slot, address) in addresses.enumerated() {
                            FeedEntries.Fragment(prefixedAt: address).entry.write(into: &output, pieces: pieces) { _, output in
                                if let km = found.distancesKm[slot] {
                                    // XML's escaping of our own catalog's text is HTML's (TextsTests).
                                    output.append(bytes: separator)
                                    distance.write(km: km, into: &output)
                                }
                            }
                        }
                    }
                }
            }
            output.append(array: FeedSearch.tail)
        }
        withExtendedLifetime(owner) {}  // the kept entries' bytes live in it (`FragmentArena`)
        var headers = FeedSearch.headers[language.index]
        headers.append(HTTPField(name: .lastModified, value: HTTPDate.format(updated)))
        if headerChoseLanguage { headers.append(HTTPField(name: .vary, value: "Accept-Language")) }
        headers.append(HTTPField(name: .eTag, value: tag.strong))
        return Response(status: 200, headers: headers, body: body)
    }

    /// One announcement's `<entry>`, in `texts`' language, with a slot where a search's distance
    /// goes (`FeedEntries.write` writes it).
    private func entryFragment(_ pet: Announcement, texts: Texts, authority: String, markup: SharedMarkup) -> FeedEntries.Fragment {
        let details = LayoutBuilder.withLanguage(Route.details(id: pet.id).path, PageLanguage(language: texts.language, explicit: true))
        let photo = PhotoLinks.src(pet.photo, width: FeedSearch.photoWidth)
        let created = pet.createdAt.wholeSeconds
        let values = FeedEntries.Values(
            id: FeedSearch.entryID(pet.id, authority: authority),
            title: FeedSearch.entryTitle(pet, texts: texts),
            link: site.layout.baseURL + details,
            photo: photo.map { $0.hasPrefix("/") ? site.layout.baseURL + $0 : $0 },
            created: AtomDate.string(created),
            summary: FeedSearch.summaryParts(pet, texts: texts),
            point: pet.place.coordinate.map { "\($0.latitude) \($0.longitude)" }
        )
        return FeedEntries.Fragment(values, itemPart: URLText.encodeComponent(pet.id), markup: markup)
    }
}

extension FeedSearch {
    /// The photo variant an entry links as its enclosure: the cards' width, already made for lists.
    static let photoWidth = 640
    /// Between the parts of an entry's summary.
    static let summarySeparator = " · "
    static let summarySeparatorBytes = Array(summarySeparator.utf8)
    /// The type and language of a feed in each language, made once (a dictionary literal of fields
    /// per answer cost ~1 % of a located feed, callgrind).
    static let headers: [HTTPFields] = Language.allCases.map {
        [.contentType: "application/atom+xml; charset=utf-8", .contentLanguage: $0.rawValue]
    }
    /// The end of every feed.
    static let tail = Array("</feed>\n".utf8)
    /// What an entry without a distance folds into the feed's tag (no distance has these bits: a NaN).
    static let noDistance = UInt64.max

    /// "Missing dog: Burek" / "Zaginiony pies: Burek".
    ///
    /// The one place an entry title is made: a place name ("… in Mokotów") belongs here, as one
    /// more slot of `feed.entryTitle`, when announcements carry one.
    static func entryTitle(_ pet: Announcement, texts: Texts) -> String {
        let phrase = texts.phrase(pet.status, pet.species)
        let capitalized = phrase.prefix(1).uppercased() + phrase.dropFirst()
        return texts(.feedEntryTitle, ("phrase", capitalized), ("name", texts.name(pet)))
    }

    /// "Species: Dog · Breed: Labrador · Sex: Male · Last seen: Nov 09, 2025" (the search's
    /// distance is appended per feed).
    static func summary(_ pet: Announcement, texts: Texts) -> String {
        summaryParts(pet, texts: texts).map(\.text).joined()
    }

    /// `summary` in parts, each saying whether it is the same in every entry of the language with
    /// the same species and sex (the labels and those names: shared markup of a kept entry) or the
    /// item's own (its breed and date).
    static func summaryParts(_ pet: Announcement, texts: Texts) -> [FeedEntries.Text] {
        var shared = "\(texts(.rowSpecies)): \(texts.species(pet.species))\(summarySeparator)"
        var parts: [FeedEntries.Text] = []
        if let breed = pet.breed {
            parts.append(FeedEntries.Text(shared + "\(texts(.rowBreed)): ", isShared: true))
            parts.append(FeedEntries.Text(breed, isShared: false))
            shared = summarySeparator
        }
        parts.append(FeedEntries.Text(shared + "\(texts(.rowSex)): \(texts.sex(pet.sex))\(summarySeparator)\(texts(.rowLastSeen)): ", isShared: true))
        parts.append(FeedEntries.Text(texts.date(pet.lastSeenDate), isShared: false))
        return parts
    }
}
