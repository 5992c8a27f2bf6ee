#!/usr/bin/env bash
# Builds the DocC documentation of every module with the toolchain's own `docc`, warnings as errors.
# Output: .build-docs/site/<Module>.doccarchive. Exits non-zero on any documentation warning or error, and when a
# public declaration has no doc comment (scripts/check-doc-comments.swift).
# Offline docc resolves ``Symbol`` links only within one module: refer to another module's symbols as `Symbol`.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(
    TinyHTTPTransport:TinyHTTPTransport TinyHTTPLogging:TinyHTTPLogging TinyEndpoint:TinyEndpoint TinyMocks:TinyMocks
    TinyRequestState:TinyRequestState TinyStore:TinyStore TinyStore:TinyStoreTesting
    TinyStatefulEndpoint:TinyStatefulEndpoint TinyAsyncHTTPClientTransport:TinyAsyncHTTPClientTransport umbrella:TinyKit
)
scratch=.build-docs
graphs="$scratch/symbolgraphs"
# Kept between runs: a module that is up to date is not recompiled, so its graph is not written again.
mkdir -p "$graphs"
# Symbol graphs of the library modules only (the umbrella, TinyStoreTesting and TinyHTTPLogging, which the umbrella
# leaves out, pull in every one of them).
for target in TinyKit TinyStoreTesting TinyHTTPLogging; do
    swift build --traits Logging --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
        -Xswiftc -emit-extension-block-symbols >"$scratch/build.log" 2>&1 ||
        { cat "$scratch/build.log"; exit 1; }
done
# On Linux TinyHTTPTransport re-exports FoundationNetworking, and a graph emitted while compiling holds the symbols
# of the modules it re-exports (about 640 of FoundationNetworking's would be documented as TinyHTTPTransport's). Its
# graphs come from swift-symbolgraph-extract instead, as the swift-docc-plugin makes them: re-exports left out, the
# module's extensions of FoundationNetworking's types in TinyHTTPTransport@FoundationNetworking.symbols.json.
if [ "$(uname)" = Linux ]; then
    triple=$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)
    module_dir="$(swift build --scratch-path "$scratch" --show-bin-path)/Modules"
    rm -f "$graphs"/TinyHTTPTransport.symbols.json "$graphs"/TinyHTTPTransport@*.symbols.json
    swift-symbolgraph-extract -module-name TinyHTTPTransport -I "$module_dir" -target "$triple" \
        -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs"
fi
# TinyAsyncHTTPClientTransport's graph comes from its standalone package build (the root builds it only with the
# AsyncHTTPClient trait): scripts/test-ahc.sh writes it, and after that step this build is a no-op.
scripts/test-ahc.sh --build-only >"$scratch/build-ahc.log" 2>&1 || { cat "$scratch/build-ahc.log"; exit 1; }
cp Packages/TinyAsyncHTTPClientTransport/.build/symbolgraphs/TinyAsyncHTTPClientTransport{,@*}.symbols.json "$graphs/"
mkdir -p "$scratch/site"
status=0
for entry in "${modules[@]}"; do
    package=${entry%%:*}
    module=${entry##*:}
    own="$scratch/graphs/$module"
    rm -rf "$own" && mkdir -p "$own"
    catalog="Packages/$package/Sources/$module/Documentation.docc"
    if [ "$package" = umbrella ]; then
        # The umbrella declares nothing of its own: articles only (its graph would repeat every module's symbols).
        catalog="Sources/$module/Documentation.docc"
    else
        # The module's own graph and its extensions of other modules' types (Module@Other.symbols.json).
        cp "$graphs/$module.symbols.json" "$own/" 2>/dev/null ||
            { echo "FAIL $module: no symbol graph"; status=1; continue; }
        find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$own/" \;
    fi
    args=()
    [ -d "$catalog" ] || { echo "FAIL $module: no documentation catalog at $catalog"; status=1; continue; }
    args+=("$catalog")
    if docc convert "${args[@]}" --additional-symbol-graph-dir "$own" --fallback-display-name "$module" \
        --fallback-bundle-identifier "tinykit.$module" --warnings-as-errors \
        --output-path "$scratch/site/$module.doccarchive" >"$scratch/$module.log" 2>&1; then
        echo "ok   $module"
    else
        echo "FAIL $module"
        cat "$scratch/$module.log"
        status=1
    fi
done
# Every public declaration of the modules above has a doc comment (docc does not warn about a missing one).
if swift scripts/check-doc-comments.swift "$PWD/Packages" "$scratch"/graphs/*/*.symbols.json; then
    echo "ok   doc comments"
else
    echo "FAIL doc comments"
    status=1
fi
exit $status
