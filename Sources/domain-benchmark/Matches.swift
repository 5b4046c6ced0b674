import Foundation
import PetDomain

/// The first matches of a report after a new snapshot (nothing kept yet, docs/matching.md "Cost"):
/// `Matching.matches` for 301 reports of a generated corpus of `size` reports (MatchCorpus: three
/// cities, a tenth of them pairs), CPU median and p99 per report, and how well it ranks at that density.
func measureMatches(sizes: [Int], cpuMilliseconds: () -> Double) {
    for size in sizes {
        let pairs = size / 10
        let corpus = MatchCorpus(pairCount: pairs, decoyCount: size - 2 * pairs, seed: 1)
        let index = AnnouncementIndex(items: corpus.items)
        let profiles = MatchProfiles(index)
        var times: [Double] = []
        var found = 0
        var firstOfSnapshot = 0.0
        let step = max(1, index.count / 301)
        for position in stride(from: 0, to: index.count, by: step).prefix(301) {
            let pet = index.items[position]
            let start = cpuMilliseconds()
            found += Matching.matches(for: pet, in: index, profiles: profiles).count
            times.append(cpuMilliseconds() - start)
            if times.count == 1 { firstOfSnapshot = times[0] }
        }
        times.sort()
        let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.down)))]
        print(
            String(
                format:
                    "matches: %6d items, first lookup per report: cpu median %.3f ms, p99 %.3f ms "
                    + "(the snapshot's very first: %.3f ms), %.1f matches on average",
                index.count,
                times[times.count / 2],
                p99,
                firstOfSnapshot,
                Double(found) / Double(times.count)
            )
        )
    }
    for (pairs, decoys) in [(150, 1_500), (500, 4_000), (2_500, 45_000)] {
        let quality = MatchQuality.measure(MatchCorpus(pairCount: pairs, decoyCount: decoys, seed: 7))
        print(
            String(
                format: "matches: quality, %d pairs among %d others: true match first %.1f %%, in the top 3 %.1f %% (%d lookups)",
                pairs,
                decoys,
                quality.firstShare * 100,
                quality.topThreeShare * 100,
                quality.lookups
            )
        )
    }
}
