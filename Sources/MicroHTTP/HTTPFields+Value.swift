import HTTPTypes

extension HTTPFields {
    /// The value of `name`, as `self[name]` gives it (repeated fields joined with ", ", or "; " for
    /// `Cookie`), without its cost: swift-http-types' subscript joins through a lazy generic sequence
    /// on every lookup, even of a single field, about 5,000 instructions each by callgrind, and an
    /// answer looks up a dozen (docs/performance.md "Located pages"). A scan of the few fields an
    /// answer has allocates nothing unless a field repeats.
    public func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if let earlier = found {
                found = earlier + (name == .cookie ? "; " : ", ") + field.value
            } else {
                found = field.value
            }
        }
        return found
    }

    /// Sets `name` to `value` as `self[name] = value` does, appending it without the subscript's
    /// generic replacement when the field is not there yet (the common case on an answer's way out).
    public mutating func set(_ name: HTTPField.Name, _ value: String) {
        if contains(name) {
            self[name] = value
        } else {
            append(HTTPField(name: name, value: value))
        }
    }
}
