"""How pytest-xdist spreads the suite over the cores (``-n auto --dist loadscope``).

A module's tests go to one worker together, so a module-scoped fixture (a shared Chromium, a
built bundle, a Ray cluster, a module event loop) is set up once, not once per worker that got
some of the module's tests - measured on the whole suite spread test by test: the bundled web
tasks' shared set-up ran twice (137 s and 160 s), the bundle was built twice (99 s each), the
Ray cluster three times. (``loadgroup`` would group only such modules, but pytest-xdist 3.8
marks a group by rewriting ``item._nodeid``, which pytest 9.2 no longer reads.)

xdist hands modules out in collection order, so the long ones are put first: a worker that got
a long module near the end would keep the run going alone.

The fast tier alone has no heavy module to keep together, and whole modules there leave one
worker finishing a long module while the other waits (8 min 50 s against 7 min 13 s test by
test, same machine): it is spread test by test.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tiers import fast_tier_only

HEAVY = ("browser", "postgres", "ray", "bundle", "football", "content")
SHARED_SCOPES = ("module", "class", "package")


@pytest.hookimpl(trylast=True)  # after the tiers' markers are applied
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    # Modules in a heavy tier whose tests share a fixture, largest first; then everything else
    # in collection order (the same order on every worker, as xdist requires).
    long = sorted((m for m in modules.values() if any(
        shares_fixtures(i) and any(mk.name in HEAVY for mk in i.iter_markers()) for i in m)),
        key=len, reverse=True)
    first = [i for m in long for i in m]
    chosen = {id(i) for i in first}
    items[:] = first + [i for i in items if id(i) not in chosen]


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") == "loadscope" and fast_tier_only(config):
        from xdist.scheduler import LoadScheduling
        return LoadScheduling(config, log)
    return None


def shares_fixtures(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once for its module (or class, or package)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in SHARED_SCOPES
               for defs in info.name2fixturedefs.values())
