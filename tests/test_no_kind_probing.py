"""No module of the app probes a task kind or an environment with ``getattr``/``hasattr``.

What a kind can do is declared (``games/capabilities.py``: ``Capabilities`` fields and
runtime-checkable protocols) and what an environment offers beyond the loop's ``Env`` is a
protocol in ``games/env.py`` (``ShowsPage``, ``LivePreview``, ``UsesSetting``) or the board
adapter ``BoardTaskEnv``; both are checked with ``isinstance``, so mypy sees every call. A
``getattr(kind, "preview", None)`` is an attribute name nobody checks (issue 28). This walks
the source of ``app`` and fails on a ``getattr``/``hasattr`` whose object is a kind, a registry
look-up, an environment or a board - judged by the names in the object's expression.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBED = ("kind", "env", "board", "registry", "spec")
"""Words that name a kind, a registry, an environment or a board game's spec in the app's code
(``kind``, ``kinds``, ``self.env``, ``session.env``, ``default_registry()``, ``env.board``)."""

NOT_PROBED = frozenset({"environ"})
"""Names containing a word above that are something else (``os.environ``)."""


def names_in(node: ast.AST) -> list[str]:
    """Every variable, attribute and called function name in an expression."""
    out = []
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            out.append(part.id)
        elif isinstance(part, ast.Attribute):
            out.append(part.attr)
    return out


def probes(path: Path) -> list[tuple[int, str]]:
    """(line, source) of each ``getattr``/``hasattr`` in ``path`` whose object is probed."""
    text = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(text, str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and node.args):
            continue
        words = [n.lower() for n in names_in(node.args[0]) if n.lower() not in NOT_PROBED]
        if any(w in name for name in words for w in PROBED):
            found.append((node.lineno, ast.get_source_segment(text, node) or ""))
    return sorted(found)


def violations(root: Path) -> list[str]:
    return [f"{path.relative_to(root).as_posix()}:{line}: {source}"
            for path in sorted((root / "app").rglob("*.py")) if "__pycache__" not in path.parts
            for line, source in probes(path)]


def test_the_app_probes_no_kind_or_environment():
    assert violations(ROOT) == []


def test_a_planted_probe_is_found(tmp_path):
    """The check can fail: each shape the app used to have is caught; other objects are not."""
    (tmp_path / "app" / "ui").mkdir(parents=True)
    (tmp_path / "app" / "ui" / "planted.py").write_text(
        "a = getattr(kinds.get(game), 'demo_moves', None)\n"
        "b = getattr(getattr(s.env, 'board', None), 'rules', None)\n"
        "c = hasattr(self.runtime.kind(game), 'person_input')\n"
        "d = getattr(default_registry().get(name), 'order', 0)\n"
        "e = getattr(args, 'db', None)\n"
        "f = getattr(os.environ, 'get', None)\n"
        "g = getattr(player, 'inner', player)\n", encoding="utf-8")
    found = violations(tmp_path)
    assert [v.split(":")[1] for v in found] == ["1", "2", "2", "3", "4"]
