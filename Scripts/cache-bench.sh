#!/usr/bin/env bash
# The HTTP cache benchmark: a crawl-like workload of repeat visits over a loopback nginx
# (N files under /fresh/ with max-age, N under /etag/ with no-cache and an ETag, 16 KiB each),
# with the store's cache used and bypassed, interleaved RUNS times; then the cost of a cache hit
# beside W5 (sequential loads that go to nginx, through the same loader).
#
#   Scripts/cache-bench.sh            # N=200 files per folder, 5 rounds, 3 runs
#   N=500 ROUNDS=10 RUNS=5 Scripts/cache-bench.sh
#
# Needs nginx (Debian's nginx-light is enough); builds sitedata-bench as a user builds it
# (swift build -c release). nginx listens on 127.0.0.1 only and is stopped at the end.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
N="${N:-200}"; ROUNDS="${ROUNDS:-5}"; RUNS="${RUNS:-3}"
work="$(mktemp -d)"
chmod 755 "$work"   # nginx's workers (another user when started as root) must read the files
trap 'kill -QUIT "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/site/fresh" "$work/site/etag"
for i in $(seq 0 $((N - 1))); do
  head -c 16384 /dev/urandom | base64 -w 76 | head -c 16384 >"$work/site/fresh/f$i.txt"
  cp "$work/site/fresh/f$i.txt" "$work/site/etag/f$i.txt"
done
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  keepalive_requests 1000000; keepalive_timeout 120s;
  default_type text/plain;
  server {
    listen 127.0.0.1:$port;
    root $work/site;
    location /fresh/ { expires 1h; }
    location /etag/ { add_header Cache-Control "no-cache"; }
    location /w5/ { add_header Set-Cookie "sid=\$connection_requests; Path=/"; return 200 "\$http_cookie\n"; }
  }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" >"$work/nginx.out" 2>&1 &
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/fresh/f0.txt" && break; sleep 0.1; done
status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/fresh/f0.txt")"
[ "$status" = 200 ] || { echo "nginx answers $status for a file:" >&2; cat "$work/error.log" >&2; exit 1; }
echo "== build sitedata-bench (release)" >&2
bindir="$(swift build -c release --product sitedata-bench --package-path "$repo" --show-bin-path)"
swift build -c release --product sitedata-bench --package-path "$repo" >&2
bench="$bindir/sitedata-bench"
base="http://127.0.0.1:$port"
results="$work/results.txt"
for run in $(seq 1 "$RUNS"); do
  "$bench" crawl "$base" "$N" "$ROUNDS" cache | tee -a "$results"
  "$bench" crawl "$base" "$N" "$ROUNDS" nocache | tee -a "$results"
  "$bench" crawlhit "$base" "$N" "$ROUNDS" | tee -a "$results"
  "$bench" w5 "$base/w5" $((N * ROUNDS)) | tee -a "$results"
done
python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if not line.startswith("RESULT "):
        continue
    fields = dict(f.split("=", 1) for f in line.split()[3:] if "=" in f)
    rows.setdefault(line.split()[2], []).append(fields)
def median(name, key):
    return statistics.median(float(r[key]) for r in rows[name])
print("\n== HTTP cache (medians of %d runs)" % len(rows["W5"]))
for mode in ("cache", "nocache"):
    name = "CACHE-crawl-" + mode
    print("%-18s %9.0f req/s  %12.0f bytes from the network  hits=%d revalidated=%d misses=%d" % (
        name, median(name, "rate"), median(name, "network_bytes"), median(name, "hits"),
        median(name, "revalidated"), median(name, "misses")))
print("crawl with the cache / without: %.2fx requests/s, %.1f%% of the bytes" % (
    median("CACHE-crawl-cache", "rate") / median("CACHE-crawl-nocache", "rate"),
    100 * median("CACHE-crawl-cache", "network_bytes") / median("CACHE-crawl-nocache", "network_bytes")))
print("a cache hit: %.1f us; a W5 load from nginx: %.1f us (%.1fx)" % (
    median("CACHE-hit", "us_per_req"), median("W5", "us_per_req"),
    median("W5", "us_per_req") / median("CACHE-hit", "us_per_req")))
PY
