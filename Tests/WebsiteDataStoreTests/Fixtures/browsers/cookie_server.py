#!/usr/bin/env python3
"""A loopback web server that sets a known variety of cookies, for
make-fixtures.sh. Python 3 standard library only.

It listens on 127.0.0.1 only: one plain-HTTP port and one HTTPS port (the
certificate is made by make-fixtures.sh). The browsers reach it under made-up
host names (www.cookies.test, static.cookies.test, embed.test) that they are
told to resolve to 127.0.0.1.

The flow a browser follows, starting at http://www.cookies.test:HTTP/start:

  1. /start (plain HTTP) sets a cookie, then redirects (302) to
  2. https://www.cookies.test:HTTPS/ , the top-level page, which sets most
     cookies and embeds
  3. an image https://static.cookies.test:HTTPS/pixel.gif (a sibling
     subdomain: one host-only and one domain cookie), and
  4. an iframe https://embed.test:HTTPS/frame (a third-party site) that sets
     a partitioned (CHIPS) cookie.
  5. https://www.cookies.test:HTTPS/container sets one cookie; only the
     Firefox run opens it, in a container tab (userContextId 2).

Every cookie value is made up here; nothing comes from a real person.

Usage: cookie_server.py CERT KEY EXPIRES_UNIX STATE_FILE
Prints "ports HTTP HTTPS" on stdout once listening; stops on SIGTERM and
writes STATE_FILE (JSON): the cookies it set and, per client (chromium or
firefox, from the User-Agent), when it sent each Max-Age cookie.
"""

import email.utils
import json
import signal
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CERT, KEY, EXPIRES, STATE_FILE = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
EXPIRES_HTTP = email.utils.formatdate(EXPIRES, usegmt=True)
MAX_AGE = 86400 * 30

# A long value without non-ASCII characters (3,000 bytes; Chromium and Firefox
# accept a name plus value of up to 4,096 bytes).
LONG_VALUE = ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_" * 47)[:3000]


def cookie(name, value, *, host, domain=None, path="/", secure=False, http_only=False,
           same_site=None, session=False, max_age=False, partitioned=False, scheme="https",
           user_context_id=0, stored_by=("chromium", "firefox"), note=None):
    """One Set-Cookie line and the cookie a browser should store for it."""
    attributes = [f"{name}={value}"]
    if domain:
        attributes.append(f"Domain={domain}")
    attributes.append(f"Path={path}")
    if max_age:
        attributes.append(f"Max-Age={MAX_AGE}")
    elif not session:
        attributes.append(f"Expires={EXPIRES_HTTP}")
    if secure:
        attributes.append("Secure")
    if http_only:
        attributes.append("HttpOnly")
    if same_site:
        attributes.append(f"SameSite={same_site}")
    if partitioned:
        attributes.append("Partitioned")
    expected = {
        "name": name, "value": value,
        "domain": domain or host, "hostOnly": domain is None, "path": path,
        "expires": None if session or max_age else EXPIRES,
        "maxAge": MAX_AGE if max_age else None,
        "secure": secure, "httpOnly": http_only,
        "sameSite": (same_site or "unspecified").lower(),
        "partitionSite": "https://cookies.test" if partitioned else None,
        "crossSiteAncestor": partitioned,
        "sourceScheme": "secure" if scheme == "https" else "non-secure",
        "userContextId": user_context_id,
        "storedBy": list(stored_by),
    }
    if note:
        expected["note"] = note
    return "; ".join(attributes), expected


FIREFOX_SESSION = "Firefox never writes session cookies to cookies.sqlite"

