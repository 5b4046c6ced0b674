import Mustache

/// `/pets/{id}/poster`: the printable poster (docs/poster.md; `Templates/poster.mustache`, rendered by
/// `PageHandlers.poster`).
@TemplateFields
package struct PosterPageModel: Sendable {
    package let layout: LayoutModel
    package let id: String
    package let headline: String  // "LOST" / "ZAGINĘŁA", agreeing with the pet's sex
    package let statusClass: String
    package let name: String
    package let kind: String  // "Dog · Golden Retriever"
    package let photoURL: String?  // the 1280 variant; nil → no photo block
    package let photoAlt: String
    package let sexText: String
    package let ageText: String
    package let placeText: String  // the place name, else the address or coordinates
    package let lastSeenText: String
    package let description: String?  // shortened to ~280 characters
    package let rewardText: String?
    package let phoneText: String?  // in large type
    package let emailText: String?
    package let qrPath: String?  // SVG path data of the QR code's dark modules
    package let qrSize: Int  // the SVG viewBox side, in modules
    package let shareURL: String  // what the QR code opens, printed under it
    package let detailsURL: String  // back to the details page (screen only)
    package let qrLabel: String  // the QR code's accessible name
}

extension PosterPageModel: ViewModel {}
