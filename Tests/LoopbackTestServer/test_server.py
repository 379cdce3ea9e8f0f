#!/usr/bin/env python3
"""Loopback HTTP and HTTPS test server for WebLoaderTests and the
`sitedata fetch` tests (stdlib only).

Usage: test_server.py CERT_PEM KEY_PEM [FOLDER]

Binds 127.0.0.1 on three free ports (HTTP, HTTPS, and a port that speaks
both, telling TLS from plain HTTP by the first byte, so that an HSTS upgrade
that keeps the port lands on TLS), HTTP/1.1 keep-alive, one thread per
connection; prints one line `PORTS http=<port> https=<port> dual=<port>`,
and serves until its standard input closes (the test process went away);
then removes FOLDER (the certificates' folder, with the test CA's key), so
that even a killed test process leaves no key behind.

Routes (the path decides; query parameters refine):
  /echo                 JSON of the request: method, path, cookie, user_agent,
                        authorization, content_type, body, host, tls,
                        session_reused, connection, request_on_connection,
                        headers (every field as [name, value], in order)
  /echo-page[?c=LINE...][&theme=COLOUR]
                        an HTML document whose <title> is that JSON (so that
                        a page's title tells what the server received), with
                        the Set-Cookie LINEs and a theme-color meta
  /set?c=LINE&c=...     sends each LINE as a Set-Cookie field, then echoes
  /redirect?status=S&to=URL[&c=LINE...]
                        answers S with Location URL (and Set-Cookie LINEs)
  /loop?i=N             302 to /loop?i=N+1, forever
  /sleep?ms=N           waits N ms, then echoes
  /hsts?max_age=N[&sub=1]
                        Strict-Transport-Security (over TLS), then echoes
  /close                echoes, then closes the connection
  /big?n=N              a body of N bytes

Page routes (WebPageTests):
  /page?html=TEXT|b64=BYTES[&ct=TYPE][&status=S][&c=LINE...][&key=K][&ms=N]
                        serves the body (UTF-8 TEXT, or base64 BYTES) as
                        TYPE (default text/html; charset=utf-8) with the
                        Set-Cookie LINEs, after N ms; with key=K the request
                        is first recorded under K (with the number of
                        requests for K in progress, itself included);
                        with sa=VALUE, an Activate-Storage-Access: VALUE
                        field when the request's Sec-Fetch-Storage-Access
                        is inactive
  /logged?key=K         JSON list of the requests recorded under K: path,
                        cookie, user_agent, referer, accept, storage_access
                        (Sec-Fetch-Storage-Access), in_flight

Well-known routes (OAuth discovery tests): /issuer/NAME/.well-known/
openid-configuration and /.well-known/oauth-authorization-server/issuer/NAME,
the metadata of the issuer https://HOST/issuer/NAME (see route_well_known).

Form route (form tests): what a form submitted, decoded by Python's own
parsers (urllib.parse for the query and urlencoded bodies, email for
multipart/form-data, lines for text/plain):
  /form[?cs=CHARSET]    JSON: method, content_type, cookie, query (pairs of
                        the query string), pairs (of the body: [name, value]
                        or [name, value, filename] for a file part), raw (the
                        body as latin-1 text); as application/json
"""
import base64
import email.parser
import email.policy
import gzip
import html
import json
import os
import shutil
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, urlsplit

connection_counter = 0
counter_lock = threading.Lock()


