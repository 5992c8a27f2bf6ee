#!/usr/bin/env bash
# Runs every test of the monorepo: the format lint, the root suite (every package's unit tests and the integration
# tests, from one build), then each package standalone in dependency order, each in its own build folder (their
# manifests turn warnings into errors). Prints one summary line per step; exits non-zero if any step fails.
#
#   scripts/test-all.sh            everything
#   SKIP_STANDALONE=1 scripts/test-all.sh   root suite and lint only (a quick local loop)
set -uo pipefail
cd "$(dirname "$0")/.."

packages=(TinyHTTPTransport TinyKitTestServer TinyHTTPLogging TinyRequestState TinyEndpoint TinyMocks TinyStore TinyStatefulEndpoint)
logs=.build-logs
mkdir -p "$logs"
summary=()
failed=0

# step NAME COMMAND...: runs a step, keeps its output in .build-logs/NAME.log, records one summary line.
step() {
    local name=$1
    shift
    local start=$SECONDS
    echo "==> $name: $*"
    # A step that outlives its limit is stopped and fails (the test suites have time limits of their own; this one
    # catches a hang outside a test, in a build or a script).
    if timeout --kill-after=30 "${STEP_LIMIT:-2400}" "$@" >"$logs/$name.log" 2>&1; then
        summary+=("PASS  $name ($((SECONDS - start)) s)")
    else
        summary+=("FAIL  $name ($((SECONDS - start)) s, log: $logs/$name.log)")
        failed=1
        tail -n 60 "$logs/$name.log"
    fi
    # The closing lines of Swift Testing and of XCTest, when the step ran tests.
    grep -E "Test run with [0-9]+ tests?" "$logs/$name.log" | tail -n 1
    grep -E "Executed [0-9]+ tests?" "$logs/$name.log" | tail -n 1
}

step format-lint swift format lint --strict --recursive --parallel Package.swift Sources Tests Examples Packages Benchmarks Fuzz scripts
step time-limits scripts/check-time-limits.sh
# With the Logging trait: TinyHTTPLogging's tests need swift-log, which the root resolves only under that trait
# (SwiftPM 6.3 cannot enable a trait for test targets alone). Without it they are skipped, saying why.
step root swift test --traits Logging
if [ -z "${SKIP_STANDALONE:-}" ]; then
    # The root suite under ThreadSanitizer, then AddressSanitizer + LeakSanitizer (own build folders; about 3 and 4
    # minutes from clean on 2 cores).
    step sanitize-thread scripts/sanitize.sh thread
    step sanitize-address scripts/sanitize.sh address
    # libFuzzer over URL building, query encoding and mock file names: 60 s after a build of about a minute.
    step fuzz scripts/fuzz.sh 60
    for p in "${packages[@]}"; do
        step "$p" swift test --package-path "Packages/$p" --scratch-path "Packages/$p/.build"
    done
    # AsyncHTTPClient's package: its one debug build of AsyncHTTPClient and SwiftNIO (about 3 minutes), which the
    # docs step reuses. The behaviour suite runs here against both transports.
    step TinyAsyncHTTPClientTransport scripts/test-ahc.sh
    # The same package under ThreadSanitizer, in a build folder of its own (AsyncHTTPClient and SwiftNIO again, with
    # TSan: the longest step, measured in the closing note of the session that added it).
    step TinyAsyncHTTPClientTransport-tsan scripts/sanitize.sh ahc-thread
    step consumer-by-url scripts/check-consumer.sh
    step docs scripts/build-docs.sh
    # The benchmark program in smoke mode (in process, tiny counts; fails on a correctness check such as one
    # transport call for 1,000 concurrent loadIfNeeded()). The full run, scripts/bench.sh, is not part of CI.
    # Its release build is CI's second build of AsyncHTTPClient, and the first of the root manifest with the
    # AsyncHTTPClient trait on: it compiles the trait-guarded target and the umbrella's re-export as a consumer sees
    # them (about 4 minutes).
    step bench-smoke scripts/bench.sh --smoke
    # The examples on AsyncHTTPClientTransport (Examples/README.md: "they are tests too"): the root manifest with
    # the AsyncHTTPClient trait, in a debug build folder of its own (CI's third and last build of AsyncHTTPClient,
    # about 3 minutes).
    # A filter that matches nothing would pass with no test run: the step needs a passing run of at least one.
    step examples-asynchttpclient bash -c 'set -o pipefail; swift test --traits AsyncHTTPClient \
        --scratch-path .build-ahc --filter TinyKitExamplesTests 2>&1 | tee /dev/stderr |
        grep -E "Test run with [1-9][0-9]* tests? .*passed" >/dev/null'
fi

echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
passed=$(printf '%s\n' "${summary[@]}" | grep -c '^PASS' || true)
echo "steps: $passed passed, $((${#summary[@]} - passed)) failed"
exit $failed
