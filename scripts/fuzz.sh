#!/usr/bin/env bash
# Fuzzes URL building, query encoding and the mock file-name mapping with libFuzzer (the toolchain's) and
# AddressSanitizer, for a bounded time: Fuzz/Sources/tinykit-fuzz/FuzzTarget.swift states the invariants.
#
#   scripts/fuzz.sh          60 seconds
#   scripts/fuzz.sh 600      ten minutes
#
# Starts from the committed corpus (Fuzz/Corpus); new inputs go to a temporary folder, findings (crash-*, leak-*)
# to Fuzz/.build/. Exits non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}

swift build --package-path Fuzz --scratch-path Fuzz/.build \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp Fuzz/Corpus/* "$corpus"
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt print_suppressions=0" \
    Fuzz/.build/debug/tinykit-fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=Fuzz/.build/ "$corpus"
