#!/usr/bin/env bash
# Runs the whole Swift test suite under ThreadSanitizer and under AddressSanitizer
# (docs/testing.md "Fuzzing and sanitizers") and prints, per sanitizer: passed or failed, the tests passed, the sanitizer's reports
# and the wall time. Exits non-zero when a test fails or a sanitizer reports anything.
#
#   scripts/sanitizers.sh [thread|address]...      both by default, thread first
#
# Each sanitizer builds everything again in its own folder (.build-tsan/, .build-asan/; git-ignored).
# Reports are printed in full in .build-tsan/test.log and .build-asan/test.log.
#
# ThreadSanitizer and Swift's Synchronization.Mutex: TSan sees only the inlined fast path of
# `Mutex.withLock`; the contended path runs in the toolchain's uninstrumented library, so every
# contended lock looked like a data race (12 false reports in one run, all on state that is only
# touched under a Mutex). sanitizers/tsan-mutex.c, preloaded into the test run, tells TSan about
# that path; sanitizers/mutex-probe.swift checks first, on this toolchain, that without it a correct
# locked counter is reported, with it that report is gone, and a real race is still reported.
#
# A build error under TSan only, "sending 'x' risks causing data races" on a `var` sent into an
# `async let`, comes with ~2,000 follow-on "global variable must be a compile-time constant to use
# @section attribute" errors for every @Test/@Suite compiled in the same frontend job: fix the first
# (send a `let`), the rest go with it (docs/testing.md "Fuzzing and sanitizers").
#
# The one report left after that: swift-nio reusing a pooled receive buffer once the task that read it
# released it, a uniqueness check against a release, both in the uninstrumented Swift runtime (as
# `Mutex`'s slow path). sanitizers/unique-probe.swift shows TSan reports that correct pattern with no NIO
# in it; sanitizers/tsan-suppressions.txt names NIO's one function, and the probes check that the
# suppressions still let a real race (and the plain pattern outside NIO) through.
#
# AddressSanitizer includes LeakSanitizer here. The leaks it finds are in the toolchain's
# FoundationNetworking (URLSession, the tests' client), Foundation.Process and XCTest, each
# suppressed by name with the reason in sanitizers/lsan-suppressions.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(thread address)
clang=$(dirname "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)")/clang

ensure_build_packages

# reports LOG: the number of sanitizer reports in a log.
reports() {
  grep -cE '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer))' "$1" || true
}

# probe LOG COMMAND...: runs a probe (it exits non-zero when TSan reports), its output into LOG; prints its report count.
probe() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || true
  reports "$log"
}

# probe_mutex_annotations SCRATCH: builds the preload library and checks it against the probe.
probe_mutex_annotations() {
  local scratch=$1
  "$clang" -shared -fPIC -O2 -Wall -o "$scratch/libtsan-mutex.so" sanitizers/tsan-mutex.c -ldl
  swiftc -sanitize=thread -g -o "$scratch/mutex-probe" sanitizers/mutex-probe.swift
  local plain annotated racy preload="LD_PRELOAD=$PWD/$scratch/libtsan-mutex.so"
  plain=$(probe "$scratch/probe-plain.log" "$scratch/mutex-probe" locked)
  annotated=$(probe "$scratch/probe-annotated.log" env "$preload" "$scratch/mutex-probe" locked)
  racy=$(probe "$scratch/probe-racy.log" env "$preload" "$scratch/mutex-probe" racy)
  echo "   Mutex probe: locked counter $plain report(s) plain, $annotated with tsan-mutex; real race $racy report(s)"
  if [ "$annotated" -ne 0 ] || [ "$racy" -eq 0 ]; then
    echo "!! sanitizers/tsan-mutex.c does not fit this toolchain (see $scratch/probe-*.log)"
    return 1
  fi
  [ "$plain" -gt 0 ] || echo "   (this toolchain's Mutex is visible to TSan without it; the library is harmless)"
}

