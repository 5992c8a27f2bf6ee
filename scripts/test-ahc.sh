#!/usr/bin/env bash
# Tests Packages/TinyAsyncHTTPClientTransport standalone: its unit tests, its README, and the transport behaviour
# suite against both URLSessionTransport and AsyncHTTPClientTransport on the in-process server.
#
# AsyncHTTPClient and SwiftNIO take minutes to build, so this build is the only one CI makes of them in debug: it also
# writes the module's symbol graph, which scripts/build-docs.sh then finds (it runs this build, a no-op by then, with
# the same flags). Extra arguments go to `swift test` (for example `--filter Readme`).
set -euo pipefail
cd "$(dirname "$0")/.."
package=Packages/TinyAsyncHTTPClientTransport
# Inside the build folder, so that the graph and the build it comes from are never out of step.
graphs="$PWD/$package/.build/symbolgraphs"
mkdir -p "$graphs"
flags=(--package-path "$package" --scratch-path "$package/.build"
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" -Xswiftc -emit-extension-block-symbols)
if [ "${1:-}" = --build-only ]; then
    swift build "${flags[@]}" --target TinyAsyncHTTPClientTransport
else
    swift test "${flags[@]}" "$@"
fi
