"""Test tiers: markers applied from what a test uses, the fast tier by default, and a guard that
fails a test which starts a heavy component its markers do not declare.

Tiers (docs/development.md):

- ``browser``: starts Chromium (Playwright); ``postgres``: a PostgreSQL server; ``ray``: a Ray
  cluster; ``bundle``: builds the wheel or the desktop bundle; ``football``: the Google Research
  Football engine; ``content``: every level or task of a bundled set; ``bench``: a benchmark
  script run at a small size, so none stops working unnoticed.
- ``smoke``: a real-component test that stays in the fast tier although it is in a heavy one
  (at least one per kind and per surface).
- ``lint``: ruff, mypy and import-linter over the tree, and their planted-finding checks.
  `./bootstrap test` runs the linters first anyway, so the fast tier leaves them out (a cold
  mypy alone took 40 s of the fast tier's 9 1/2 minutes); ``pytest -m lint`` runs them.

Plain ``pytest`` runs the fast tier: every test in no heavy tier, and the smoke tests. Naming
tests (a path or node id), choosing with ``-m`` or passing ``--all-tiers`` runs what is asked.

Markers come from fixtures (:data:`FIXTURE_TIERS`) and from module ``pytestmark``. So that a
forgotten marker cannot hide a heavy test in the fast tier, Chromium and the football engine are
started through small wrapper executables (``PLAYBENCH_CHROMIUM``, ``PLAYBENCH_FOOTBALL_PYTHON``)
that note each start in a file named for the running test - the test's own process and every
process it starts (a ``playbench`` command, the app) - and a test that started one outside its
declared tiers fails at teardown, naming the tier to add.
"""

from __future__ import annotations

import itertools
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

HEAVY = ("browser", "postgres", "ray", "bundle", "football", "content", "bench", "lint")
MARKERS = {
    "browser": "starts Chromium through Playwright",
    "postgres": "needs the PostgreSQL test server",
    "ray": "starts a Ray cluster",
    "bundle": "builds the wheel or the desktop bundle",
    "football": "starts the Google Research Football engine",
    "content": "checks every level or task of a bundled set",
    "bench": "runs a benchmark script at a small size (tests/test_benchmarks.py)",
    "smoke": "a real-component check kept in the fast tier",
    "lint": "ruff, mypy and import-linter over the tree",
}
FIXTURE_TIERS = {
    "browser": "browser",
    "make_env": "browser",
    "chromium": "browser",
    "pg_server": "postgres",
    "pg_url": "postgres",
    "cluster": "ray",
    "built": "bundle",
    "wheel": "bundle",
}
"""Fixture name -> the tier every test using it (directly or through another fixture) is in."""

WATCHED = {"browser": "PLAYBENCH_CHROMIUM", "football": "PLAYBENCH_FOOTBALL_PYTHON"}
PROBE = "PLAYBENCH_TIER_PROBE"
"""The file the wrappers append a tier name to; set afresh for every test."""
FAST = "PLAYBENCH_TIER_FAST"
_counter = itertools.count()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all-tiers", action="store_true", default=False,
                     help="run every tier (what ./bootstrap test and CI run); plain pytest runs "
                          "the fast tier")


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    if not hasattr(config, "workerinput"):
        os.environ[FAST] = "1" if fast_tier_only(config) else "0"
    _install_wrappers(config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            tier = FIXTURE_TIERS.get(fixture)
            if tier and not item.get_closest_marker(tier):
                item.add_marker(tier)
    if not fast_tier_only(config):
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        (drop if tiers_of(item) & set(HEAVY) and not item.get_closest_marker("smoke")
         else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def fast_tier_only(config: pytest.Config) -> bool:
    """True when nothing but the default was asked for: no --all-tiers, no -m, no named tests.
    Decided by the controlling process; xdist workers (whose arguments are the controller's
    expanded ones) read its decision from the environment they inherit."""
    if hasattr(config, "workerinput"):
        return os.environ.get(FAST) == "1"
    if config.getoption("--all-tiers") or config.getoption("markexpr"):
        return False
    return config.args_source != pytest.Config.ArgsSource.ARGS


def tiers_of(item: pytest.Item) -> set[str]:
    return {m.name for m in item.iter_markers() if m.name in HEAVY}


def pytest_report_header(config: pytest.Config) -> str:
    if fast_tier_only(config):
        return ("tiers: the fast tier (plus smoke tests); every tier: pytest --all-tiers, "
                "or ./bootstrap test")
    return "tiers: as asked (--all-tiers, -m or named tests)"


# --- the guard ---------------------------------------------------------------------------------

def _install_wrappers(config: pytest.Config) -> None:
    """Point the watched variables at wrappers around the real executables (once per run: an
    xdist worker inherits its controller's wrappers)."""
    if os.environ.get("PLAYBENCH_TIER_WRAPPED"):
        return
    where = Path(tempfile.mkdtemp(prefix="playbench-tiers-"))
    wrapped = False
    for tier, variable in WATCHED.items():
        real = _real_executable(tier)
        if real is None:
            continue
        script = where / f"{tier}-wrapper"
        script.write_text("#!/bin/sh\n"
                          f'[ -n "${PROBE}" ] && echo {tier} >> "${PROBE}"\n'
                          f'exec "{real}" "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        os.environ[variable] = str(script)
        wrapped = True
    if wrapped:
        os.environ["PLAYBENCH_TIER_WRAPPED"] = str(where)
        config.add_cleanup(lambda: shutil.rmtree(where, ignore_errors=True))


def _real_executable(tier: str) -> str | None:
    if tier == "browser":
        from playbench.games.browser.browser import chromium_executable
        return chromium_executable()  # None: Playwright's own build, not watched
    from playbench.games.football.engine import find_python
    return find_python()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    where = os.environ.get("PLAYBENCH_TIER_WRAPPED")
    if where:
        os.environ[PROBE] = os.path.join(where, f"probe-{os.getpid()}-{next(_counter)}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    try:
        return (yield)
    finally:
        probe = os.environ.pop(PROBE, None)
        started = set()
        if probe and os.path.exists(probe):
            started = set(Path(probe).read_text().split())
            os.unlink(probe)
        missing = sorted(started - tiers_of(item))
        if missing:
            pytest.fail(f"{item.nodeid} started {', '.join(missing)} but is not in that tier: "
                        "use the tier's fixture or add "
                        + " ".join(f"@pytest.mark.{t}" for t in missing)
                        + " (tests/tiers.py)", pytrace=False)


# --- time per tier -----------------------------------------------------------------------------

class TierClock:
    """Wall time of every test (set-up, call and teardown) summed per tier, printed at the
    end of the run: a test counts in its first heavy tier, else in ``fast``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.tests: dict[str, set[str]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        tier = next((t for t in HEAVY if t in report.keywords), "fast")
        self.seconds[tier] = self.seconds.get(tier, 0.0) + report.duration
        self.tests.setdefault(tier, set()).add(report.nodeid)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.seconds:
            return
        terminalreporter.section("time per tier (summed over workers)")
        for tier in ("fast", *HEAVY):
            if tier in self.seconds:
                terminalreporter.write_line(f"{tier:>9}: {len(self.tests[tier]):5d} tests "
                                            f"{self.seconds[tier]:8.1f} s")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller sees every report
        session.config.pluginmanager.register(TierClock(), "playbench-tier-clock")
