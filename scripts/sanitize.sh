#!/usr/bin/env bash
# Runs the root test suite under a sanitizer, in its own build folder:
#
#   scripts/sanitize.sh thread     ThreadSanitizer (.build-tsan), third-party races suppressed by
#                                  scripts/tsan-suppressions.txt
#   scripts/sanitize.sh address    AddressSanitizer + LeakSanitizer (.build-asan), toolchain leaks suppressed by
#                                  scripts/lsan-suppressions.txt
#   scripts/sanitize.sh ahc-thread ThreadSanitizer on Packages/TinyAsyncHTTPClientTransport standalone
#                                  (AsyncHTTPClient, SwiftNIO and the transport behaviour suite; its .build-tsan)
#   scripts/sanitize.sh            thread and address
#
# Exits non-zero when a test fails or the sanitizer reports anything.
#
# At most two tests run at once (Swift Testing's `--experimental-maximum-parallelization-width`): a sanitized test
# process with the default width keeps both cores of a CI machine busy, and tests that wait for a server a few seconds
# (a raw client's 10 s, the examples' 15 s per combination) then time out. On 2026-11-28 the root suite under
# ThreadSanitizer failed that way in each of five runs, the last on an idle two-core machine (80 failed
# expectations), and passed at width 2 (82 s).
set -euo pipefail
cd "$(dirname "$0")/.."

width=(--experimental-maximum-parallelization-width 2)
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(thread address)
for mode in "${modes[@]}"; do
    case $mode in
    thread)
        TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
            swift test --traits Logging --sanitize=thread --scratch-path .build-tsan "${width[@]}"
        ;;
    ahc-thread)
        TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
            swift test --package-path Packages/TinyAsyncHTTPClientTransport \
            --scratch-path Packages/TinyAsyncHTTPClientTransport/.build-tsan --sanitize=thread "${width[@]}"
        ;;
    address)
        ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" \
            LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt print_suppressions=0 ${LSAN_OPTIONS:-}" \
            swift test --traits Logging --sanitize=address --scratch-path .build-asan "${width[@]}"
        ;;
    *)
        echo "usage: $0 [thread|address|ahc-thread]..." >&2
        exit 2
        ;;
    esac
done
