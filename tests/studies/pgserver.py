"""A throw-away PostgreSQL server for tests: Debian's server binaries, a fresh cluster in a
temporary directory, listening on 127.0.0.1 on a free port, trust authentication.

PostgreSQL refuses to run as root, so when the tests run as root (CI does) the cluster belongs
to the ``postgres`` system user the Debian package creates and the server runs under that
user (``subprocess.Popen(user=...)``). Every failure raises :class:`ServerProblem` with the
reason and the server's log, so a broken set-up fails loudly instead of being skipped.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

USER = "playbench"
READY_SECONDS = 60.0


class ServerProblem(RuntimeError):
    pass


def find_bindir() -> Path:
    """The newest installed server's bin directory (Debian: /usr/lib/postgresql/N/bin)."""
    override = os.environ.get("PLAYBENCH_PG_BINDIR")
    candidates = [Path(override)] if override else []
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                      key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                      else 0, reverse=True)
    candidates += [Path(p) for p in versions]
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).parent)
    for c in candidates:
        if (c / "initdb").exists() and (c / "postgres").exists():
            return c
    raise ServerProblem("no PostgreSQL server binaries (initdb, postgres) found in "
                        "/usr/lib/postgresql/*/bin or on PATH; install the Debian package "
                        "'postgresql' (./bootstrap does)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgServer:
    root: Path
    port: int
    process: subprocess.Popen
    log: Path

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: ends open sessions
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no log)"


def _owner_kwargs() -> dict:
    """Run as the postgres system user when we are root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return {}
    try:
        pw = pwd.getpwnam("postgres")
    except KeyError:
        raise ServerProblem("running as root and there is no 'postgres' system user to run "
                            "the server as (the Debian package 'postgresql' creates it)") from None
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}


def start_server() -> PgServer:
    bindir = find_bindir()
    owner = _owner_kwargs()
    root = Path(tempfile.mkdtemp(prefix="playbench-pg-"))
    os.chmod(root, 0o755)
    data, sock, log = root / "data", root / "sock", root / "server.log"
    for d in (data, sock):
        d.mkdir()
    log.touch()
    if owner:
        for p in (root, data, sock, log):
            os.chown(p, owner["user"], owner["group"])
    init = subprocess.run(
        [str(bindir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8",
         "--locale=C", "--no-sync"], capture_output=True, text=True, cwd=root, **owner)
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise ServerProblem(f"initdb failed ({init.returncode}): {init.stderr.strip()[-2000:]}")
    port = free_port()
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(sock),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=60"],
            stdout=out, stderr=subprocess.STDOUT, cwd=root, **owner)
    server = PgServer(root, port, proc, log)
    _wait_ready(server)
    return server


def _wait_ready(server: PgServer) -> None:
    """Poll until the server accepts a connection (it takes a moment to start)."""
    import psycopg
    deadline = time.monotonic() + READY_SECONDS
    last = ""
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            log = server.log_text()
            server.stop()
            raise ServerProblem(f"postgres exited with {server.process.returncode}: {log}")
        try:
            with psycopg.connect(host="127.0.0.1", port=server.port, user=USER,
                                 dbname="postgres", connect_timeout=2):
                return
        except psycopg.OperationalError as err:
            last = str(err)
            time.sleep(0.1)  # readiness polling, not a wait for a result
    log = server.log_text()
    server.stop()
    raise ServerProblem(f"postgres did not accept connections within {READY_SECONDS:g} s "
                        f"({last}); log: {log}")
