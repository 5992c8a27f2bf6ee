#!/usr/bin/env bash
# Proves the repository is consumable by URL: clones it, tags the clone 1.0.0, and builds throwaway consumer
# packages that depend on it by that git URL and version. Each consumer must build, and its resolved graph must not
# contain test-only or example-only dependencies (FlyingFox). The only other package a consumer may resolve is
# swift-log: TinyHTTPLogging, a library product, depends on it, and SwiftPM resolves (fetches) the dependencies of
# a dependency's library products for every consumer, used or not. Only a consumer of TinyHTTPLogging builds it.
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

# consumer NAME PRODUCT ALLOWED_PINS [MORE_PRODUCTS]: builds a consumer of PRODUCT (and MORE_PRODUCTS, space
# separated); fails if a pin outside ALLOWED_PINS appears.
consumer() {
    local name=$1 product=$2 allowed=$3 more=${4:-} dir="$work/$1" deps imports p
    deps=".product(name: \"$product\", package: \"tinykit\")"
    imports="import $product"
    for p in $more; do
        deps+=", .product(name: \"$p\", package: \"tinykit\")"
        imports+=$'\n'"import $p"
    done
    mkdir -p "$dir/Sources/$name"
    cat >"$dir/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "$name",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "file://$work/tinykit", from: "1.0.0")],
    targets: [.executableTarget(name: "$name", dependencies: [$deps])]
)
MANIFEST
    cat >"$dir/Sources/$name/main.swift" <<SOURCE
$imports
print(HTTPMethod.get.rawValue)
SOURCE
    swift build --package-path "$dir" >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
    local pins
    pins=$(grep -o '"identity" : "[^"]*"' "$dir/Package.resolved" | cut -d'"' -f4 | grep -v '^tinykit$' | sort | tr '\n' ' ' || true)
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
