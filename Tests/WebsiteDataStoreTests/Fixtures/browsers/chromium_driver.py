#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: Chromium reads commands on fd 3 and writes replies on
fd 4, each a JSON text ended by a NUL byte), for make-fixtures.sh. Python 3
standard library only.

Usage: chromium_driver.py START_URL -- CHROMIUM [ARGUMENTS...]

Starts Chromium with the arguments plus --remote-debugging-pipe, opens a tab,
loads START_URL and waits for its load event (which waits for the page's image
and iframe), then closes the browser cleanly (Browser.close), so that the
profile's Cookies database is complete on disk.
"""

import fcntl
import json
import os
import subprocess
import sys
import time

START_URL = sys.argv[1]
COMMAND = sys.argv[sys.argv.index("--") + 1:]


class DevTools:
    def __init__(self, command):
        # Chromium's fd 3 <- our `to_chromium`; Chromium's fd 4 -> our `from_chromium`.
        chromium_reads, self.to_chromium = os.pipe()
        self.from_chromium, chromium_writes = os.pipe()

        def map_fds():
            # Move both ends out of the way first, so that neither dup2 below
            # can overwrite the other end when the pipes got fds 3 or 4.
            reads = fcntl.fcntl(chromium_reads, fcntl.F_DUPFD, 10)
            writes = fcntl.fcntl(chromium_writes, fcntl.F_DUPFD, 10)
            os.dup2(reads, 3)
            os.dup2(writes, 4)

        self.process = subprocess.Popen(
            command + ["--remote-debugging-pipe"], preexec_fn=map_fds,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=open(os.environ.get("CHROMIUM_LOG", os.devnull), "w"))
        os.close(chromium_reads)
        os.close(chromium_writes)
        self.buffer = b""
        self.next_id = 1

    def send(self, method, params=None, session=None):
        message_id = self.next_id
        self.next_id += 1
        message = {"id": message_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chromium, json.dumps(message).encode() + b"\0")
        return message_id

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chromium, 65536)
            if not chunk:
                raise ConnectionError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method, params=None, session=None):
        message_id = self.send(method, params, session)
        while True:
            message = self.receive()
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, method, session):
        while True:
            message = self.receive()
            if message.get("method") == method and message.get("sessionId") == session:
                return message


def main():
    devtools = DevTools(COMMAND)
    target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = devtools.call("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
    devtools.call("Page.enable", session=session)
    devtools.call("Page.navigate", {"url": START_URL}, session=session)
    devtools.wait_for("Page.loadEventFired", session)
    time.sleep(1)
    devtools.send("Browser.close")
    devtools.process.wait(timeout=60)


if __name__ == "__main__":
    main()
