extension DemoData {
    /// Wrocław: a whole-number coordinate (serialized `17`, not `17.0`), a photo file the backend
    /// does not have (the web app must fall back to its placeholder), and a photo-less row.
    static let wroclaw: [DemoRow] = [
        DemoRow(
            id: "23edd611-52b7-4b53-900d-9bd87d5e3a52", petName: "Fafik", species: "DOG",
            breed: "Beagle", sex: "MALE", age: 4,
            description: "Tricolour beagle, follows his nose everywhere. Slipped his lead "
                + "on the Rynek by the Ratusz. Answers to \"Fafik\" and to sausages.",
            microchipNumber: "616093900112233", latitude: 51.1097, longitude: 17.0321,
            lastSeenDate: "2026-11-19", email: "fafik@example.pl", phone: "+48 691 000 111",
            photoUrl: "/images/fafik.svg", status: "MISSING", reward: "300 PLN",
            createdAt: "2026-11-19T07:50:36.000Z", updatedAt: "2026-11-19 07:50:36"
        ),
        DemoRow(
            id: "bbc45202-87b6-42aa-9562-6f2d81d5d08e", petName: "Śnieżka", species: "CAT",
            breed: "Ragdoll", sex: "FEMALE", age: 8,
            description: "White ragdoll with blue eyes and a cream mask. "
                + "Zaginęła na Krzykach, okolice ul. Powstańców Śląskich.",
            microchipNumber: "616093900445566", latitude: 51.0870, longitude: 17.0146,
            lastSeenDate: "2026-10-21", email: "sniezka@example.com", phone: "+48 605 404 303",
            photoUrl: "/images/sniezka.svg", status: "MISSING", reward: "€150",
            createdAt: "2026-10-22T14:10:00.000Z", updatedAt: "2026-10-30 12:00:00"
        ),
        DemoRow(
            id: "9e9f7cae-c819-44b3-a09d-8fc76bdeab16", petName: "Koko", species: "BIRD",
            breed: "African Grey Parrot", sex: "FEMALE", age: 15,
            description: "African grey with a red tail. Talks a lot (\"Koko dobra!\"). "
                + "Seen on Ostrów Tumski near the cathedral.",
            microchipNumber: nil, latitude: 51.1142, longitude: 17.0466,
            lastSeenDate: "2026-11-01", email: "koko.papuga@example.pl", phone: "+48 607 808 909",
            photoUrl: "/images/koko.svg", status: "MISSING", reward: "2000 PLN",
            createdAt: "2026-11-01T10:45:17.000Z", updatedAt: "2026-11-01 10:45:17"
        ),
        DemoRow(
            id: "5b1814ba-697c-4b35-8641-9ec93c22cb20", petName: "Tofik", species: "RABBIT",
            breed: nil, sex: "MALE", age: nil,
            description: "Found a black rabbit by the Hala Stulecia pergola. Now at the vet on "
                + "ul. Olszewskiego.",
            microchipNumber: nil, latitude: 51.1068, longitude: 17.0773,
            lastSeenDate: "2026-11-16", email: "biskupin.vet@example.com", phone: nil,
            photoUrl: "/images/tofik.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-16T12:00:00.000Z", updatedAt: "2026-11-16 12:00:00"
        ),
        DemoRow(
            id: "87bb016e-04cf-4d6e-899a-403e58587e00", petName: "Gucio", species: "OTHER",
            breed: "Guinea pig", sex: "MALE", age: 1,
            description: "Found a guinea pig in a cardboard box near the tram depot. "
                + "Tan and white, very chatty.",
            microchipNumber: nil, latitude: 51.1, longitude: 17,
            lastSeenDate: "2026-11-11", email: "gucio.found@example.org", phone: "+48 711 222 333",
            photoUrl: "/images/gucio.svg", status: "FOUND", reward: nil,
            createdAt: "2026-11-11T09:25:44.000Z", updatedAt: "2026-11-11 09:25:44"
        ),
        DemoRow(
            id: "9b7dab12-1616-4bd7-8da3-ea83d8a481a8", petName: "Max", species: "DOG",
            breed: "Golden Retriever", sex: "MALE", age: 5,
            description: "Friendly golden retriever found on Nadodrze, ul. Roosevelta. "
                + "Wearing a blue harness, no tag.",
            microchipNumber: nil, latitude: 51.1232, longitude: 17.0338,
            lastSeenDate: "2026-11-07", email: "nadodrze@example.pl", phone: "+48 788 999 000",
            photoUrl: "/images/max.webp", status: "FOUND", reward: nil,
            createdAt: "2026-11-07T20:05:09.000Z", updatedAt: "2026-11-07 20:05:09"
        ),
        DemoRow(
            id: "c7798af7-51ee-44d6-8125-c4160355c479", petName: "Mia", species: "CAT",
            breed: "Sphynx", sex: "FEMALE", age: 0,
            description: "Hairless kitten, pink with grey spots. Gets cold quickly, "
                + "please take her inside if you see her (Psie Pole).",
            microchipNumber: nil, latitude: 51.1467, longitude: 17.1117,
            lastSeenDate: "2026-10-13", email: "mia.sphynx@example.com", phone: "+48 666 555 444",
            photoUrl: nil, status: "MISSING", reward: "400 PLN",
            createdAt: "2026-10-14T11:11:11.000Z", updatedAt: "2026-10-14 11:11:11"
        ),
    ]
}
