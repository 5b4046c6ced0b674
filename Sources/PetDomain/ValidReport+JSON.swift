import Foundation

extension ValidReport {
    /// The body for the upstream's `POST /api/v1/announcements`: keys in the backend's order, absent
    /// optional values left out (the backend refuses both `null` and `""`), age and coordinates as JSON
    /// numbers, species/sex/status upper-case, the microchip as digits only.
    ///
    /// Written in `JSON.stringify` mode (`htmlSafe: false`): the body goes to a JSON reader, never into
    /// HTML, and the text is what the clients' `JSON.stringify` would send.
    public func upstreamJSON() -> [UInt8] {
        var writer = JSONWriter(htmlSafe: false)
        var first = true
        func text(_ key: String, _ value: String?) {
            guard let value else { return }
            writer.key(key, first: first)
            writer.string(value)
            first = false
        }
        text("petName", petName)
        text("species", species.apiValue)
        text("breed", breed)
        text("sex", sex.apiValue)
        if let age {
            writer.key("age", first: false)
            writer.integer(age)
        }
        text("description", description)
        text("microchipNumber", microchipNumber)
        writer.key("locationLatitude", first: false)
        writer.number(coordinate.latitude)
        writer.key("locationLongitude", first: false)
        writer.number(coordinate.longitude)
        text("email", email)
        text("phone", phone)
        text("lastSeenDate", lastSeenDate.isoString)
        text("status", status.apiValue)
        text("reward", reward)
        return Array(("{" + writer.text + "}").utf8)
    }
}
