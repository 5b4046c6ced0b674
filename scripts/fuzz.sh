#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer (docs/testing.md "Fuzzing and sanitizers"): the JSON parser, announcement decoding of
# every dialect, the visitor's query parameters, percent-decoding with routes and /static/ paths,
# rewards and dates, and the report's form and API-body parsing with its validation (target report).
# Each target checks invariants (what it parses, printed again, reads back the
# same), not only "no crash"; fuzz/Harness/*.swift says which.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60); all targets by default
#   PETSPOT_FUZZ_TARGET=T .build-fuzz/petspot-fuzz FILE     replays one input (e.g. a saved crash)
#
# One binary for all targets (compiled once; PETSPOT_FUZZ_TARGET picks the target), built with the
# Swift toolchain's own -sanitize=fuzzer,address: its clang runtime ships libFuzzer, so nothing is
# installed but python3 for the seeds. SwiftPM cannot link a fuzzer, so swiftc compiles the sources
# under test directly: all of PetDomain, the pure files of MicroHTTP and WebApp that the targets
# reach, and fuzz/Stubs for two declarations those files name; HTTPTypes comes from SwiftPM
# (the checkout in .build/, resolved there first if missing, as `swift build` would).
#
# Multipart bodies (target multipart): libmicrohttpd's post processor needs a live MHD_Connection,
# so the harness runs a libmicrohttpd daemon in the fuzzing process and sends each input as the body
# of a POST over loopback; its access handler reads it with MicroHTTP's BodyReader (compiled here
# with BodyReader+C.swift against Debian's libmicrohttpd, linked with -lmicrohttpd).
#
# Work folder .build-fuzz/ (git-ignored): seeds and dictionaries made from the test fixtures by
# fuzz/make-seeds.py, each target's corpus (kept and grown between runs), and crash or hang inputs
# in crashes/TARGET/.
# Prints per target: executions per second, coverage (libFuzzer's cov: edges and ft: features),
# corpus size (inputs/bytes, libFuzzer's corp:) and crashes. Exits non-zero when any target
# crashed, broke an invariant or hung.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
# libmicrohttpd-dev and pkg-config for the multipart target (CI runs this before the test command installs them).
ensure_packages libmicrohttpd-dev pkg-config

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json announcements query path reward dates report multipart)
work=.build-fuzz
binary=$work/petspot-fuzz

swiftc=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
runtime=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -n 1 || true)
if [ -z "$runtime" ]; then
  echo "fuzz.sh: the Swift toolchain at $(dirname "$swiftc") has no libFuzzer runtime (libclang_rt.fuzzer)" >&2
  exit 1
fi

