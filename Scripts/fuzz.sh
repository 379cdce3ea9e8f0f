#!/usr/bin/env bash
# Fuzzes the Set-Cookie parser (RFC 6265bis §5.6) and the cookie-date parser
# (§5.1.1) with libFuzzer and AddressSanitizer.
#
# Builds Fuzz/ParserFuzz.swift together with the CookieCore parser sources
# into Fuzz/build/parser-fuzz, seeds Fuzz/build/corpus with a few Set-Cookie
# lines (kept between runs), then fuzzes for FUZZ_SECONDS (default 600).
# Extra arguments are passed to libFuzzer (for example -jobs=2 or a crash
# file to reproduce).
#
#   Scripts/fuzz.sh                  # ten minutes
#   FUZZ_SECONDS=30 Scripts/fuzz.sh  # a quick check
#   Scripts/fuzz.sh Fuzz/build/crash-<sha1>   # re-run one input
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/Fuzz/build"
corpus="$build/corpus"
binary="$build/parser-fuzz"
mkdir -p "$corpus"

# The toolchain's lld links sanitizer runtimes without gold's warnings.
linker=()
if [[ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]]; then linker=(-use-ld=lld); fi

echo "fuzz.sh: compiling $binary" >&2
# From the build folder (a subshell): the compiler leaves its module files in
# the current directory, which must not be the repository.
(cd "$build" && swiftc -O -wmo -sanitize=fuzzer,address -parse-as-library \
  -swift-version 6 -warnings-as-errors -g "${linker[@]}" \
  -module-name CookieParserFuzz \
  "$root/Fuzz/ParserFuzz.swift" \
  "$root/Sources/CookieCore/SameSite.swift" \
  "$root"/Sources/CookieCore/Parsing/*.swift \
  -o "$binary")

# Seed inputs: one file per line (existing files are left alone).
seed=0
while IFS= read -r line; do
  seed=$((seed + 1))
  file="$corpus/seed-$seed"
  [[ -e "$file" ]] || printf '%s' "$line" >"$file"
done <<'EOF'
SID=31d4d96e407aad42; Path=/; Domain=.example.com; Secure; HttpOnly
lang=en-US; Expires=Wed, 09 Jun 2021 10:18:14 GMT
id=a3fWa; Max-Age=2592000; SameSite=Lax; Partitioned; Secure
__Host-sess=x; path=/; Secure; SameSite=None; expires=Sunday, 06-Nov-94 08:49:37 GMT
foo; EXPIRES=Sun Nov  6 08:49:37 1994; max-age=-1; DOMAIN=..A.b; Path=rel
===a=bar ;; =; Domain=; Path=; SameSite=strict; Max-Age=+5; Max-Age=99999999999999999999
"quoted value"=  "x y" ; Expires=29 Feb 2024 23:59:59; Expires=30 Feb 2024 00:00:00
EOF
printf 'a=b\tc; Path=/\x01; x' >"$corpus/seed-ctl"

# A dictionary of the attribute names and date pieces.
dict="$build/set-cookie.dict"
cat >"$dict" <<'EOF'
"Expires="
"Max-Age="
"Domain="
"Path=/"
"Secure"
"HttpOnly"
"SameSite="
"Partitioned"
"Lax"
"Strict"
"None"
"; "
"="
"\x09"
"Sun, 06 Nov 1994 08:49:37 GMT"
"Sunday, 06-Nov-94 08:49:37 GMT"
"Sun Nov  6 08:49:37 1994"
"Feb"
"29"
"1601"
"9999"
"23:59:59"
"\xc3\xa9"
EOF

export SWIFT_BACKTRACE=enable=no
if [[ $# -gt 0 && -f "$1" ]]; then
  # Re-run the given inputs only.
  exec "$binary" "$@"
fi

echo "fuzz.sh: fuzzing for ${FUZZ_SECONDS:-600} s" >&2
"$binary" \
  -max_total_time="${FUZZ_SECONDS:-600}" \
  -artifact_prefix="$build/" \
  -max_len=8192 \
  -dict="$dict" \
  -print_final_stats=1 \
  "$@" \
  "$corpus"
