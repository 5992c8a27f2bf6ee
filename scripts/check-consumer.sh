#!/usr/bin/env bash
# Proves the repository is consumable by URL: clones it, tags the clone 1.0.0, and builds throwaway consumer
# packages that depend on it by that git URL and version. Each consumer must build (or, for a product whose trait is
# off, fail with a message naming the trait), and the third-party packages it resolves and checks out must be exactly
# the ones its traits call for:
#
#   no trait           nothing at all: no swift-log, no AsyncHTTPClient, no SwiftNIO, no test-only FlyingFox
#                      (the plain consumers, and the consumers of TinyHTTPLogging and TinyAsyncHTTPClientTransport
#                      with their traits off, which get placeholders that name the trait to enable)
#   Logging            swift-log, and TinyHTTPLogging's middleware builds and logs
#   AsyncHTTPClient    async-http-client and swift-nio among others (resolve only: building them takes minutes, and
#                      scripts/test-ahc.sh builds and tests the module)
#
# Needs SwiftPM 6.2 or later: 6.1 fetches a trait's dependencies even when the trait is off (and TinyKit declares
# the Logging trait only for 6.2+).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# A snapshot of the working tree (committed and new files, minus ignored ones and files deleted but not yet
# committed) as a fresh git repository.
mkdir -p "$work/tinykit"
git -C "$root" ls-files -z --cached --others --exclude-standard |
    (cd "$root" && while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done | xargs -0 tar -cf -) |
    tar -xf - -C "$work/tinykit"
git -C "$work/tinykit" init --quiet
git -C "$work/tinykit" add -A
git -C "$work/tinykit" -c user.name=ci -c user.email=ci@localhost commit --quiet -m snapshot
git -C "$work/tinykit" tag 1.0.0

# write_consumer NAME PRODUCTS SOURCE [TRAITS]: writes a consumer package of the space-separated PRODUCTS whose
# main.swift is SOURCE; TRAITS, a Swift array literal, is the traits it enables on TinyKit (none given: the defaults).
write_consumer() {
    local name=$1 source=$3 traits=${4:+, traits: $4} dir="$work/$1" deps="" p
    for p in $2; do
        deps+="${deps:+, }.product(name: \"$p\", package: \"tinykit\")"
    done
    mkdir -p "$dir/Sources/$name"
    cat >"$dir/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "$name",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "file://$work/tinykit", from: "1.0.0"$traits)],
    targets: [.executableTarget(name: "$name", dependencies: [$deps])]
)
MANIFEST
    printf '%s\n' "$source" >"$dir/Sources/$name/main.swift"
}
# pins_of DIR: the identities a consumer resolved (its Package.resolved), TinyKit itself left out.
pins_of() {
    [ -f "$1/Package.resolved" ] || return 0
    grep -o '"identity" : "[^"]*"' "$1/Package.resolved" | cut -d'"' -f4 | { grep -v '^tinykit$' || true; } | sort |
        tr '\n' ' '
}
# checkouts_of DIR: the packages a consumer fetched (its .build/checkouts), TinyKit itself left out.
checkouts_of() { { ls "$1/.build/checkouts" 2>/dev/null || true; } | { grep -v '^tinykit$' || true; } | sort | tr '\n' ' '; }

# expect_packages NAME EXACT [AT_LEAST]: fails unless consumer NAME resolved and fetched exactly the space-separated
# packages EXACT ("" for none), or, with AT_LEAST=at-least, at least them.
expect_packages() {
    local name=$1 want="" dir="$work/$1" pins checkouts p
    for p in $2; do want+="$p "; done
    want=$(printf '%s' "$want" | tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' ' || true)
    pins=$(pins_of "$dir")
    checkouts=$(checkouts_of "$dir")
    if [ "${3:-}" = at-least ]; then
        for p in $2; do
            case " $pins " in *" $p "*) ;; *) echo "FAIL: $name did not resolve $p (resolved: ${pins:-nothing})"; return 1 ;; esac
            case " $checkouts " in *" $p "*) ;; *) echo "FAIL: $name did not fetch $p (fetched: ${checkouts:-nothing})"; return 1 ;; esac
        done
        return 0
    fi
    [ "$pins" = "$want" ] ||
        { echo "FAIL: $name resolved '${pins:-nothing}', expected '${want:-nothing}'"; return 1; }
    [ "$checkouts" = "$want" ] ||
        { echo "FAIL: $name fetched '${checkouts:-nothing}', expected '${want:-nothing}'"; return 1; }
}

