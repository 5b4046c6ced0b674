import Foundation

/// Picks one of a few slots by the calling thread, so that threads running at once mostly use
/// different slots (and different locks). Any slot is correct; this only spreads contention.
package enum ThreadSpread {
    /// Slots per striped structure (more than the server's threads).
    package static let slotCount = 8

    /// The calling thread's slot, in `0..<slotCount`.
    package static func slot() -> Int {
        // pthread_t is the address of the thread's descriptor: mixed, then the top bits.
        let mixed = UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15
        return Int(mixed >> 61)
    }
}
