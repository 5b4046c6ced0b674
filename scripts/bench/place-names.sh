#!/usr/bin/env bash
# Place-name figures (docs/place-names.md) without a release build of the whole package: PetDomain's
# sources and the benchmark's place-name file compiled alone with -O. The same rows are printed by
# `swift run -c release --scratch-path .build-release domain-benchmark`. Run from the repository root.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/main.swift" <<'SWIFT'
import Foundation
func cpuMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
}
measurePlaceNames(placesFile: "Data/places.tsv", body: makeDialectABody(count:), cpuMilliseconds: cpuMilliseconds)
SWIFT
swiftc -O -D STANDALONE -module-name PlaceBench -o "$work/place-bench" \
  Sources/PetDomain/*.swift Sources/domain-benchmark/PlaceNames.swift Sources/domain-benchmark/Bodies.swift "$work/main.swift"
"$work/place-bench"
