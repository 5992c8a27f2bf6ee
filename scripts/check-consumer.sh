#!/usr/bin/env bash
# Proves the repository is consumable by URL: clones it, tags the clone 1.0.0, and builds throwaway consumer
# packages that depend on it by that git URL and version. Each consumer must build, and its resolved graph must not
# contain test-only or example-only dependencies (FlyingFox). The only other package a consumer may resolve is
# swift-log: TinyHTTPLogging, a library product, depends on it, and SwiftPM resolves (fetches) the dependencies of
# a dependency's library products for every consumer, used or not. Only a consumer of TinyHTTPLogging builds it.
# AsyncHTTPClient and SwiftNIO are the exception that traits make: TinyKit depends on them only under its
# `AsyncHTTPClient` trait, so a consumer resolves them only when it enables that trait (checked last, resolve only:
# building them takes minutes, and the package's own step builds and tests the module).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A snapshot of the working tree (committed and new files, minus ignored ones) as a fresh git repository.
mkdir -p "$work/tinykit"
git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && xargs -0 tar -cf - 2>/dev/null) |
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
# pins_of DIR: the identities a consumer resolved, TinyKit itself left out.
pins_of() { grep -o '"identity" : "[^"]*"' "$1/Package.resolved" | cut -d'"' -f4 | grep -v '^tinykit$' | sort | tr '\n' ' '; }

# consumer NAME PRODUCT ALLOWED_PINS [MORE_PRODUCTS]: builds and runs a consumer of PRODUCT (and MORE_PRODUCTS, space
# separated); fails if a pin outside ALLOWED_PINS appears.
consumer() {
    local name=$1 product=$2 allowed=$3 more=${4:-} dir="$work/$1" imports="" p pins
    for p in $product $more; do imports+="import $p"$'\n'; done
    write_consumer "$name" "$product $more" "${imports}print(HTTPMethod.get.rawValue)"
    swift build --package-path "$dir" >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
    pins=$(pins_of "$dir" || true)
    for pin in $pins; do
        case " $allowed " in *" $pin "*) ;; *)
            echo "FAIL: a consumer of $product resolved '$pin' (allowed: ${allowed:-nothing})"
            return 1
            ;;
        esac
    done
    "$dir/.build/debug/$name" | grep -qx GET
    echo "ok: a consumer of $product by URL builds and runs; it resolved: ${pins:-nothing but tinykit}"
}

consumer OnlyTransport TinyHTTPTransport "swift-log"
consumer Umbrella TinyKit "swift-log"
consumer WithLogging TinyHTTPLogging "swift-log" TinyHTTPTransport

# Without the trait: nothing of AsyncHTTPClient is resolved, and using the transport fails to compile with a message
# that names the trait to enable.
write_consumer TraitOff TinyAsyncHTTPClientTransport $'import TinyAsyncHTTPClientTransport\nprint(AsyncHTTPClientTransport.self)' '[]'
if swift build --package-path "$work/TraitOff" >"$work/TraitOff/build.log" 2>&1; then
    echo "FAIL: AsyncHTTPClientTransport compiled without the AsyncHTTPClient trait"
    exit 1
fi
grep -q "enable TinyKit's AsyncHTTPClient trait" "$work/TraitOff/build.log" ||
    { cat "$work/TraitOff/build.log"; echo "FAIL: no message naming the trait"; exit 1; }
case " $(pins_of "$work/TraitOff") " in *" async-http-client "* | *" swift-nio "*)
    echo "FAIL: a consumer without the trait resolved AsyncHTTPClient: $(pins_of "$work/TraitOff")"
    exit 1
    ;;
esac
echo "ok: without the trait, TinyAsyncHTTPClientTransport resolves nothing more and says which trait to enable"

# With the trait: AsyncHTTPClient and SwiftNIO are resolved (resolve only; the package step builds them).
write_consumer TraitOn TinyAsyncHTTPClientTransport \
    $'import TinyAsyncHTTPClientTransport\nprint(AsyncHTTPClientTransport.shared)' '["AsyncHTTPClient"]'
swift package --package-path "$work/TraitOn" resolve >"$work/TraitOn/resolve.log" 2>&1 ||
    { cat "$work/TraitOn/resolve.log"; exit 1; }
for pin in async-http-client swift-nio; do
    case " $(pins_of "$work/TraitOn") " in *" $pin "*) ;; *)
        echo "FAIL: a consumer with the trait did not resolve $pin: $(pins_of "$work/TraitOn")"
        exit 1
        ;;
    esac
done
echo "ok: with the AsyncHTTPClient trait, a consumer resolves async-http-client and swift-nio"
