extension DemoData {
    /// Rows the domain layer must reject (docs/upstream.md §2), each broken in exactly one way and
    /// otherwise realistic, plus a second row reusing Bella's id (keep the first, log a warning).
    /// All have photos so they reach the list, where the skipping has to happen.
    static let rejected: [DemoRow] = [
        // Species is free text on write (docs/upstream.md §1); only five values are valid.
        DemoRow(
            id: "74e949e5-e99f-4c66-affd-c31c698f418e",
            petName: "Rex",
            species: "DINOSAUR",
            breed: "Tyrannosaurus",
            sex: "MALE",
            age: 3,
            description: "Bearded dragon our son insists is a dinosaur. Last seen basking by Pole Mokotowskie.",
            microchipNumber: nil,
            latitude: 52.2140,
            longitude: 21.0005,
            lastSeenDate: "2026-11-13",
            email: "rex@example.com",
            phone: "+48 600 000 001",
            photoUrl: "/images/rex.svg",
            status: "MISSING",
            reward: nil,
            createdAt: "2026-11-13T15:55:00.000Z",
            updatedAt: "2026-11-13 15:55:00"
        ),
        // Month 13: looks like a date, is not one.
        DemoRow(
            id: "59f2262b-b13c-478d-b8f4-2dd266ea3f58",
            petName: "Filemon",
            species: "CAT",
            breed: "British Shorthair",
            sex: "MALE",
            age: 4,
            description: "Grey British Shorthair, last seen on ul. Karmelicka, Kraków.",
            microchipNumber: "616093900998877",
            latitude: 50.0665,
            longitude: 19.9310,
            lastSeenDate: "2024-13-01",
            email: "filemon@example.pl",
            phone: "+48 600 000 002",
            photoUrl: "/images/filemon.svg",
            status: "MISSING",
            reward: "100 PLN",
            createdAt: "2026-11-04T08:30:00.000Z",
            updatedAt: "2026-11-04 08:30:00"
        ),
        // Latitude outside [-90, 90]: no place on Earth, so no radius search finds it either.
        DemoRow(
            id: "875a9a0c-36a1-47d7-a1fa-f8479c790848",
            petName: "Pirat",
            species: "DOG",
            breed: "Border Collie",
            sex: "MALE",
            age: 2,
            description: "Black and white border collie with one blue eye, Wrocław Ołbin.",
            microchipNumber: nil,
            latitude: 123.4,
            longitude: 17.0410,
            lastSeenDate: "2026-10-29",
            email: "pirat@example.pl",
            phone: "+48 600 000 003",
            photoUrl: "/images/pirat.svg",
            status: "MISSING",
            reward: nil,
            createdAt: "2026-10-29T19:19:19.000Z",
            updatedAt: "2026-10-29 19:19:19"
        ),
        // Updated before it was created: the two timestamps contradict each other.
        DemoRow(
            id: "da23f940-4f0f-4951-91a5-7df32be0fde8",
            petName: "Rio",
            species: "BIRD",
            breed: "Blue-and-yellow Macaw",
            sex: "FEMALE",
            age: 12,
            description: "Large blue and yellow macaw seen on a balcony in Wilanów.",
            microchipNumber: nil,
            latitude: 52.1650,
            longitude: 21.0900,
            lastSeenDate: "2026-11-09",
            email: "rio@example.com",
            phone: "+48 600 000 004",
            photoUrl: "/images/rio.svg",
            status: "FOUND",
            reward: nil,
            createdAt: "2026-11-10T10:00:00.000Z",
            updatedAt: "2026-11-01 09:00:00"
        ),
        // Same id as Bella (Kraków), valid in itself: the list must keep the first one only.
        DemoRow(
            id: "2c296a2b-f80a-498b-8cdb-a9e9d86ead4c",
            petName: "Bella",
            species: "DOG",
            breed: "Labrador Retriever",
            sex: "FEMALE",
            age: 5,
            description: "Found a yellow Labrador on the Planty, near ul. Basztowa.",
            microchipNumber: nil,
            latitude: 50.0660,
            longitude: 19.9430,
            lastSeenDate: "2026-11-19",
            email: "planty.finder@example.pl",
            phone: "+48 600 000 005",
            photoUrl: "/images/bella-found.svg",
            status: "FOUND",
            reward: nil,
            createdAt: "2026-11-19T18:40:00.000Z",
            updatedAt: "2026-11-19 18:40:00"
        ),
    ]
}
