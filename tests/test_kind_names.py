"""No module outside a kind's own package names a registered kind.

Everything the app knows about a kind comes from the kind (``playbench.games.kind``); a name written
into app code (``if game == "sudoku"``) is knowledge that escaped its package. This walks the source
of ``app``, ``db``, ``evaluators``, ``resources`` and the top-level ``games/*.py`` modules and
fails on any string constant equal to a registered kind's name, outside a short allow-list of
places where the word is data rather than a kind (each with its reason).
"""

from __future__ import annotations

import ast
from pathlib import Path

from playbench.games.kind import default_registry

ROOT = Path(__file__).resolve().parents[1]

ALLOWED: dict[tuple[str, str], str] = {
    ("app/agents/hints.py", "web"): "a key of the stored hint JSON (its web part), not the kind",
    ("resources/web/site/app.py", "web"): "the resources/web folder the site's data lives in",
    ("app/agents/protocols/__init__.py", "webui"): "the prompt-protocol family of MageBench's "
                                                   "WebUI prompts (a kind picks it with its "
                                                   "protocol_family), not the kind",
    ("app/agents/protocols/webui.py", "webui"): "that protocol family's own name",
    ("resources/web/site/data.py", "football"): "an item for sale on the offline classifieds "
                                                "site, not the kind",
}
"""(path, name) -> why that file may contain the word."""


def checked_files(root: Path = ROOT) -> list[Path]:
    """The modules that must not name a kind."""
    files = [p for d in ("app", "db", "evaluators", "resources") for p in (root / d).rglob("*.py")]
    files += sorted((root / "games").glob("*.py"))
    return sorted(p for p in files if "__pycache__" not in p.parts)


def named_kinds(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """(line, name) of every string constant in ``path`` equal to one of ``names``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in names]


def violations(root: Path, names: set[str], allowed: dict[tuple[str, str], str]) -> list[str]:
    found = []
    for path in checked_files(root):
        rel = path.relative_to(root).as_posix()
        for line, name in named_kinds(path, names):
            if (rel, name) not in allowed:
                found.append(f"{rel}:{line}: names the kind {name!r}")
    return found


def test_no_module_outside_a_kinds_package_names_a_kind():
    names = set(default_registry().names())
    assert {"sokoban", "web"} <= names  # the check is only as good as the names it knows
    assert violations(ROOT, names, ALLOWED) == []


def test_every_allowed_name_is_still_there():
    """An allow-list entry whose file no longer has the word is removed, not kept around."""
    names = set(default_registry().names())
    for (rel, name), why in ALLOWED.items():
        assert name in names, f"{rel}: {name!r} is not a kind ({why})"
        assert (ROOT / rel).is_file() and named_kinds(ROOT / rel, {name}), (rel, why)


def test_a_planted_name_is_found(tmp_path):
    """The check can fail: a copy of the layout with one module naming a kind."""
    name = default_registry().names()[0]
    (tmp_path / "app" / "core").mkdir(parents=True)
    (tmp_path / "games").mkdir()
    (tmp_path / "app" / "core" / "fine.py").write_text(f'"""Mentions {name} in prose."""\n')
    (tmp_path / "games" / "helper.py").write_text(f"FLOOR = 10 if game == {name!r} else 8\n")
    (tmp_path / "games" / name).mkdir()
    (tmp_path / "games" / name / "kind.py").write_text(f"NAME = {name!r}\n")  # its own package
    found = violations(tmp_path, {name}, {})
    assert found == [f"games/helper.py:1: names the kind {name!r}"]
    assert violations(tmp_path, {name}, {("games/helper.py", name): "planted"}) == []