def next_connection_id():
    global connection_counter
    with counter_lock:
        connection_counter += 1
        return connection_counter


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "WebLoaderTestServer/1"

    def log_message(self, format, *args):
        pass

    def setup(self):
        super().setup()
        self.connection_id = next_connection_id()
        self.requests_on_connection = 0

    def handle_request(self):
        self.requests_on_connection += 1
        length = int(self.headers.get("Content-Length") or 0)
        self.request_body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        self.query = parse_qs(url.query, keep_blank_values=True)
        route = {
            "/echo": self.route_echo,
            "/echo-page": self.route_echo_page,
            "/set": self.route_set,
            "/redirect": self.route_redirect,
            "/loop": self.route_loop,
            "/sleep": self.route_sleep,
            "/hsts": self.route_hsts,
            "/close": self.route_close,
            "/big": self.route_big,
            "/stall": self.route_stall,
            "/cache": self.route_cache,
            **self.page_routes(),
        }.get(url.path)
        if route is None and ("/.well-known/" in url.path):
            route = self.route_well_known
        if route is None:
            self.reply(404, b"not found\n", [])
        else:
            route()

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = handle_request

    def do_HEAD(self):
        self.requests_on_connection += 1
        self.reply(200, b"", [], head_only=True)

    def param(self, name, default=None):
        values = self.query.get(name)
        return values[0] if values else default

    def echo_body(self):
        tls = isinstance(self.connection, ssl.SSLSocket)
        return json.dumps(
            {
                "method": self.command,
                "path": self.path,
                "cookie": self.headers.get("Cookie"),
                "cookie_fields": len(self.headers.get_all("Cookie") or []),
                "user_agent": self.headers.get("User-Agent"),
                "authorization": self.headers.get("Authorization"),
                "content_type": self.headers.get("Content-Type"),
                "body": self.request_body.decode("utf-8", "replace"),
                "host": self.headers.get("Host"),
                "tls": tls,
                "session_reused": self.connection.session_reused if tls else False,
                "connection": self.connection_id,
                "request_on_connection": self.requests_on_connection,
                "headers": [[name, value] for name, value in self.headers.items()],
            }
        ).encode() + b"\n"

    def reply(self, status, body, fields, head_only=False, close=False):
        self.send_response(status)
        for name, value in fields:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def cookie_fields(self):
        return [("Set-Cookie", line) for line in self.query.get("c", [])]

    def route_echo(self):
        self.reply(200, self.echo_body(), [("Content-Type", "application/json")])

    def route_echo_page(self):
        title = html.escape(self.echo_body().decode().strip())
        theme = self.param("theme")
        meta = '<meta name="theme-color" content="%s">' % html.escape(theme) if theme else ""
        body = ("<!doctype html><html><head><title>%s</title>%s</head><body></body></html>"
                % (title, meta)).encode()
        fields = [("Content-Type", "text/html; charset=utf-8")] + self.cookie_fields()
        self.reply(200, body, fields)

    def route_set(self):
        self.reply(200, self.echo_body(), self.cookie_fields())

    def route_redirect(self):
        status = int(self.param("status", "302"))
        fields = [("Location", self.param("to", "/echo"))] + self.cookie_fields()
        self.reply(status, self.echo_body(), fields)

    def route_loop(self):
        step = int(self.param("i", "0"))
        self.reply(302, b"", [("Location", "/loop?i=%d" % (step + 1))])

    def route_sleep(self):
        time.sleep(int(self.param("ms", "1000")) / 1000.0)
        self.route_echo()

    def route_hsts(self):
        value = "max-age=%s" % self.param("max_age", "31536000")
        if self.param("sub") == "1":
            value += "; includeSubDomains"
        self.reply(200, self.echo_body(), [("Strict-Transport-Security", value)])

    def route_close(self):
        self.reply(200, self.echo_body(), [], close=True)

    def route_big(self):
        body = b"x" * int(self.param("n", "0"))
        fields = self.cookie_fields()
        if self.param("gzip") == "1":
            body = gzip.compress(body)
            fields.append(("Content-Encoding", "gzip"))
        self.reply(200, body, fields)

    def route_stall(self):
        """The head and the first n bytes of a body that never ends: a
        client that reads the body never finishes. Held until the client
        closes the connection (or 60 s)."""
        n = int(self.param("n", "16"))
        fields = self.cookie_fields() + [
            ("Content-Type", self.param("type", "text/html")), ("X-Stall", "1")]
        self.send_response(200)
        for name, value in fields:
            self.send_header(name, value)
        self.send_header("Content-Length", str(n + 1))
        self.end_headers()
        self.wfile.write(b"x" * n)
        self.wfile.flush()
        self.connection.settimeout(60)
        try:
            while self.connection.recv(4096):
                pass
        except OSError:
            pass
        self.close_connection = True


    # Page routes (WebPageTests): documents with subresources, and a log of
    # what the server received for each key.

    def page_routes(self):
        return {"/page": self.route_page, "/logged": self.route_logged, "/form": self.route_form}

    def route_well_known(self):
        # /issuer/NAME/.well-known/openid-configuration (OpenID Connect
        # Discovery §4) and /.well-known/oauth-authorization-server/issuer/NAME
        # (RFC 8414 §3): the metadata of the issuer https://HOST/issuer/NAME.
        # NAME "oidc" answers both; "rfc8414" only the RFC 8414 path;
        # "liar" claims another issuer.
        path = urlsplit(self.path).path
        if path.startswith("/.well-known/oauth-authorization-server/issuer/"):
            name, kind = path.rsplit("/", 1)[1], "rfc8414"
        elif path.startswith("/issuer/") and path.endswith("/.well-known/openid-configuration"):
            name, kind = path.split("/")[2], "oidc"
        else:
            return self.reply(404, b"not found\n", [])
        if name == "rfc8414" and kind == "oidc":
            return self.reply(404, b"not found\n", [])
        scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
        issuer = "%s://%s/issuer/%s" % (scheme, self.headers.get("Host"), name)
        claimed = issuer + "-other" if name == "liar" else issuer
        document = {
            "issuer": claimed,
            "authorization_endpoint": issuer + "/authorize",
            "token_endpoint": issuer + "/token",
            "jwks_uri": issuer + "/jwks",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "authorization_response_iss_parameter_supported": True,
        }
        self.reply(200, json.dumps(document).encode(), [("Content-Type", "application/json")])

    def route_form(self):
        charset = self.param("cs", "utf-8")
        content_type = self.headers.get("Content-Type") or ""
        query = urlsplit(self.path).query
        body = self.request_body
        pairs = []
        if content_type.startswith("multipart/form-data"):
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                value = (part.get_payload(decode=True) or b"").decode(charset)
                filename = part.get_filename()
                pairs.append([name, value] if filename is None else [name, value, filename])
        elif content_type.startswith("text/plain"):
            for line in body.decode(charset).split("\r\n")[:-1]:
                pairs.append(line.split("=", 1))
        elif body:
            pairs = [list(p) for p in parse_qsl(body.decode("ascii"), keep_blank_values=True,
                                                 encoding=charset)]
        reply = {
            "method": self.command,
            "content_type": content_type,
            "cookie": self.headers.get("Cookie"),
            "query": [list(p) for p in parse_qsl(query, keep_blank_values=True, encoding=charset)],
            "pairs": pairs,
            "raw": body.decode("latin-1"),
        }
        self.reply(200, json.dumps(reply).encode(), [("Content-Type", "application/json")])

    def route_page(self):
        key = self.param("key")
        if key is not None:
            with page_log_lock:
                page_in_flight[key] = page_in_flight.get(key, 0) + 1
                page_log.setdefault(key, []).append(
                    {
                        "path": self.path,
                        "cookie": self.headers.get("Cookie"),
                        "user_agent": self.headers.get("User-Agent"),
                        "referer": self.headers.get("Referer"),
                        "accept": self.headers.get("Accept"),
                        "storage_access": self.headers.get("Sec-Fetch-Storage-Access"),
                        "in_flight": page_in_flight[key],
                    }
                )
        time.sleep(int(self.param("ms", "0")) / 1000.0)
        # Out of flight before the reply: the client can only start another
        # request after it, so the count never includes a finished one.
        if key is not None:
            with page_log_lock:
                page_in_flight[key] -= 1
        if self.param("b64") is not None:
            body = base64.b64decode(self.param("b64"))
        else:
            body = self.param("html", "").encode("utf-8")
        content_type = self.param("ct", "text/html; charset=utf-8")
        fields = [("Content-Type", content_type)] + self.cookie_fields()
        # A Storage Access Headers server: asks to activate storage access
        # when the request says it holds the permission unused.
        activate = self.param("sa")
        if activate is not None and self.headers.get("Sec-Fetch-Storage-Access") == "inactive":
            fields.append(("Activate-Storage-Access", activate))
        self.reply(int(self.param("status", "200")), body, fields)

    def route_cache(self):
        """A cacheable resource for the HTTP cache's tests: the response
        fields `h` ("Name: value", repeatable), validators `etag` and `lm`
        (a conditional request that matches gets a 304 with the same
        fields), and a body naming how many requests of `key` reached the
        server ("response 3"); every request is logged under `key`."""
        key = self.param("key", "")
        with page_log_lock:
            page_log.setdefault(key, []).append(
                {
                    "path": self.path,
                    "method": self.command,
                    "if_none_match": self.headers.get("If-None-Match"),
                    "if_modified_since": self.headers.get("If-Modified-Since"),
                    "cookie": self.headers.get("Cookie"),
                }
            )
            count = len(page_log[key])
        fields = []
        for line in self.query.get("h", []):
            name, _, value = line.partition(":")
            fields.append((name.strip(), value.strip()))
        etag = self.param("etag")
        modified = self.param("lm")
        if etag is not None:
            fields.append(("ETag", etag))
        if modified is not None:
            fields.append(("Last-Modified", modified))
        fields += self.cookie_fields()
        matches = (etag is not None and self.headers.get("If-None-Match") == etag) or (
            etag is None and modified is not None
            and self.headers.get("If-Modified-Since") == modified
        )
        if matches and self.command == "GET":
            self.send_response(304)
            for name, value in fields:
                self.send_header(name, value)
            self.end_headers()
            return
        body = ("response %d" % count).encode()
        self.reply(int(self.param("status", "200")), body, [("Content-Type", "text/plain")] + fields)

    def route_logged(self):
        with page_log_lock:
            records = list(page_log.get(self.param("key", ""), []))
        self.reply(200, json.dumps(records).encode(), [("Content-Type", "application/json")])


