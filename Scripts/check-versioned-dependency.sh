#!/usr/bin/env bash
# Builds a separate package that depends on WebsiteData *by version*, as a
# user's package would: a clean clone of this repository's HEAD, tagged
# 99.0.0, required with `from: "99.0.0"`. SwiftPM refuses a versioned
# dependency that uses `unsafeFlags`, so this fails if Package.swift ever
# gains one; it also checks that the public API builds and works from outside.
#
# Usage: Scripts/check-versioned-dependency.sh   (exit 0: the consumer built
# and printed the expected Cookie header). Needs git and the Swift toolchain;
# works offline (the dependency is a local file:// repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks "$root" "$work/websitedata"
git -C "$work/websitedata" -c user.name=ci -c user.email=ci@localhost \
  tag -a 99.0.0 -m "versioned-dependency check"

mkdir -p "$work/consumer/Sources/Consumer"
cat > "$work/consumer/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Consumer",
  dependencies: [.package(url: "file://$work/websitedata", from: "99.0.0")],
  targets: [
    .executableTarget(
      name: "Consumer", dependencies: [.product(name: "WebsiteData", package: "websitedata")])
  ]
)
SWIFT
cat > "$work/consumer/Sources/Consumer/main.swift" <<'SWIFT'
import Foundation
import WebsiteData

let store = WebsiteDataStore.nonPersistent()
let page = try store.url("https://www.example.com/")
try await store.httpCookieStore.processResponse(
  setCookieHeaders: ["sid=1; Secure; HttpOnly", "tracker=1; Domain=com"],
  for: .navigation(to: page))
// A cookie made outside the package is valid by construction.
let made = Cookie.sanitized(
  url: page, name: "lang", value: "en", now: Date(), facts: store.httpCookieStore.domainFacts)
guard let cookie = made.cookie, made.status.isIncluded else { fatalError("lang refused") }
try await store.httpCookieStore.setCookie(cookie)
let lookup = await store.httpCookieStore.cookies(for: .navigation(to: page))
print(lookup.header ?? "(none)")
SWIFT

cd "$work/consumer"
swift build --quiet
output="$(swift run --skip-build Consumer)"
if [ "$output" != "sid=1; lang=en" ]; then
  echo "error: the consumer printed '$output', not 'sid=1; lang=en'" >&2
  exit 1
fi
echo "A package depending on WebsiteData by version (from: 99.0.0) built and ran."