# Which cookies each response sets: (host, path) -> [(line, expected)].
RESPONSES = {
    ("www.cookies.test", "/start"): [
        cookie("from_plain_http", "set-over-http", host="www.cookies.test", scheme="http"),
    ],
    ("www.cookies.test", "/"): [
        cookie("host_only", "h1", host="www.cookies.test"),
        cookie("domain_wide", "d1", host="www.cookies.test", domain="cookies.test"),
        cookie("account_path", "p1", host="www.cookies.test", path="/account"),
        cookie("secure_only", "s1", host="www.cookies.test", secure=True),
        cookie("http_only", "ho1", host="www.cookies.test", http_only=True),
        cookie("same_site_strict", "ss", host="www.cookies.test", same_site="Strict"),
        cookie("same_site_lax", "sl", host="www.cookies.test", same_site="Lax"),
        cookie("same_site_none", "sn", host="www.cookies.test", same_site="None", secure=True),
        cookie("same_site_unspecified", "su", host="www.cookies.test"),
        cookie("session_only", "sess1", host="www.cookies.test", session=True,
               stored_by=("chromium",), note=FIREFOX_SESSION),
        cookie("session_secure_http_only", "sess2", host="www.cookies.test", session=True,
               secure=True, http_only=True, same_site="Lax", stored_by=("chromium",),
               note=FIREFOX_SESSION),
        cookie("max_age", "ma1", host="www.cookies.test", max_age=True),
        cookie("long_value", LONG_VALUE, host="www.cookies.test"),
        cookie("__Host-prefixed", "hp1", host="www.cookies.test", secure=True),
        cookie("__Secure-prefixed", "sp1", host="www.cookies.test", domain="cookies.test",
               secure=True, http_only=True, same_site="Strict"),
        cookie("quoted", '"a quoted value"', host="www.cookies.test"),
    ],
    ("static.cookies.test", "/pixel.gif"): [
        cookie("static_host", "st1", host="static.cookies.test"),
        cookie("static_domain", "st2", host="static.cookies.test", domain="cookies.test",
               path="/static"),
    ],
    ("embed.test", "/frame"): [
        cookie("chips", "partitioned-1", host="embed.test", secure=True, same_site="None",
               partitioned=True),
    ],
    ("www.cookies.test", "/container"): [
        cookie("in_container", "c2", host="www.cookies.test", user_context_id=2,
               stored_by=("firefox",), note="set in a Firefox container tab (userContextId 2)"),
    ],
}

PIXEL = bytes.fromhex(
    "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")

lock = threading.Lock()
max_age_windows = {}  # client -> [first sent, last sent] (Unix seconds)


def client_of(user_agent):
    return "firefox" if "Firefox/" in (user_agent or "") else "chromium"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    https_port = 0

    def log_message(self, format, *args):  # quiet: no request log on stderr
        pass

    def do_GET(self):
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        path = self.path.split("?", 1)[0]
        lines = RESPONSES.get((host, path))
        if lines is None:
            self.reply(404, "text/plain", b"not found\n", [])
            return
        if path == "/start":
            location = f"https://www.cookies.test:{Handler.https_port}/"
            self.reply(302, "text/plain", b"", [line for line, _ in lines], location)
            return
        sent = time.time()
        if any(expected["maxAge"] for _, expected in lines):
            with lock:
                window = max_age_windows.setdefault(client_of(self.headers.get("User-Agent")),
                                                    [sent, sent])
                window[0], window[1] = min(window[0], sent), max(window[1], sent)
        if path == "/pixel.gif":
            self.reply(200, "image/gif", PIXEL, [line for line, _ in lines])
            return
        body = self.page(path).encode()
        self.reply(200, "text/html; charset=utf-8", body, [line for line, _ in lines])

    def page(self, path):
        port = Handler.https_port
        if path == "/":
            return (
                "<!doctype html><title>cookies</title>"
                f'<img src="https://static.cookies.test:{port}/pixel.gif" alt="">'
                f'<iframe src="https://embed.test:{port}/frame"></iframe>'
                "<p>done</p>")
        return "<!doctype html><title>cookies</title><p>done</p>"

    def reply(self, status, content_type, body, set_cookies, location=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if location:
            self.send_header("Location", location)
        for line in set_cookies:
            self.send_header("Set-Cookie", line)
        self.end_headers()
        self.wfile.write(body)


def main():
    plain = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    secure = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    Handler.https_port = secure.server_address[1]
    for server in (plain, secure):
        threading.Thread(target=server.serve_forever, daemon=True).start()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"ports {plain.server_address[1]} {secure.server_address[1]}", flush=True)
    stop.wait()
    for server in (plain, secure):
        server.shutdown()

    cookies = []
    for (host, path), lines in RESPONSES.items():
        for _, expected in lines:
            expected = dict(expected)
            expected["setBy"] = f"{'http' if expected['sourceScheme'] == 'non-secure' else 'https'}://{host}{path}"
            cookies.append(expected)
    with open(STATE_FILE, "w") as out:
        json.dump({"cookies": cookies, "maxAgeWindows": max_age_windows,
                   "ports": {"http": plain.server_address[1], "https": Handler.https_port}},
                  out, indent=2)


if __name__ == "__main__":
    main()
