#!/usr/bin/env python3
"""A real PostgreSQL server for the tests (stdlib only for this wrapper).

Usage: postgres_server.py PASSWORD [CERT KEY]

With CERT and KEY (PEM files), the server also speaks TLS (ssl=on) with
that certificate; clients choose with their sslmode. With the environment
variable WEBSITEDATA_PG_FILE_LIMIT (bytes), no file the server writes may
grow past that size (RLIMIT_FSIZE: writes fail as on a full disk).

Runs Debian's PostgreSQL binaries (`initdb`, `postgres`, found under
/usr/lib/postgresql/*/bin) as an unprivileged user: itself, or `nobody`
when started as root (PostgreSQL refuses to run as root). initdb makes a
cluster in a fresh temporary folder whose superuser `websitedata` has
PASSWORD (scram-sha-256 over TCP, nothing over the Unix socket but the
folder's own); the server listens on 127.0.0.1 on a free port, with its
Unix socket in the folder. Prints one line
`PORT <port> USER websitedata DATA <data folder>` once it accepts
connections, and serves until its standard input closes; then stops the
server (fast shutdown) and removes the folder. A line `restart` on its
standard input stops the server (fast shutdown: clients are cut off) and
starts it again on the same port and data; `RESTARTED` is printed once it
accepts connections again.
"""

import glob
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

USER = "websitedata"


def binaries():
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not folders:
        raise SystemExit("FAILED no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)")
    return folders[-1]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def demote():
    """When root, the child runs as nobody:nogroup."""
    if os.getuid() != 0:
        return None
    import pwd
    entry = pwd.getpwnam("nobody")
    def change():
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
    return change, entry


def main():
    password = sys.argv[1]
    tls = sys.argv[2:4] if len(sys.argv) >= 4 else None
    bin_folder = binaries()
    demotion = demote()
    # Run as nobody, the server must reach its folder: under /tmp, whose
    # parents anyone may traverse (a root-only $TMPDIR would not do).
    folder = tempfile.mkdtemp(
        prefix="websitedata-postgres-", dir="/tmp" if demotion is not None else None)
    data = os.path.join(folder, "data")
    preexec = None
    if demotion is not None:
        preexec, entry = demotion
        os.chmod(folder, 0o700)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    password_file = os.path.join(folder, "password")
    with open(password_file, "w") as handle:
        handle.write(password + "\n")
    if demotion is not None:
        os.chown(password_file, entry.pw_uid, entry.pw_gid)
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
    server = None
    try:
        subprocess.run(
            [os.path.join(bin_folder, "initdb"), "-D", data, "-U", USER, "--pwfile", password_file,
             "--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "-E", "UTF8",
             "--no-instructions"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=preexec,
            env=env)
        os.remove(password_file)
        settings = []
        if tls is not None:
            # The server reads its key only when its own and private.
            for source, name in zip(tls, ["server.crt", "server.key"]):
                target = os.path.join(data, name)
                shutil.copyfile(source, target)
                os.chmod(target, 0o600)
                if demotion is not None:
                    os.chown(target, entry.pw_uid, entry.pw_gid)
            settings = ["-c", "ssl=on", "-c", "ssl_cert_file=server.crt",
                        "-c", "ssl_key_file=server.key"]
        file_limit = os.environ.get("WEBSITEDATA_PG_FILE_LIMIT")

        def limited():
            if file_limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (int(file_limit), int(file_limit)))
            if preexec is not None:
                preexec()

        def start(port):
            """Starts postgres on `port`; returns it once it accepts
            connections, or None."""
            server = subprocess.Popen(
                [os.path.join(bin_folder, "postgres"), "-D", data, "-p", str(port),
                 "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + folder,
                 "-c", "fsync=on", "-c", "log_min_messages=fatal",
                 # The shared suites open hundreds of stores at once, each
                 # with three connections (writer, reader, listener).
                 "-c", "max_connections=1500"] + settings,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=limited, env=env)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and server.poll() is None:
                probe = subprocess.run(
                    [os.path.join(bin_folder, "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if probe.returncode == 0:
                    return server
                time.sleep(0.1)
            if server.poll() is None:
                server.kill()
            server.wait()
            return None

        for _ in range(5):
            port = free_port()
            server = start(port)
            if server is not None:
                break
        if server is None:
            print("FAILED postgres did not start", flush=True)
            return 1
        print("PORT %d USER %s DATA %s" % (port, USER, data), flush=True)
        for line in sys.stdin.buffer:
            if line.strip() != b"restart":
                continue
            server.send_signal(signal.SIGINT)
            server.wait()
            server = start(port)
            print("RESTARTED" if server is not None else "FAILED restart", flush=True)
    except subprocess.CalledProcessError as error:
        print("FAILED initdb: %s" % error.stderr.decode(errors="replace").strip().replace("\n", " "),
              flush=True)
        return 1
    finally:
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGINT)  # fast shutdown
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
