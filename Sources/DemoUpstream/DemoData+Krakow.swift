extension DemoData {
    /// Kraków: most rows within 5 km of the Rynek, one in Nowa Huta (about 7 km out) so a small
    /// radius visibly leaves something out; an entity string, a non-address email, a photo-less row.
    static let krakow: [DemoRow] = [
        DemoRow(
            id: "2c296a2b-f80a-498b-8cdb-a9e9d86ead4c", petName: "Bella", species: "DOG",
            breed: "Labrador Retriever", sex: "FEMALE", age: 5,
            description: "Ostatnio widziana: Kraków, ul. Floriańska, przy Bramie Floriańskiej. "
                + "Żółta obroża z adresówką.",
            microchipNumber: "616093900246810", latitude: 50.0647, longitude: 19.9418,
            lastSeenDate: "2026-11-12", email: "bella.krakow@example.pl", phone: "+48 512 345 678",
            photoUrl: "/images/bella.svg", status: "MISSING", reward: "200 PLN",
            createdAt: "2026-11-12T16:45:03.000Z", updatedAt: "2026-11-13 07:30:00"
        ),
        DemoRow(
            id: "decc9679-d6ff-4a50-a23d-ce4c0c361672", petName: "Mruczek", species: "CAT",
            breed: "European Shorthair", sex: "MALE", age: 3,
            description: "Znaleziony rudy kocur na Kazimierzu, ul. Szeroka. "
                + "Very friendly &amp; hungry &lt;3",
            microchipNumber: nil, latitude: 50.0532, longitude: 19.9486,
            lastSeenDate: "2026-11-17", email: "kazimierz.cats@example.pl", phone: nil,
            photoUrl: "/images/mruczek.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-17T10:02:55.000Z", updatedAt: "2026-11-17 10:02:55"
        ),
        DemoRow(
            id: "d0ce0911-336d-4702-ab99-768c86037c6e", petName: "Ćwirek", species: "BIRD",
            breed: "Cockatiel", sex: "UNKNOWN", age: 2,
            description: "Grey cockatiel with a yellow crest, flew out of a window in Podgórze "
                + "near Rynek Podgórski. Whistles the Hejnał.",
            microchipNumber: nil, latitude: 50.0440, longitude: 19.9575,
            lastSeenDate: "2026-11-03", email: "cwirek@example.pl", phone: "+48 600 300 400",
            photoUrl: nil, status: "MISSING", reward: "150 PLN",
            createdAt: "2026-11-03T13:14:15.000Z", updatedAt: "2026-11-03 13:14:15"
        ),
        DemoRow(
            id: "a0c5ddfd-b956-4dc7-abda-cab1387ef94f", petName: "Kluska", species: "RABBIT",
            breed: "Mini Lop", sex: "FEMALE", age: 1,
            description: "Found a tame brown mini lop in Park Krakowski. Clean and well fed, "
                + "clearly someone's pet.",
            microchipNumber: nil, latitude: 50.0705, longitude: 19.9250,
            lastSeenDate: "2026-11-08", email: "park.krakowski@example.com", phone: "+48 12 421 00 00",
            photoUrl: "/images/kluska.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-08T11:48:02.000Z", updatedAt: "2026-11-08 11:48:02"
        ),
        DemoRow(
            id: "724df091-98e2-494c-85c5-5b38fd684d99", petName: "Azor", species: "DOG",
            breed: "German Shepherd", sex: "MALE", age: 9,
            description: "Older German Shepherd, slightly deaf, grey muzzle. "
                + "Last seen on Aleja Róż in Nowa Huta.",
            microchipNumber: "616093900135790", latitude: 50.0720, longitude: 20.0372,
            lastSeenDate: "2026-10-27", email: "azor@example.pl", phone: "+48 698 765 432",
            photoUrl: "/images/azor.svg", status: "MISSING", reward: "PLN 800",
            createdAt: "2026-10-27T17:35:29.000Z", updatedAt: "2026-10-28 08:00:00"
        ),
        DemoRow(
            id: "424f682b-d2a7-4b75-b37b-10c783d1b5c1", petName: "Ziggy", species: "OTHER",
            breed: "Ferret", sex: "MALE", age: 2,
            description: "Sable ferret, escaped from his cage in Dębniki, near the Vistula "
                + "boulevards. Curious and likes to hide in small spaces.",
            microchipNumber: "DE-276098100123456", latitude: 50.0493, longitude: 19.9225,
            lastSeenDate: "2026-11-14", email: "kontakt(at)example.pl", phone: "+48 733 222 111",
            photoUrl: "https://example.com/petspot/photos/ziggy.jpg", status: "MISSING",
            reward: "symbolic reward",
            createdAt: "2026-11-14T08:08:08.000Z", updatedAt: "2026-11-14T09:30:00.000Z"
        ),
        DemoRow(
            id: "8a06e483-3784-4d84-b839-010f43bae240", petName: nil, species: "CAT",
            breed: nil, sex: "UNKNOWN", age: nil,
            description: nil,
            microchipNumber: nil, latitude: 50.0619, longitude: 19.9369,
            lastSeenDate: "2026-11-21", email: nil, phone: "tel. 12 345 67 89 (after 5 pm)",
            photoUrl: "/images/found-cat-rynek.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-21T16:20:00.000Z", updatedAt: "2026-11-21 16:20:00"
        ),
    ]
}
