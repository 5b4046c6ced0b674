extension DemoData {
    /// Warsaw: every species, a nameless found dog, the HTML-ish description, the long description,
    /// and one row without a photo (details only, docs/upstream.md §1: the list leaves it out).
    static let warsaw: [DemoRow] = [
        DemoRow(
            id: "431ca432-e382-4133-9494-85b2c3180c68", petName: "Burek", species: "DOG",
            breed: "Mixed breed", sex: "MALE", age: 4,
            description: "Medium-sized brown dog with a white patch on his chest and a red collar. "
                + "Ran off near Pole Mokotowskie after being scared by fireworks.",
            microchipNumber: "616093900123456", latitude: 52.2125, longitude: 21.0031,
            lastSeenDate: "2026-11-18", email: "burek.owner@example.com", phone: "+48 601 234 567",
            photoUrl: "/images/burek.svg", status: "MISSING", reward: "500 PLN",
            createdAt: "2026-11-18T19:42:07.000Z", updatedAt: "2026-11-19 08:03:51"
        ),
        DemoRow(
            id: "47d0eaa9-3024-4002-ae1a-284f7f16678f", petName: "Łatka", species: "CAT",
            breed: nil, sex: "FEMALE", age: 2,
            description: "Czarno-biała kotka z łatką na nosie. Uciekła przez balkon, "
                + "Warszawa, ul. Ząbkowska (Praga-Północ). Jest płochliwa, nie goń jej.",
            microchipNumber: nil, latitude: 52.2508, longitude: 21.0446,
            lastSeenDate: "2026-11-09", email: nil, phone: "555-PETS",
            photoUrl: "/images/latka.svg", status: "MISSING", reward: nil,
            createdAt: "2026-11-10T07:15:00.000Z", updatedAt: "2026-11-10 07:15:00"
        ),
        DemoRow(
            id: "805b26a8-cf75-459e-a873-71c1dce86b0f", petName: "Kiwi", species: "BIRD",
            breed: "Budgerigar", sex: "UNKNOWN", age: 1,
            description: "Found a green budgie sitting on a tram stop by Pałac Kultury i Nauki. "
                + "Very tame, sits on a finger and says \"cześć\".",
            microchipNumber: nil, latitude: 52.2318, longitude: 21.0060,
            lastSeenDate: "2026-11-20", email: "finder.kiwi@example.org", phone: nil,
            photoUrl: "/images/kiwi.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-20T12:30:45.120Z", updatedAt: "2026-11-20T12:30:45.120Z"
        ),
        DemoRow(
            id: "1c93b260-b9b9-426d-8893-bb9940569a61", petName: "Puszek", species: "RABBIT",
            breed: "Lionhead", sex: "MALE", age: 3,
            description: "Fluffy white lionhead rabbit with grey ears. Escaped from a garden "
                + "on Ursynów, near Park Kozłowskiego.",
            microchipNumber: nil, latitude: 52.1502, longitude: 21.0461,
            lastSeenDate: "2026-10-30", email: "puszek@example.com", phone: "+48 (22) 555 01 23",
            photoUrl: "/images/puszek.svg", status: "MISSING", reward: "PLN 1,500.50",
            createdAt: "2026-10-31T09:05:12.000Z", updatedAt: "2026-11-02 16:40:00"
        ),
        DemoRow(
            id: "d0033bbf-5b08-46af-b14a-e5c51cff1724", petName: nil, species: "DOG",
            breed: nil, sex: "UNKNOWN", age: nil,
            description: "Found a small brown dog without a collar near Rondo Daszyńskiego. "
                + "Now safe with us in Wola; looking for the owner.",
            microchipNumber: nil, latitude: 52.2302, longitude: 20.9840,
            lastSeenDate: "2026-11-15", email: "wola.finder@example.net", phone: "601234567",
            photoUrl: "/images/found-dog-wola.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-15T21:11:30.000Z", updatedAt: "2026-11-15 21:11:30"
        ),
        DemoRow(
            id: "b9fac617-0fcc-44c5-8315-f779c4a4ac4c", petName: "Luna", species: "CAT",
            breed: "Maine Coon", sex: "FEMALE", age: 7,
            description: lunaDescription,
            microchipNumber: "616093900654321", latitude: 52.2697, longitude: 20.9848,
            lastSeenDate: "2026-10-24", email: "luna.home@example.com", phone: "+48 602 111 222",
            photoUrl: "/images/luna.svg", status: "MISSING", reward: "$300",
            createdAt: "2026-10-25T06:58:19.000Z", updatedAt: "2026-11-12 10:20:33"
        ),
        DemoRow(
            id: "ce9295c4-984d-4f0b-9ac4-772dbaa95dc0", petName: "Franklin", species: "OTHER",
            breed: "Russian tortoise", sex: "MALE", age: 25,
            description: "Our tortoise wandered out of the garden in Bielany. "
                + "About 20 cm long, a small chip on the left side of the shell.",
            microchipNumber: nil, latitude: 52.2846, longitude: 20.9595,
            lastSeenDate: "2026-10-19", email: "franklin@example.com", phone: "+48 790 100 200",
            photoUrl: nil, status: "MISSING", reward: "200 PLN",
            createdAt: "2026-10-19T15:00:00.000Z", updatedAt: "2026-10-19 15:00:00"
        ),
        DemoRow(
            id: "5e6163c3-cd3c-4d80-a1b3-14adab2ed230", petName: "Reksio", species: "DOG",
            breed: "Jack Russell Terrier", sex: "MALE", age: 6,
            description: "Loves <b>treats</b> & \"squeaky\" toys. White with tan ears, "
                + "last seen chasing a ball on Saska Kępa, ul. Francuska.",
            microchipNumber: "616093900777888", latitude: 52.2339, longitude: 21.0545,
            lastSeenDate: "2026-11-05", email: "reksio@example.com", phone: "+48 501-987-654",
            photoUrl: "/images/reksio.svg", status: "MISSING", reward: "1000 zł",
            createdAt: "2026-11-05T18:22:41.000Z", updatedAt: "2026-11-06 09:12:00"
        ),
    ]
}
