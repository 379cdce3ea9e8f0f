#!/usr/bin/env python3
"""Drives a running headless Firefox through Marionette (its remote protocol,
length-prefixed JSON over TCP on 127.0.0.1), for make-fixtures.sh. Python 3
standard library only.

Usage: firefox_driver.py MARIONETTE_PORT START_URL CONTAINER_URL

  1. opens a WebDriver session and loads START_URL in the normal tab (the
     default container, userContextId 0), waiting for the page load;
  2. opens CONTAINER_URL in a new tab of container 2 (chrome-privileged
     script: gBrowser.addTab with userContextId 2) and waits until Firefox's
     cookie service holds a cookie of that container;
  3. quits Firefox cleanly (Marionette:Quit), so that cookies.sqlite is
     complete on disk.
"""

import json
import socket
import sys
import time

PORT, START_URL, CONTAINER_URL = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Marionette:
    def __init__(self, port):
        deadline = time.time() + 60
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.25)
        self.buffer = b""
        self.next_id = 1
        self.read()  # the greeting: {"applicationType": "gecko", ...}

    def read(self):
        while b":" not in self.buffer:
            self.fill()
        length, _, rest = self.buffer.partition(b":")
        self.buffer = rest
        while len(self.buffer) < int(length):
            self.fill()
        message, self.buffer = self.buffer[: int(length)], self.buffer[int(length):]
        return json.loads(message)

    def fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("Marionette closed the connection")
        self.buffer += chunk

    def call(self, command, parameters=None):
        message_id = self.next_id
        self.next_id += 1
        payload = json.dumps([0, message_id, command, parameters or {}]).encode()
        self.sock.sendall(str(len(payload)).encode() + b":" + payload)
        while True:
            reply = self.read()
            if reply[0] == 1 and reply[1] == message_id:
                if reply[2]:
                    raise RuntimeError(f"{command}: {reply[2]}")
                return reply[3]


OPEN_CONTAINER_TAB = """
const [url, resolve] = arguments;
const tab = gBrowser.addTab(url, {
  userContextId: 2,
  triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal(),
});
gBrowser.selectedTab = tab;
const started = Date.now();
const poll = () => {
  const found = Services.cookies.getCookiesFromHost("www.cookies.test", { userContextId: 2 });
  if (found.length > 0 || Date.now() - started > 30000) {
    resolve(found.length);
  } else {
    setTimeout(poll, 100);
  }
};
poll();
"""


def main():
    marionette = Marionette(PORT)
    marionette.call("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {
        "acceptInsecureCerts": False, "pageLoadStrategy": "normal"}}})
    marionette.call("WebDriver:Navigate", {"url": START_URL})
    marionette.call("Marionette:SetContext", {"value": "chrome"})
    found = marionette.call("WebDriver:ExecuteAsyncScript",
                            {"script": OPEN_CONTAINER_TAB, "args": [CONTAINER_URL]})
    if not found or not found.get("value"):
        raise RuntimeError("the container tab set no cookie")
    # Give the page loads a moment to settle, then quit cleanly.
    time.sleep(1)
    try:
        marionette.call("Marionette:Quit", {"flags": ["eAttemptQuit"]})
    except ConnectionError:
        pass  # Firefox may close the socket before answering


if __name__ == "__main__":
    main()
