#!/usr/bin/env python3
"""A real DNS server for the tests: Debian's dnsmasq on 127.0.0.1 (stdlib
only for this wrapper).

Usage: dns_server.py RECORD...

Each RECORD is `host-record=NAME,ADDRESS` or `cname=ALIAS,TARGET` (dnsmasq
options). Starts dnsmasq on a free UDP port of 127.0.0.1 with only these
records (no upstream server, no /etc/hosts), waits until it answers a
query, prints one line `PORT <port>`, and serves until its standard input
closes (the test process went away); then stops dnsmasq.
"""

import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port, name):
    """Whether the server on `port` answers an A query for `name`."""
    query = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        query += bytes([len(label)]) + label.encode()
    query += b"\x00" + struct.pack(">HH", 1, 1)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
        client.settimeout(0.2)
        try:
            client.sendto(query, ("127.0.0.1", port))
            reply, _ = client.recvfrom(4096)
        except OSError:
            return False
    return len(reply) >= 12 and reply[:2] == query[:2]


def main():
    records = sys.argv[1:]
    binary = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
    probe_name = next(
        (r.split("=", 1)[1].split(",")[0] for r in records if r.startswith("host-record=")),
        "localhost")
    for _ in range(5):
        port = free_udp_port()
        arguments = [
            binary, "--keep-in-foreground", "--conf-file=/dev/null", "--no-resolv",
            "--no-hosts", "--no-poll", "--listen-address=127.0.0.1", "--bind-interfaces",
            "--port=%d" % port, "--pid-file=", "--log-facility=-", "--quiet-dhcp",
        ]
        if os.getuid() == 0:
            arguments.append("--user=root")
        arguments += ["--" + record for record in records]
        server = subprocess.Popen(
            arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and server.poll() is None:
            if answers(port, probe_name):
                break
            time.sleep(0.05)
        if server.poll() is None and answers(port, probe_name):
            break
        server.kill()
        server.wait()
    else:
        print("FAILED dnsmasq did not start", flush=True)
        return 1
    print("PORT %d" % port, flush=True)
    try:
        sys.stdin.buffer.read()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
