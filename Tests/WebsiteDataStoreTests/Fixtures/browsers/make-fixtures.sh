#!/usr/bin/env bash
# Makes the real-browser cookie fixtures of this folder:
#
#   chromium/Cookies        the profile cookie database Debian's `chromium`
#                           wrote (headless), VACUUMed
#   firefox/cookies.sqlite  the cookie database Debian's `firefox-esr` wrote
#                           (headless, driven through Marionette), VACUUMed
#   expected.json           every cookie the loopback server set, with what
#                           each browser should have stored
#
# Both browsers load pages from cookie_server.py (127.0.0.1 only, a plain-HTTP
# and an HTTPS port, a throw-away test CA made here and trusted only in the
# throw-away profiles). No real site is contacted and every cookie value is
# made up, so the fixtures hold no personal data.
#
# Needs: chromium, firefox-esr, libnss3-tools (certutil), openssl, sqlite3,
# python3. Not run in CI; rerun by hand when the fixtures should follow newer
# browsers:
#
#   apt-get install -y chromium firefox-esr libnss3-tools openssl sqlite3
#   Tests/WebsiteDataStoreTests/Fixtures/browsers/make-fixtures.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=""
firefox_pid=""
cleanup() {
  [[ -n "$firefox_pid" ]] && kill "$firefox_pid" 2>/dev/null || true
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for tool in chromium firefox-esr certutil openssl sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "make-fixtures: $tool is missing" >&2; exit 1; }
done

# --- A throw-away CA and a server certificate for the test host names. ---
hosts="www.cookies.test static.cookies.test embed.test"
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=WebsiteData fixtures test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=www.cookies.test" \
  -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n%s\n%s\n' \
  "extendedKeyUsage=serverAuth" \
  "subjectAltName=$(printf 'DNS:%s,' $hosts | sed 's/,$//')" >"$work/server.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
  -CAcreateserial -days 30 -extfile "$work/server.ext" -out "$work/server.pem" 2>/dev/null

trust_ca() {  # trust_ca NSSDB_FOLDER
  mkdir -p "$1"
  certutil -N -d "sql:$1" --empty-password
  certutil -A -d "sql:$1" -n "WebsiteData fixtures test CA" -t "C,," -i "$work/ca.pem"
}

# --- The server. Persistent cookies expire 200 days from now (whole seconds). ---
expires=$(($(date +%s) + 200 * 86400))
generated_at=$(date +%s)
python3 "$here/cookie_server.py" "$work/server.pem" "$work/server.key" "$expires" \
  "$work/state.json" >"$work/ports" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/ports" ]] && break; sleep 0.1; done
read -r _ http_port https_port <"$work/ports"
start_url="http://www.cookies.test:$http_port/start"
container_url="https://www.cookies.test:$https_port/container"
echo "make-fixtures: server on 127.0.0.1:$http_port (http) and :$https_port (https)"

# --- Chromium: headless, basic password store (v10 values), all names to 127.0.0.1. ---
chromium_home="$work/chromium-home"
trust_ca "$chromium_home/.pki/nssdb"
# "Continue where you left off" makes Chromium write session cookies to disk
# too (is_persistent = 0), as a profile that restores its session does.
mkdir -p "$work/chromium-profile/Default"
echo '{"session": {"restore_on_startup": 1}}' >"$work/chromium-profile/Default/Preferences"
HOME="$chromium_home" CHROMIUM_LOG="$work/chromium.log" timeout 120 \
  python3 "$here/chromium_driver.py" "$start_url" -- chromium --headless=new --no-sandbox \
  --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/chromium-profile" \
  --password-store=basic --host-resolver-rules="MAP * 127.0.0.1" --no-first-run \
  --no-default-browser-check --disable-background-networking --disable-component-update \
  --disable-sync --disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable || {
  echo "make-fixtures: driving chromium failed; its log:" >&2; tail -20 "$work/chromium.log" >&2; exit 1; }

