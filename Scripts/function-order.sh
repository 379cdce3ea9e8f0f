#!/usr/bin/env bash
# Writes Scripts/bench-function-order.txt: the functions of sitedata-bench that the peer workloads run
# most (W5, W3, W2-20k, W1), hottest first, as the section names of a linker ordering file.
#
#   Scripts/function-order.sh [BIN]     # BIN: a release sitedata-bench (default: built here)
#
# Scripts/bench.sh links the benchmark with this order (each function in its own section,
# `-function-sections`; gold's `--section-ordering-file`), so the code a request or a cookie runs
# sits on a few neighbouring pages instead of being spread over the binary's 16 MB of text: fewer
# instruction-TLB and instruction-cache misses, the profile-guided layout release builds of browsers
# use. The order changes no behaviour; a stale entry only loses its place (the linker ignores a
# section it does not find). Re-run after large changes to the hot paths.
#
# Needs valgrind (callgrind) and the peer data (BENCH_WORK, as for bench.sh), and nginx for W5
# (the peer benchmark's loopback server). Takes about 3 minutes.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SHARED_BENCH:-$repo/../shared/bench}"
work="${BENCH_WORK:-/tmp/websitedata-peer-bench}"
data="$work/data"
output="$repo/Scripts/bench-function-order.txt"
bin="${1:-}"
if [ -z "$bin" ]; then
  build=(swift build -c release --product sitedata-bench --package-path "$repo" --static-swift-stdlib)
  [ -n "${SCRATCH_PATH:-}" ] && build+=(--scratch-path "$SCRATCH_PATH")
  "${build[@]}" >&2
  bin="$("${build[@]}" --show-bin-path)/sitedata-bench"
fi
[ -f "$data/MANIFEST" ] || BENCH_WORK="$work" "$shared/make-data.sh" >&2
profiles="$(mktemp -d)"
server="$profiles/nginx"
trap '"$shared/w5/server.sh" stop "$server" >/dev/null 2>&1 || true; rm -rf "$profiles"' EXIT

# Each workload's timed region alone (Bench.seconds), then W5's loop thread.
collect=(--toggle-collect='*SiteDataBench0C0O7seconds*')
valgrind --tool=callgrind "${collect[@]}" --callgrind-out-file="$profiles/w3.out" \
  "$bin" w3 "$data/w3.tsv" "$data/w3-expected.txt" >/dev/null 2>&1
valgrind --tool=callgrind "${collect[@]}" --callgrind-out-file="$profiles/w2.out" \
  "$bin" w2 "$data/w2-20k-jar.tsv" "$data/w2-20k-urls.txt" "$data/w2-20k-expected.tsv" 20000 20k \
  >/dev/null 2>&1
valgrind --tool=callgrind "${collect[@]}" --callgrind-out-file="$profiles/w1.out" \
  "$bin" w1 "$data/w1.tsv" >/dev/null 2>&1
port=$((20000 + RANDOM % 20000))
mkdir -p "$server"
env -u BENCH_CPU "$shared/w5/server.sh" start "$server" "$port" $((port + 1)) $((port + 2)) >/dev/null
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$profiles/w5.out" \
  "$bin" w5 "http://127.0.0.1:$port" 3000 >/dev/null 2>&1

python3 - "$bin" "$output" "$profiles" <<'PY'
import glob, re, subprocess, sys

binary, output, profiles = sys.argv[1:4]


def self_costs(path):
    """Self instruction counts of the binary's functions in one profile, hottest first."""
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", "--auto=no", path],
        capture_output=True, text=True, check=True).stdout
    costs = []
    for line in out.splitlines():
        match = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*) \[(.*)\]$", line)
        if match and match.group(3) == binary:
            name = re.sub(r"^[^:]*:", "", match.group(2))
            costs.append((int(match.group(1).replace(",", "")), name))
    return costs


def total(path):
    """A profile's total instruction count."""
    with open(path) as file:
        for line in file:
            if line.startswith("totals:"):
                return int(line.split()[1])
    return 0


# W5's loop thread runs the most instructions (the main thread only parses the URLs).
w5 = max(glob.glob(profiles + "/w5.out-*"), key=total)
order = []
for path in [w5, profiles + "/w3.out", profiles + "/w2.out", profiles + "/w1.out"]:
    costs = self_costs(path)
    total = sum(cost for cost, _ in costs)
    # Everything above 0.001% of the workload's instructions, hottest first.
    order += [name for cost, name in costs if cost * 100000 >= total and name not in order]

# callgrind shows C++ names demangled; the sections carry the raw symbol.
raw = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
demangled = subprocess.run(["nm", "-C", "--defined-only", binary], capture_output=True, text=True).stdout
symbols = {}
for plain, readable in zip(raw.splitlines(), demangled.splitlines()):
    plain_parts, readable_parts = plain.split(" ", 2), readable.split(" ", 2)
    if len(plain_parts) == 3 and plain_parts[1] in "tT":
        symbols.setdefault(readable_parts[2], plain_parts[2])
        symbols.setdefault(plain_parts[2], plain_parts[2])
sections = [".text." + symbols[name] for name in order if name in symbols]
with open(output, "w") as file:
    file.write("\n".join(sections) + "\n")
print("%s: %d functions (%d not found by name)" % (output, len(sections), len(order) - len(sections)),
      file=sys.stderr)
PY
