"""A deadline for the whole run, so that CI fails loudly instead of running out of time.

Per-test time-outs (pytest-timeout) end a test that hangs, but a run can still overrun CI's
limit - and then CI kills it and prints nothing about why (it happened: the run stopped at
2,161 of 2,165 tests with no failure reported). With ``PLAYBENCH_TEST_DEADLINE`` set (seconds;
``bootstrap test`` sets it on CI from the time CI has left), the controlling process watches
the clock: at the deadline it prints every test still running, on which worker and for how
long, and ends the run with exit code 3. Without the variable nothing is watched.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest

DEADLINE_ENV = "PLAYBENCH_TEST_DEADLINE"
EXIT_DEADLINE = 3


class Watchdog:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.monotonic()
        self.running: dict[str, float] = {}
        self.lock = threading.Lock()
        self.done = threading.Event()
        threading.Thread(target=self._watch, name="test-deadline", daemon=True).start()

    def started(self, nodeid: str) -> None:
        with self.lock:
            self.running[nodeid] = time.monotonic()

    def finished(self, nodeid: str) -> None:
        with self.lock:
            self.running.pop(nodeid, None)

    def _watch(self) -> None:
        if self.done.wait(self.seconds):
            return
        now = time.monotonic()
        with self.lock:
            late = sorted(self.running.items(), key=lambda kv: kv[1])
        lines = [f"\n\nTEST RUN DEADLINE: {self.seconds:.0f} s ({DEADLINE_ENV}) reached; "
                 f"{len(late)} test(s) still running:"]
        lines += [f"  {nodeid}  (running for {now - since:.0f} s)" for nodeid, since in late]
        sys.stderr.write("\n".join(lines) + "\n")
        sys.stderr.flush()
        os._exit(EXIT_DEADLINE)


_KEY = pytest.StashKey[Watchdog]()


def pytest_configure(config: pytest.Config) -> None:
    raw = os.environ.get(DEADLINE_ENV)
    if not raw or hasattr(config, "workerinput"):  # only the controlling process watches
        return
    config.stash[_KEY] = Watchdog(float(raw))


class _Tracker:
    def __init__(self, dog: Watchdog) -> None:
        self.dog = dog

    def pytest_runtest_logstart(self, nodeid: str, location: object) -> None:
        self.dog.started(nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown" or (report.when == "setup" and report.skipped):
            self.dog.finished(report.nodeid)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.dog.done.set()


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    dog = session.config.stash.get(_KEY, None)
    if dog is not None:
        session.config.pluginmanager.register(_Tracker(dog), "playbench-watchdog-tracker")
