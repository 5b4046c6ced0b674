#!/usr/bin/env bash
# The template engine against swift-mustache (docs/templates.md): CPU per render of each page
# template, both engines on the same templates and view models, then the in-process cost of the
# located requests that render (domain-benchmark's "pages:" rows). Release build; prints figures.
#
#   scripts/bench/templates.sh            (SCRATCH=.build-release by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${SCRATCH:-.build-release}
swift build -c release --scratch-path "$SCRATCH" --product template-benchmark
swift build -c release --scratch-path "$SCRATCH" --product domain-benchmark
"$SCRATCH/release/template-benchmark" Templates
"$SCRATCH/release/domain-benchmark" | grep '^pages:'
