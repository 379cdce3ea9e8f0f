#!/usr/bin/env bash
# Runs the peer benchmarks of ../shared/bench (W1 parse, W2 lookup, W3 ingest, W4 persist, W5 loader) with this engine
# (`sitedata-bench`) interleaved with the peers, then prints the engine's rate over each peer's.
#
#   Scripts/bench.sh                        # W1|W2|W3|W4|W5, 3 runs each, medians
#   RUNS=5 ONLY='W2' Scripts/bench.sh
#   ONLY=Import Scripts/bench.sh           # only the imports at scale (10k, 100k, 1M lines)
#   SCRATCH_PATH=/tmp/build-bench Scripts/bench.sh   # build outside .build
#   STATIC_STDLIB=1 Scripts/bench.sh        # opt in: link the Swift runtime statically
#   FUNCTION_ORDER=1 Scripts/bench.sh       # opt in: link with Scripts/bench-function-order.txt
#
# Environment: ONLY (job regex, default W1|W2|W3|W4|W5|Import; Import alone skips the peers), RUNS (default 3), BENCH_WORK (data, builds and
# results of the peers; default /tmp/websitedata-peer-bench), SHARED_BENCH (the peer benchmark
# folder; default ../shared/bench next to the repository), SCRATCH_PATH (swift build scratch path),
# STATIC_STDLIB (0, the default: the benchmark is built as a user builds the library, `swift build
# -c release`, the Swift runtime linked dynamically; 1, opt-in: `--static-swift-stdlib`), FUNCTION_ORDER
# (0, the default: the compiler's layout; 1, opt-in: each function in its own section and the hot ones
# laid out together in the order of Scripts/bench-function-order.txt, made by Scripts/function-order.sh
# from callgrind profiles of the workloads). The reported figures use the defaults: the library as
# users build it, with no special link steps.
# Targets: W1 >= 2x Go; through the public store API (the -store lines) W2 >= 10x Go at 20k and >= 7x
# at 200k, W3 >= 1.5x Go; jar-level W2 >= 10x and W3 >= 2x Go; W4 save at most 1.5x Python's time,
# W4 load >= 10x libcurl and faster than Python; W5 (ordinary load calls) within 10% of libcurl
# without cookies and faster than libcurl with its cookie engine.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SHARED_BENCH:-$repo/../shared/bench}"
build=(swift build -c release --product sitedata-bench --package-path "$repo")
[ -n "${SCRATCH_PATH:-}" ] && build+=(--scratch-path "$SCRATCH_PATH")
[ "${STATIC_STDLIB:-0}" = 1 ] && build+=(--static-swift-stdlib)
if [ "${FUNCTION_ORDER:-0}" = 1 ]; then
  build+=(-Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xlinker "--section-ordering-file=$repo/Scripts/bench-function-order.txt")
fi
echo "== build sitedata-bench (release)" >&2
bindir="$("${build[@]}" --show-bin-path)"
# Release builds inline engine code into the benchmark (cross-module optimization), but an
# incremental build does not recompile the benchmark when only an engine function body changed:
# drop the benchmark's own objects so that it always runs the engine as it is now. Touching the
# manifest makes SwiftPM plan the build again: with an unchanged plan it would look for the
# dropped objects' output file map and fail.
rm -rf "$bindir/SiteDataBench.build"
touch "$repo/Package.swift"
"${build[@]}" >&2
bin="$bindir/sitedata-bench"

summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
if [ "${ONLY:-}" != Import ]; then
ENGINE_BENCH="$bin" ONLY="${ONLY:-W1|W2|W3|W4|W5}" RUNS="${RUNS:-3}" \
  BENCH_WORK="${BENCH_WORK:-/tmp/websitedata-peer-bench}" "$shared/run-peers.sh" | tee "$summary"

echo
echo "== websitedata against each peer (median rates; higher is better)"
python3 - "$summary" <<'PY'
import sys

ENGINE = "websitedata"
# (workload, peer, minimum ratio[, the peer's workload when it is named differently])
TARGETS = [("W1", "go-cookiejar", 2),
           # W2 and W3 through the public store API (issue #14), beside the jar-level figures
           ("W2-20k-store", "go-cookiejar", 10, "W2-20k"), ("W2-200k-store", "go-cookiejar", 7, "W2-200k"),
           ("W3-store", "go-cookiejar", 1.5, "W3"),
           ("W2-20k", "go-cookiejar", 10), ("W2-200k", "go-cookiejar", 10), ("W3", "go-cookiejar", 2),
           # W4: save at most 1.5x Python's time; load >= 10x libcurl's and faster than Python's
           ("W4-save", "python-cookiejar", 1 / 1.5), ("W4-load", "libcurl", 10),
           ("W4-load", "python-cookiejar", 1),
           # W5: within 10% of libcurl without cookies, faster than libcurl's cookie engine
           ("W5", "libcurl", 0.9, "W5-libcurl-nocookies"), ("W5", "libcurl", 1, "W5-libcurl-cookies")]