# probe_suppressions SCRATCH: checks sanitizers/tsan-suppressions.txt against the probes.
probe_suppressions() {
  local scratch=$1 suppressions="suppressions=$PWD/sanitizers/tsan-suppressions.txt"
  swiftc -sanitize=thread -g -o "$scratch/unique-probe" sanitizers/unique-probe.swift
  local unique suppressed racy preload="LD_PRELOAD=$PWD/$scratch/libtsan-mutex.so"
  unique=$(probe "$scratch/probe-unique.log" "$scratch/unique-probe")
  suppressed=$(probe "$scratch/probe-unique-suppressed.log" env "TSAN_OPTIONS=$suppressions" "$scratch/unique-probe")
  racy=$(probe "$scratch/probe-racy-suppressed.log" env "TSAN_OPTIONS=$suppressions" "$preload" "$scratch/mutex-probe" racy)
  echo "   Uniqueness probe: $unique report(s) plain, $suppressed with the suppressions; real race $racy with them"
  if [ "$suppressed" -eq 0 ] || [ "$racy" -eq 0 ]; then
    echo "!! sanitizers/tsan-suppressions.txt hides more than swift-nio's buffer reuse (see $scratch/probe-*.log)"
    return 1
  fi
  [ "$unique" -gt 0 ] || echo "   (this toolchain's uniqueness check is visible to TSan; the suppression may go)"
}

summary=()
failed=0
# The mail tests' real SMTP server and oracles (MailDeliveryTests), as scripts/test.sh sets them up.
mail_venv=$(scripts/mail/venv.sh) || { echo "sanitizers.sh: could not create the mail venv" >&2; exit 1; }
export PETSPOT_MAIL_PYTHON="$mail_venv/bin/python"
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    thread) scratch=.build-tsan ;;
    address) scratch=.build-asan ;;
    *) echo "sanitizers.sh: unknown sanitizer '$sanitizer' (thread or address)" >&2; exit 2 ;;
  esac
  started=$SECONDS
  mkdir -p "$scratch"
  echo "== $sanitizer: building with --sanitize=$sanitizer in $scratch"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" >"$scratch/build.log" 2>&1 \
    || { tail -n 30 "$scratch/build.log"; exit 1; }
  built=$((SECONDS - started))
  if [ "$sanitizer" = thread ]; then
    probe_mutex_annotations "$scratch" || exit 1
    probe_suppressions "$scratch" || exit 1
    environment=(env LD_PRELOAD="$PWD/$scratch/libtsan-mutex.so"
      TSAN_OPTIONS="suppressions=$PWD/sanitizers/tsan-suppressions.txt:print_suppressions=1")
  else
    environment=(env LSAN_OPTIONS="suppressions=$PWD/sanitizers/lsan-suppressions.txt")
  fi
  echo "== $sanitizer: swift test"
  status=0
  # As scripts/test.sh: no in-process parallelism, so the timing-sensitive server checks see an idle machine.
  "${environment[@]}" swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --no-parallel \
    >"$scratch/test.log" 2>&1 || status=$?
  count=$(reports "$scratch/test.log")
  # TSan prints "ThreadSanitizer: Matched N suppressions" at exit when one was used.
  matched=$(sed -nE 's/^ThreadSanitizer: Matched ([0-9]+) suppressions.*/\1/p' "$scratch/test.log" | tail -n 1)
  [ -z "$matched" ] || echo "   $sanitizer: $matched report(s) matched sanitizers/tsan-suppressions.txt:" \
    "$(grep -A3 'Matched [0-9]* suppressions' "$scratch/test.log" | tail -n +2 | tr '\n' ' ')"
  passed=$(sed -nE 's/.*Test run with ([0-9]+) tests? in [0-9]+ suites? passed.*/\1/p' "$scratch/test.log" | tail -n 1)
  verdict=passed
  if [ "$status" -ne 0 ] || [ "$count" -ne 0 ] || [ -z "$passed" ]; then
    verdict=FAILED
    failed=1
    grep -E '✘|SUMMARY: (Thread|Address|Leak)Sanitizer|Test run with' "$scratch/test.log" | head -n 20
  fi
  summary+=("$(printf '%-8s %-7s tests passed: %-5s sanitizer reports: %-3s build %4d s, tests %4d s' \
    "$sanitizer" "$verdict" "${passed:-?}" "$count" "$built" "$((SECONDS - started - built))")")
done

echo "== sanitizers"
printf '   %s\n' "${summary[@]}"
exit "$failed"
