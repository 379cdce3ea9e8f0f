#!/bin/sh
# The fleet benchmark (issue 18): N clients (1, 2, 4, 8) sharing one store
# on a PostgreSQL server started here (Debian's postgresql, initdb into a
# temporary folder, 127.0.0.1, stopped at the end), beside the same
# workload on one SQLite file from one and from several processes.
#
#   Scripts/fleet-bench.sh [SECONDS]     (after swift build -c release)
set -eu
seconds=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bench="$root/.build/release/sitedata-bench"
[ -x "$bench" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work=$(mktemp -d)
trap 'exec 3>&-; wait 2>/dev/null; rm -rf "$work"' EXIT
password="fleet-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
mkfifo "$work/in" "$work/out"
python3 "$root/Tests/LoopbackTestServer/postgres_server.py" "$password" <"$work/in" >"$work/out" &
exec 3>"$work/in"
read -r line <"$work/out"
port=$(echo "$line" | awk '{print $2}')
[ -n "$port" ] && [ "$port" != "postgres" ] || { echo "PostgreSQL did not start: $line" >&2; exit 1; }
base="postgresql://websitedata:$password@127.0.0.1:$port/postgres?sslmode=disable"
export FLEET_KEY_FILE="$work/fleet.key"
for clients in 1 2 4 8; do
  schema="fleet$clients"
  PGPASSWORD=$password psql -q -h 127.0.0.1 -p "$port" -U websitedata -d postgres \
    -c "CREATE SCHEMA $schema" >/dev/null
  "$bench" fleet "$base&options=-csearch_path%3D$schema" "$clients" "$seconds"
done
for clients in 1 2 4 8; do
  "$bench" fleet "$work/sqlite-$clients.db" "$clients" "$seconds"
done
