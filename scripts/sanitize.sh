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
set -euo pipefail
cd "$(dirname "$0")/.."

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(thread address)
for mode in "${modes[@]}"; do
    case $mode in
    thread)
        TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
            swift test --traits Logging --sanitize=thread --scratch-path .build-tsan
        ;;
    ahc-thread)
        TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
            swift test --package-path Packages/TinyAsyncHTTPClientTransport \
            --scratch-path Packages/TinyAsyncHTTPClientTransport/.build-tsan --sanitize=thread
        ;;
    address)
        ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" \
            LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt print_suppressions=0 ${LSAN_OPTIONS:-}" \
            swift test --traits Logging --sanitize=address --scratch-path .build-asan
        ;;
    *)
        echo "usage: $0 [thread|address|ahc-thread]..." >&2
        exit 2
        ;;
    esac
done