build() {
  local started=$SECONDS
  # HTTPTypes (Request and Response use it), built by SwiftPM from the checkout this package
  # resolved, as its own package (it has no dependencies), with its own settings; objects linked in.
  local http_types=.build/checkouts/swift-http-types
  [ -d "$http_types" ] || swift package resolve >"$work/swiftpm.log" 2>&1 || { cat "$work/swiftpm.log" >&2; exit 1; }
  swift build --package-path "$http_types" -c release --target HTTPTypes --scratch-path "$PWD/$work/http-types" \
    >"$work/swiftpm.log" 2>&1 || { cat "$work/swiftpm.log" >&2; exit 1; }
  local packages objects=$work/obj
  packages=$(swift build --package-path "$http_types" -c release --scratch-path "$PWD/$work/http-types" --show-bin-path)
  rm -rf "$objects" && mkdir -p "$objects"
  # CMicroHTTPD (libmicrohttpd's module map and shim) for BodyReader+C.swift and the multipart harness;
  # CPrefetch (a header) for FastBytes.
  local flags=(-swift-version 6 -package-name petspot_web -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
               -parse-as-library -sanitize=fuzzer,address -O -g -wmo -I "$objects" -I "$packages/Modules"
               -I Sources/CMicroHTTPD -I Sources/CPrefetch $(pkg-config --cflags-only-I libmicrohttpd | sed 's/-I/-Xcc -I/g'))
  module() { # module NAME FILE...: one instrumented module, internals visible to the harness (@testable)
    local name=$1; shift
    "$swiftc" "${flags[@]}" -enable-testing -module-name "$name" -emit-module -emit-module-path "$objects/$name.swiftmodule" \
      -c -o "$objects/$name.o" "$@"
  }
  # The fast path's raw memory behind views, which the domain's index, MicroHTTP's dates and WebApp's texts use.
  module FastBytes Sources/FastBytes/*.swift
  module PetDomain Sources/PetDomain/*.swift
  module MicroHTTP Sources/MicroHTTP/{Request,RequestBody,BodyReader+C,UploadStorage+C,Response,PercentDecoding,EntityTag,HTTPDate}.swift \
    Sources/MicroHTTP/{WeightedList,ContentCoding,HeaderText,HTTPFields+Value}.swift
  # Texts writes distances through HTMLText, the one HTML escaper (Sources/CompiledTemplates/HTMLText.swift).
  module CompiledTemplates Sources/CompiledTemplates/HTMLText.swift
  module WebApp Sources/WebApp/Pages/Query/{VisitorQuery,VisitorQuery+Numbers,ListFilters,QueryString}.swift \
    Sources/WebApp/Server/{Route,RoutePattern,RouteTable,RouteRule,StaticFiles,ConditionalGet,CachePolicy}.swift \
    Sources/WebApp/Compression/CompressedForms.swift \
    Sources/WebApp/Tiles/TileAddress.swift \
    Sources/WebApp/Localization/{Language,LanguageNegotiation,TextKey,Texts,MessageCatalog,Message}.swift fuzz/Stubs/*.swift
  # Compiled, then linked apart: one swiftc call for both leaves module files in the working folder.
  "$swiftc" "${flags[@]}" -module-name PetSpotFuzz -c -o "$objects/PetSpotFuzz.o" fuzz/Harness/*.swift
  "$swiftc" -sanitize=fuzzer,address -use-ld=lld -o "$binary" "$objects"/*.o "$packages"/HTTPTypes.build/*.o -lmicrohttpd
  echo "== built $binary in $((SECONDS - started)) s"
}

echo "== building the fuzzer ($swiftc -sanitize=fuzzer,address)"
mkdir -p "$work"
build
rm -rf "$work/seeds"
python3 fuzz/make-seeds.py "$work/seeds"

# The Swift runtime's own crash backtracer reads the stack in a way AddressSanitizer reports as a
# stack-buffer-underflow; libFuzzer's handler already prints the stack and saves the input.
export SWIFT_BACKTRACE=enable=no
failed=0
report=()
for target in "${targets[@]}"; do
  corpus=$work/corpus/$target crashes=$work/crashes/$target log=$work/$target.log
  mkdir -p "$corpus" "$crashes" "$work/seeds/$target"
  before=$(ls "$crashes" | wc -l)
  echo "== fuzzing $target for $seconds s"
  status=0
  PETSPOT_FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -dict="$work/seeds/$target.dict" -artifact_prefix="$crashes/" "$corpus" "$work/seeds/$target" >"$log" 2>&1 || status=$?
  # libFuzzer's last status line: "#N DONE cov: C ft: F corp: K/SIZE … exec/s: E …".
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  field() { sed -nE "s/.* $1: ([0-9]+).*/\\1/p" <<<"$last"; }
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
  crashed=$(( $(ls "$crashes" | wc -l) - before ))
  units=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
  report+=("$(printf '%-14s %5s %8s %6s %7s %12s %8s' "$target" "$seconds" "${rate:-?}" "$(field cov)" "$(field ft)" \
    "${units:-?}" "$crashed")")
  if [ "$status" -ne 0 ] || [ "$crashed" -gt 0 ]; then
    failed=1
    echo "!! $target failed (exit $status); the end of $log:"
    grep -E 'invariant broken|Fatal error|ERROR:|SUMMARY|Test unit written|timeout' "$log" | head -n 8
  fi
done

echo "== fuzzing: per target"
printf '%-14s %5s %8s %6s %7s %12s %8s\n' target secs exec/s cov ft corpus crashes
printf '%s\n' "${report[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed; replay with PETSPOT_FUZZ_TARGET=TARGET $binary $work/crashes/TARGET/FILE"
  exit 1
fi
echo "fuzz: no crash, no broken invariant, no hang (${#targets[@]} of 8 targets, $seconds s each)"
