#!/usr/bin/env python3
"""A loopback HTTP server for the sitedata CLI tests (Python 3 standard library only).

- GET /set?c=<Set-Cookie value>&c=...  answers 200 with one Set-Cookie header per `c`.
- GET any other path                     answers 200 with the request's Cookie header
                                         as the body (empty when there was none).

It listens on 127.0.0.1 on a free port, prints `port <n>` on stdout once it
accepts connections, and stops when stdin reaches end of file (the test closes
it) or after 120 seconds.
"""
import http.server
import sys
import threading
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/set":
            values = urllib.parse.parse_qs(url.query, keep_blank_values=True).get("c", [])
            self.send_response(200)
            for value in values:
                self.send_header("Set-Cookie", value)
            body = b"set\n"
        else:
            self.send_response(200)
            body = (self.headers.get("Cookie") or "").encode("utf-8")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass  # keep the test output clean


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"port {server.server_address[1]}", flush=True)
    stopper = threading.Thread(target=sys.stdin.read, daemon=True)
    stopper.start()
    stopper.join(timeout=120)
    server.shutdown()


if __name__ == "__main__":
    main()