page_log = {}
page_in_flight = {}
page_log_lock = threading.Lock()


class PlainServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Many tests connect at once (64 loads in flight): a short listen queue
    # would drop connection attempts and stall them for seconds.
    request_queue_size = 256


class TLSServer(PlainServer):
    """Accepts plain sockets; each connection's own thread does the TLS
    handshake, so a client that fails it never blocks the accept loop."""

    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def finish_request(self, request, client_address):
        try:
            request.settimeout(10)
            tls = self.context.wrap_socket(request, server_side=True)
            tls.settimeout(None)
        except (ssl.SSLError, OSError):
            return
        self.RequestHandlerClass(tls, client_address, self)


class DualServer(TLSServer):
    """TLS when the client's first byte is a TLS handshake record (0x16),
    plain HTTP otherwise."""

    def finish_request(self, request, client_address):
        try:
            request.settimeout(10)
            first = request.recv(1, socket.MSG_PEEK)
            request.settimeout(None)
        except OSError:
            return
        if first == b"\x16":
            super().finish_request(request, client_address)
        elif first:
            self.RequestHandlerClass(request, client_address, self)


def main():
    cert, key = sys.argv[1], sys.argv[2]
    folder = sys.argv[3] if len(sys.argv) > 3 else None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    plain = PlainServer(("127.0.0.1", 0), Handler)
    secure = TLSServer(("127.0.0.1", 0), Handler, context)
    dual = DualServer(("127.0.0.1", 0), Handler, context)
    for server in (plain, secure, dual):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ports = (plain.server_address[1], secure.server_address[1], dual.server_address[1])
    print("PORTS http=%d https=%d dual=%d" % ports, flush=True)
    # Serve until the test process closes our standard input.
    while sys.stdin.buffer.read(4096):
        pass
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)


if __name__ == "__main__":
    main()