def human(rate):
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return "%.3g%s" % (rate / scale, suffix)
    return "%.3g" % rate


# Summary rows (tools/aggregate.py):
#   peer workload runs median (min .. max) unit secs (min .. max) notes
rows = {}
order = []
for line in open(sys.argv[1]):
    t = line.split()
    if len(t) < 12 or t[0] == "peer" or not t[3].replace(".", "", 1).isdigit():
        continue
    notes = dict(p.split("=", 1) for p in t[12:] if "=" in p)
    rows[(t[0], t[1])] = (float(t[3]), t[7], notes)
    if t[1] not in order:
        order.append(t[1])

for workload in order:
    mine = rows.get((ENGINE, workload))
    if mine is None:
        continue
    rate, unit, notes = mine
    extra = ""
    if workload.startswith("W2"):
        extra = "  (sample_exact=%s/%s sameset=%s, jar=%s%s)" % (
            notes.get("sample_exact"), notes.get("samples"), notes.get("sample_sameset"),
            notes.get("jar"), ", rss/cookie=%s B" % notes["rss_bytes_per_cookie"]
            if "rss_bytes_per_cookie" in notes else "")
    elif workload.startswith("W4"):
        extra = "  (%s s, bytes=%s, open+first lookup %s s)" % (
            notes.get("secs", "?"), notes.get("bytes", "-"), notes.get("open_first_lookup_secs", "-"))
    elif workload.startswith("W3"):
        extra = "  (jar=%s, RFC 6265 expects %s)" % (notes.get("jar"), notes.get("expected_full"))
    print("%-8s %s %s %s%s" % (workload, ENGINE, human(rate), unit, extra))
    for (peer, wl), (peer_rate, _, _) in rows.items():
        # W5 peers name their variants W5-<variant>.
        # Store-level workloads (issue #14) compare with the peers' plain workload.
        base = workload[:-len("-store")] if workload.endswith("-store") else workload
        if (wl == base or (base == "W5" and wl.startswith("W5-"))) and peer != ENGINE:
            name = peer if wl == base else "%s %s" % (peer, wl[3:])
            print("%-8s   vs %-17s %8s = %.2fx" % ("", name, human(peer_rate), rate / peer_rate))

print()
print("== targets")
for target in TARGETS:
    workload, peer, want = target[:3]
    peer_workload = target[3] if len(target) > 3 else workload
    mine, theirs = rows.get((ENGINE, workload)), rows.get((peer, peer_workload))
    label = peer if peer_workload == workload else "%s %s" % (peer, peer_workload)
    if mine is None or theirs is None:
        print("%-8s >= %gx %s: not measured" % (workload, want, label))
        continue
    ratio = mine[0] / theirs[0]
    print("%-8s >= %gx %s: %.2fx (%s needed) %s" % (
        workload, want, label, ratio, human(want * theirs[0]),
        "met" if ratio >= want else "NOT MET"))
PY
fi

# Imports at scale (issue #15): 10k, 100k and 1M cookies.txt lines into a new encrypted store, each
# in a fresh process, after the peers (no peer has this workload). Targets: the time per line at 1M
# within 2x of that at 10k, and 1M lines in under 30 s. IMPORT_SIZES overrides the sizes.
if [[ "Import" =~ ${ONLY:-W1|W2|W3|W4|W5|Import} ]]; then
  echo
  echo "== imports at scale (sitedata-bench import)"
  out="$(mktemp -d)"
  trap 'rm -f "$summary"; rm -rf "$out"' EXIT
  imports="$(for n in ${IMPORT_SIZES:-10000 100000 1000000}; do "$bin" import "$n" "$out/store"; done)"
  echo "$imports"
  python3 - "$imports" <<'PY'
import sys
rows = [dict(p.split("=", 1) for p in line.split()[3:] if "=" in p) | {"name": line.split()[2]}
        for line in sys.argv[1].splitlines() if line.startswith("RESULT")]
if len(rows) >= 2:
    first, last = rows[0], rows[-1]
    growth = float(last["us_per_line"]) / float(first["us_per_line"])
    print("%s per line over %s per line: %.2fx (at most 2x) %s" % (
        last["name"], first["name"], growth, "met" if growth <= 2 else "NOT MET"))
for row in rows:
    if row["name"] == "Import-1M":
        secs = float(row["secs"])
        print("Import-1M in %.1f s (under 30 s) %s" % (secs, "met" if secs < 30 else "NOT MET"))
PY
fi
