/// The built-in sample data set of the demo upstream (docs/upstream.md §5): about two dozen
/// announcements around Warsaw, Kraków and Wrocław, stored in insertion order like the backend's
/// table. Seeded rows carry the `yyyy-MM-dd HH:mm:ss` updatedAt of the backend's seed script; rows
/// "created through the API" carry an ISO one. The order is deliberately not by createdAt, because
/// the real backend does not sort either (docs/upstream.md §1) and the web app must.
enum DemoData {
    /// Every row, in insertion order: the three cities, then the rows the domain layer must reject.
    static let rows: [DemoRow] = warsaw + krakow + wroclaw + rejected

    /// The long description (~1,500 characters), kept apart so the Warsaw rows stay readable.
    static let lunaDescription = """
        Luna is a large, fluffy Maine Coon with a silver-grey tabby coat, a white bib and white \
        paws, and a very bushy tail with dark rings. She weighs about 7 kg and has tufted ears and \
        amber eyes. She slipped out through a balcony door on the second floor on Saturday evening \
        and we think she jumped down onto the garden of the neighbouring building on ul. Słowackiego. \
        She is an indoor cat and has never been outside alone, so she is probably very scared and \
        hiding somewhere quiet — under cars, in basements, bike sheds or bushes. Please check your \
        garages and cellars, she may have been locked in by accident. She does not usually come \
        to strangers, but she may respond to the sound of a treat bag being shaken or to her name \
        said softly. She is seven years old and very gentle with people she knows. Please do \
        not chase her; if you see her, call us and try to keep an eye on where she goes. \
        She is microchipped and registered, and she is sterilised. She needs a \
        special renal diet, so it is important that we find her quickly. She wore a pink \
        breakaway collar with a small bell, but it may have come off. We have put up posters \
        around Plac Wilsona, Park Żeromskiego and along ul. Mickiewicza, and we are checking the \
        shelter on ul. Paluch every day. Any information, even a photo of a cat that might be her, \
        is very welcome — day or night. Thank you to everyone who has already shared this \
        announcement and helped us search the neighbourhood; the people of Żoliborz have been \
        wonderful. We just want her home.
        """
}
