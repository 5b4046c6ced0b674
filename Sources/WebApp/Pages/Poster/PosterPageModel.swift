import Mustache

/// `/pets/{id}/poster`: the printable poster (docs/poster.md; `Templates/poster.mustache`, rendered by
/// `PageHandlers.poster`).
@TemplateFields
struct PosterPageModel: Sendable {
    let layout: LayoutModel
    let id: String
    let headline: String  // "LOST" / "ZAGINĘŁA", agreeing with the pet's sex
    let statusClass: String
    let name: String
    let kind: String  // "Dog · Golden Retriever"
    let photoURL: String?  // the 1280 variant; nil → no photo block
    let photoAlt: String
    let sexText: String
    let ageText: String
    let placeText: String  // the place name, else the address or coordinates
    let lastSeenText: String
    let description: String?  // shortened to ~280 characters
    let rewardText: String?
    let phoneText: String?  // in large type
    let emailText: String?
    let qrPath: String?  // SVG path data of the QR code's dark modules
    let qrSize: Int  // the SVG viewBox side, in modules
    let shareURL: String  // what the QR code opens, printed under it
    let detailsURL: String  // back to the details page (screen only)
    let qrLabel: String  // the QR code's accessible name
}

extension PosterPageModel: ViewModel {}
