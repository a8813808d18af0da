"""How pytest-xdist spreads the suite over the cores (``-n auto --dist loadgroup``).

Tests go to workers one by one, except the tests of a module that holds module-scoped
fixtures (a shared Chromium, a built bundle, a Ray cluster, a module event loop): they form one
xdist group, so the fixture is set up once on one worker instead of once per worker that got
some of the module's tests. Measured on the whole suite before grouping: the bundled web tasks'
shared set-up ran twice (137 s and 160 s), the bundle was built twice (99 s each).
"""

from __future__ import annotations

import pytest

SHARED_SCOPES = ("module", "class", "package")


HEAVY = ("browser", "postgres", "ray", "bundle", "football", "content")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark is None and shares_fixtures(item):
            group = pytest.mark.xdist_group(item.nodeid.split("::")[0])
            item.add_marker(group)
            mark = group.mark
        if mark is not None:
            groups.setdefault(str(mark.args[0] if mark.args else mark.kwargs["name"]),
                              []).append(item)
    # Long groups first: a worker handed a long group near the end would keep the run going
    # alone. Groups in a heavy tier, largest first; then everything else in collection order
    # (the same order on every worker, as xdist requires).
    heavy = sorted((g for g in groups.values()
                    if any(m.name in HEAVY for i in g for m in i.iter_markers())),
                   key=len, reverse=True)
    first = [i for g in heavy for i in g]
    chosen = {id(i) for i in first}
    items[:] = first + [i for i in items if id(i) not in chosen]


def shares_fixtures(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once for its module (or class, or package)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in SHARED_SCOPES
               for defs in info.name2fixturedefs.values())