# --- Firefox: headless, Marionette on a free port, names mapped to 127.0.0.1. ---
firefox_profile="$work/firefox-profile"
mkdir -p "$firefox_profile"
trust_ca "$firefox_profile"
marionette_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$firefox_profile/user.js" <<EOF
user_pref("marionette.port", $marionette_port);
user_pref("network.dns.localDomains", "$(echo $hosts | tr ' ' ',')");
user_pref("network.dns.forceResolve", "127.0.0.1");
user_pref("network.proxy.type", 0);
user_pref("dom.security.https_first", false);
user_pref("dom.security.https_first_schemeless", false);
user_pref("dom.security.https_only_mode", false);
user_pref("privacy.userContext.enabled", true);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.startup.page", 0);
user_pref("browser.aboutwelcome.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("app.update.disabledForTesting", true);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("services.settings.server", "http://127.0.0.1:9/");
user_pref("browser.search.update", false);
user_pref("media.gmp-manager.url", "");
EOF
firefox-esr --headless --no-remote --marionette --remote-allow-system-access --profile "$firefox_profile" \
  >"$work/firefox.log" 2>&1 &
firefox_pid=$!
timeout 120 python3 "$here/firefox_driver.py" "$marionette_port" "$start_url" "$container_url" || {
  echo "make-fixtures: driving firefox failed; its log:" >&2; tail -20 "$work/firefox.log" >&2; exit 1; }
timeout 60 tail --pid="$firefox_pid" -f /dev/null
firefox_pid=""

kill -TERM "$server_pid"
wait "$server_pid" || true
server_pid=""

# --- Copy, check and compact the databases. ---
mkdir -p "$here/chromium" "$here/firefox"
rm -f "$here/chromium/Cookies" "$here/firefox/cookies.sqlite"
sqlite3 "$work/chromium-profile/Default/Cookies" ".backup '$here/chromium/Cookies'"
sqlite3 "$firefox_profile/cookies.sqlite" ".backup '$here/firefox/cookies.sqlite'"
for db in "$here/chromium/Cookies" "$here/firefox/cookies.sqlite"; do
  sqlite3 "$db" "PRAGMA journal_mode = DELETE; VACUUM;" >/dev/null
done
# Only the test hosts may appear: anything else would be data from elsewhere.
foreign=$(sqlite3 "$here/chromium/Cookies" \
  "SELECT count(*) FROM cookies WHERE host_key NOT IN ('www.cookies.test', '.cookies.test', 'static.cookies.test', 'embed.test')")
foreign=$((foreign + $(sqlite3 "$here/firefox/cookies.sqlite" \
  "SELECT count(*) FROM moz_cookies WHERE host NOT IN ('www.cookies.test', '.cookies.test', 'static.cookies.test', 'embed.test')")))
[[ "$foreign" == 0 ]] || { echo "make-fixtures: $foreign cookies of other hosts; not writing" >&2; exit 1; }

# --- expected.json: the server's record plus the run's facts. ---
python3 - "$work/state.json" "$here/expected.json" "$generated_at" \
  "$(chromium --version 2>/dev/null)" "$(firefox-esr --version 2>/dev/null)" \
  "$(sqlite3 "$here/chromium/Cookies" "SELECT value FROM meta WHERE key = 'version'")" \
  "$(sqlite3 "$here/firefox/cookies.sqlite" "PRAGMA user_version")" <<'EOF'
import json, sys
state_file, out_file, generated_at, chromium, firefox, chromium_schema, firefox_schema = sys.argv[1:]
state = json.load(open(state_file))
expected = {
    "generatedAt": int(generated_at),
    "browsers": {
        "chromium": {"version": chromium.strip(), "schemaVersion": int(chromium_schema),
                     "maxAgeSent": state["maxAgeWindows"].get("chromium")},
        "firefox": {"version": firefox.strip(), "schemaVersion": int(firefox_schema),
                    "maxAgeSent": state["maxAgeWindows"].get("firefox")},
    },
    "ports": state["ports"],
    "cookies": state["cookies"],
}
with open(out_file, "w") as out:
    json.dump(expected, out, indent=2)
    out.write("\n")
EOF
ls -l "$here/chromium/Cookies" "$here/firefox/cookies.sqlite" "$here/expected.json"