# consumer NAME PRODUCTS TRAITS EXPECTED_PACKAGES SOURCE: builds and runs a consumer of PRODUCTS with TRAITS (a Swift
# array literal) on TinyKit; it must print GET and resolve exactly EXPECTED_PACKAGES.
consumer() {
    local name=$1 dir="$work/$1"
    write_consumer "$name" "$2" "$5" "$3"
    swift build --package-path "$dir" >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
    expect_packages "$name" "$4"
    "$dir/.build/debug/$name" 2>"$dir/run.log" | grep -qx GET ||
        { cat "$dir/run.log"; echo "FAIL: $name did not print GET"; return 1; }
    echo "ok: $name ($2; traits: ${3:-the defaults}) builds and runs; it resolved and fetched: ${4:-nothing but tinykit}"
}

# placeholder NAME PRODUCT TRAIT SOURCE: a consumer of PRODUCT with no trait enabled must fail to compile SOURCE with
# a message naming TRAIT, and resolve nothing but TinyKit.
placeholder() {
    local name=$1 dir="$work/$1"
    write_consumer "$name" "$2" "$4" '[]'
    if swift build --package-path "$dir" >"$dir/build.log" 2>&1; then
        echo "FAIL: $name compiled without the $3 trait"
        return 1
    fi
    grep -q "error: .*enable TinyKit's $3 trait" "$dir/build.log" ||
        { cat "$dir/build.log"; echo "FAIL: $name: no message naming the $3 trait"; return 1; }
    expect_packages "$name" ""
    echo "ok: $name: without the $3 trait, $2 resolves and fetches nothing but tinykit and says which trait to enable:"
    grep -m 1 -o "error: .*enable TinyKit's $3 trait.*" "$dir/build.log" | sed 's/^/    /'

}

# No trait: every package a consumer could want comes from TinyKit itself.
consumer OnlyTransport TinyHTTPTransport '[]' "" $'import TinyHTTPTransport\nprint(HTTPMethod.get.rawValue)'
# The defaults (no `traits:` at all) are the same: both traits are off by default.
consumer Umbrella TinyKit "" "" $'import TinyKit\nprint(HTTPMethod.get.rawValue)'
placeholder LoggingOff TinyHTTPLogging Logging \
    $'import TinyHTTPLogging\nimport TinyHTTPTransport\n_ = URLSessionTransport.shared.with(.logging("app"))'
placeholder AsyncHTTPClientOff TinyAsyncHTTPClientTransport AsyncHTTPClient \
    $'import TinyAsyncHTTPClientTransport\nprint(AsyncHTTPClientTransport.self)'

# Logging: swift-log and nothing else; the middleware logs a request through it.
consumer WithLogging "TinyHTTPLogging TinyHTTPTransport" '["Logging"]' swift-log "$(
    cat <<'SOURCE'
import Foundation
import Logging
import TinyHTTPLogging
import TinyHTTPTransport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Answer: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        (Data(), HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: nil, headerFields: nil)!)
    }
}
let transport = Answer().with(.logging(Logger(label: "consumer")))
let (_, response) = try await transport.send(URLRequest(url: URL(string: "http://example.com/")!))
print(response.statusCode == 204 ? HTTPMethod.get.rawValue : "unexpected \(response.statusCode)")
SOURCE
)"

# AsyncHTTPClient: AsyncHTTPClient and SwiftNIO are resolved and fetched (resolve only; test-ahc builds them).
write_consumer AsyncHTTPClientOn TinyAsyncHTTPClientTransport \
    $'import TinyAsyncHTTPClientTransport\nprint(AsyncHTTPClientTransport.shared)' '["AsyncHTTPClient"]'
swift package --package-path "$work/AsyncHTTPClientOn" resolve >"$work/AsyncHTTPClientOn/resolve.log" 2>&1 ||
    { cat "$work/AsyncHTTPClientOn/resolve.log"; exit 1; }
expect_packages AsyncHTTPClientOn "async-http-client swift-nio" at-least
echo "ok: AsyncHTTPClientOn: with the AsyncHTTPClient trait, a consumer resolves and fetches async-http-client and" \
    "swift-nio (all: $(pins_of "$work/AsyncHTTPClientOn"))"
echo "consumer check: $((SECONDS - started)) s"
