"""Harness endpoint limits (issue 27): a real ``playbench proxy`` process in front of an
in-process serve-model, probed as the issue's probe did.

    .venv/bin/python benchmarks/bench_endpoint_limits.py

Prints one table:

- clients connecting at once (20, 50, 200; each a fresh connection, one request), answered
  with HTTP 200: ``GET /v1/models`` on the endpoint itself ("direct") and a one-message chat
  forwarded to serve-model ("through the proxy");
- eight ~31 MiB bodies sent at once: their statuses, and the proxy's RSS before and its peak
  (``VmHWM``) after;
- 400 connections that send half a request line and stop ("slowloris"): the proxy's thread
  count while they are open, and how long until the proxy has closed them all.

Only loopback traffic; every loop is bounded and the proxy is stopped at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playbench.app.agents.serve import ModelServer, ServeOptions

ROOT = Path(__file__).resolve().parents[1]


def status_of(pid: int, field: str) -> int:
    """A number from /proc/PID/status (``VmRSS``, ``VmHWM`` in kB; ``Threads``)."""
    text = Path(f"/proc/{pid}/status").read_text()
    found = re.search(rf"^{field}:\s+(\d+)", text, re.MULTILINE)
    return int(found.group(1)) if found else -1


def exchange(port: int, request: bytes, barrier: threading.Barrier) -> bytes:
    """One fresh connection, one request; the status line (b"" when refused or reset)."""
    try:
        barrier.wait(30)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(request)
            return s.makefile("rb").readline()
    except (OSError, threading.BrokenBarrierError):
        return b""


def at_once(port: int, request: bytes, n: int) -> int:
    """How many of ``n`` clients sending ``request`` at the same moment got HTTP 200."""
    barrier = threading.Barrier(n)
    results: list[bytes] = []
    threads = [threading.Thread(target=lambda: results.append(exchange(port, request, barrier)))
               for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return sum(1 for r in results if r.startswith(b"HTTP/1.1 200"))


def chat(port: int, n: int) -> bytes:
    body = json.dumps({"model": "m", "messages": [{"role": "user",
                                                   "content": f"bench {n}: which way?"}]})
    return (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n{body}").encode()


def big_bodies(port: int, count: int = 8, mib: int = 31) -> list[str]:
    """``count`` bodies of ``mib`` MiB sent at once; each answer's status line."""
    blob = b'{"model": "m", "messages": [{"role": "user", "content": "' + \
        b"x" * (mib * 1024 * 1024) + b'"}]}'
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(blob)}\r\n\r\n").encode()
    out: list[str] = []

    def send() -> None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
                s.sendall(head)
                with contextlib.suppress(OSError):  # refused unread: the server closed
                    s.sendall(blob)
                out.append(s.makefile("rb").readline().decode().strip())
        except OSError as err:
            out.append(f"error: {err}")

    threads = [threading.Thread(target=send) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return out


def slowloris(port: int, pid: int, n: int = 400, limit: float = 120.0) -> tuple[int, float, int]:
    """``n`` connections that stop inside the request line: the proxy's peak thread count
    while they are open, the seconds until it closed them all, and how many it closed."""
    sockets = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=limit)
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127")
        sockets.append(s)
    start = time.monotonic()
    peak = status_of(pid, "Threads")
    closed = 0
    for s in sockets:
        s.settimeout(max(0.1, limit - (time.monotonic() - start)))
        try:
            s.recv(4096)  # b"" or a 408 once the proxy gives up on it
            closed += 1
        except OSError:
            pass
        peak = max(peak, status_of(pid, "Threads"))
        s.close()
    return peak, time.monotonic() - start, closed


def main() -> int:
    upstream = ModelServer(ServeOptions(policy="random", port=0)).start()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PLAYBENCH_DB=f"sqlite:///{tmp}/bench.sqlite3",
                   PLAYBENCH_CONFIG_DIR=f"{tmp}/cfg")
        proc = subprocess.Popen([sys.executable, "-m", "playbench", "proxy", "--upstream",
                                 upstream.url, "--port", "0", "--idle", "5"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env, cwd=tmp)
        try:
            line = proc.stdout.readline() if proc.stdout else ""
            found = re.search(r"http://127\.0\.0\.1:(\d+)/v1", line)
            if found is None:
                print(f"the proxy did not start: {line!r}")
                return 1
            port = int(found.group(1))
            rows = []
            models = (f"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Connection: close\r\n\r\n").encode()
            for n in (20, 50, 200):
                direct = at_once(port, models, n)
                proxied = at_once(port, chat(port, n), n)
                rows.append((f"{n} clients at once, answered", f"{direct}/{n} direct",
                             f"{proxied}/{n} through the proxy"))
            rss = status_of(proc.pid, "VmRSS")
            statuses = big_bodies(port)
            peak = status_of(proc.pid, "VmHWM")
            rows.append(("8 x 31 MiB bodies", ", ".join(sorted(set(statuses))),
                         f"RSS {rss / 1024:.0f} MB before, peak {peak / 1024:.0f} MB"))
            threads, seconds, closed = slowloris(port, proc.pid)
            rows.append(("400 slowloris connections", f"peak {threads} threads",
                         f"{closed}/400 closed by the proxy within {seconds:.1f} s"))
            size = Path(f"{tmp}/bench.sqlite3").stat().st_size
            rows.append(("database after the run", f"{size / 1e6:.1f} MB", ""))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
            upstream.stop()
    width = max(len(r[0]) for r in rows)
    for name, a, b in rows:
        print(f"{name:<{width}}  {a:<22}  {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
