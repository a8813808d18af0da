"""A GRF scenario builder file (``build_scenario(builder)``, the format of MageBench's
``resources/Football/*.py`` and of GRF's own ``gfootball/scenarios``) read as data.

The file is parsed with :mod:`ast` and never imported, compiled to code or evaluated: this
module walks the syntax tree and accepts only the small grammar scenario builders use, so a file
that would do anything else when imported is refused before anything of it runs.

The grammar, at the top of the file:

- ``import gfootball_engine as libgame`` or ``from . import *`` (GRF's own scenarios),
- ``e_PlayerRole_XX = libgame.e_PlayerRole.e_PlayerRole_XX`` and ``Team = libgame.e_Team``,
- strings (docstrings) and one ``def build_scenario(builder):`` without decorators;

and inside ``build_scenario``:

- ``builder.config().NAME = VALUE`` (a field of GRF's scenario config, see
  :mod:`playbench.games.football.grf_config`; ``True``/``False`` or a number),
- ``builder.SetBallPosition(X, Y)``,
- ``builder.SetTeam(Team.e_Left)`` / ``Team.e_Right`` (or ``libgame.e_Team.e_Left``),
- ``builder.AddPlayer(X, Y, e_PlayerRole_XX[, lazy[, controllable]])``, the two flags also as
  ``lazy=`` / ``controllable=`` keywords, and ``pass`` or strings.

X, Y and numeric values are number literals, with at most a unary minus or plus. Anything else
(another call, a loop, another import, attribute access on something else, arithmetic, a lambda,
a decorator, a name the file never defined) raises :class:`LevelError` naming the file, the line
and what was found there. Numbers are kept as the decimals written (:class:`decimal.Decimal`),
so four-decimal coordinates stay exact.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from playbench.games.base import LevelError
from playbench.games.football import grf_config

ROLES = ("GK", "CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF")
TEAMS = {"e_Left": "left", "e_Right": "right"}
ALLOWED = ("builder.config().NAME = VALUE, builder.SetBallPosition(X, Y), "
           "builder.SetTeam(Team.e_Left|e_Right) and builder.AddPlayer(X, Y, ROLE[, lazy, "
           "controllable])")
MAX_BYTES = 256 * 1024
"""The largest scenario file read (MageBench's are about 2.4 kB)."""


@dataclass(frozen=True)
class BuilderPlayer:
    """One ``AddPlayer`` call: the position as written, in its team's own frame."""

    team: str
    """``left`` or ``right`` (the team set when the player was added)."""
    x: Decimal
    y: Decimal
    role: str
    lazy: bool
    controllable: bool
    line: int


@dataclass(frozen=True)
class Builder:
    """What a scenario builder sets, in the file's order (the last call wins, as in GRF)."""

    ball: tuple[Decimal, Decimal] | None
    ball_line: int | None
    config: tuple[tuple[str, grf_config.Value], ...]
    players: tuple[BuilderPlayer, ...]


class _Refused(Exception):
    def __init__(self, node: ast.AST | None, what: str) -> None:
        super().__init__(what)
        self.line = getattr(node, "lineno", None)
        self.what = what


def _shown(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # unparse of an odd tree: name the construct instead
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= 70 else text[:67] + "..."


def _not_allowed(node: ast.AST, where: str) -> _Refused:
    return _Refused(node, f"{where} a scenario builder has only {ALLOWED}; found "
                          f"`{_shown(node)}`")


def read_builder(text: str, source: str) -> Builder:
    """The scenario ``text`` (a builder file's source) as data; raises :class:`LevelError`
    naming ``source``, the line and what was found when it is outside the grammar."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise LevelError(f"the file is larger than {MAX_BYTES // 1024} kB; a scenario builder "
                         "is a few kB", source=source)
    try:
        tree = ast.parse(text, filename=source)
    except SyntaxError as err:
        raise LevelError(f"not valid Python: {err.msg}", source=source,
                         line=err.lineno) from None
    except (ValueError, RecursionError, MemoryError) as err:
        raise LevelError(f"not a readable Python file ({type(err).__name__}: {err})",
                         source=source) from None
    try:
        return _Reader(text).module(tree)
    except _Refused as err:
        raise LevelError(err.what, source=source, line=err.line) from None
    except RecursionError:
        raise LevelError("the file nests too deeply to be a scenario builder",
                         source=source) from None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.names: set[str] = set()
        """Names the file defines at its top (``libgame``, ``Team``, role names)."""

    # --- the top of the file ----------------------------------------------------------------

    def module(self, tree: ast.Module) -> Builder:
        found: Builder | None = None
        for stmt in tree.body:
            if _is_string(stmt):
                continue
            if isinstance(stmt, ast.Import):
                self._import(stmt)
            elif isinstance(stmt, ast.ImportFrom):
                if not (stmt.module is None and stmt.level == 1 and len(stmt.names) == 1
                        and stmt.names[0].name == "*"):
                    raise _Refused(stmt, f"the only imports a scenario builder has are `import "
                                         f"gfootball_engine as libgame` and `from . import *`; "
                                         f"found `{_shown(stmt)}`")
                self.names |= {"libgame", "Team", *(f"e_PlayerRole_{r}" for r in ROLES)}
            elif isinstance(stmt, ast.Assign):
                self._alias(stmt)
            elif isinstance(stmt, ast.FunctionDef) and stmt.name == "build_scenario":
                if found is not None:
                    raise _Refused(stmt, "build_scenario is defined twice")
                found = self._function(stmt)
            else:
                raise _Refused(stmt, f"at the top of the file a scenario builder has only its "
                                     f"imports, role and team names and build_scenario; found "
                                     f"`{_shown(stmt)}`")
        if found is None:
            raise _Refused(None, "the file defines no build_scenario(builder)")
        return found

    def _import(self, stmt: ast.Import) -> None:
        if [(a.name, a.asname) for a in stmt.names] != [("gfootball_engine", "libgame")]:
            raise _Refused(stmt, f"the only imports a scenario builder has are `import "
                                 f"gfootball_engine as libgame` and `from . import *`; found "
                                 f"`{_shown(stmt)}`")
        self.names.add("libgame")

    def _alias(self, stmt: ast.Assign) -> None:
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            value = stmt.value
            if name == "Team" and self._is_libgame_attr(value, "e_Team"):
                self.names.add(name)
                return
            if (name.startswith("e_PlayerRole_") and name[13:] in ROLES
                    and isinstance(value, ast.Attribute) and value.attr == name
                    and self._is_libgame_attr(value.value, "e_PlayerRole")):
                self.names.add(name)
                return
        raise _Refused(stmt, f"at the top of the file a scenario builder names only GRF's roles "
                             f"(e_PlayerRole_XX = libgame.e_PlayerRole.e_PlayerRole_XX) and "
                             f"Team = libgame.e_Team; found `{_shown(stmt)}`")

    def _is_libgame_attr(self, node: ast.expr, attr: str) -> bool:
        ok = (isinstance(node, ast.Attribute) and node.attr == attr
              and isinstance(node.value, ast.Name) and node.value.id == "libgame")
        if ok and "libgame" not in self.names:
            raise _Refused(node, "libgame is used but never imported")
        return ok

    def _function(self, fn: ast.FunctionDef) -> Builder:
        if fn.decorator_list:
            raise _Refused(fn.decorator_list[0], f"build_scenario has a decorator "
                                                 f"(`@{_shown(fn.decorator_list[0])}`); a "
                                                 f"scenario builder has none")
        a = fn.args
        if (len(a.args) != 1 or a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg
                or a.defaults or a.args[0].annotation is not None or fn.returns is not None
                or getattr(fn, "type_params", None)):
            raise _Refused(fn, "build_scenario takes one argument, the builder, with no "
                               "default or annotation")
        return _Body(self, a.args[0].arg).read(fn.body)


class _Body:
    """The statements of ``build_scenario``."""

    def __init__(self, top: _Reader, builder: str) -> None:
        self.top = top
        self.builder = builder
        self.team = "left"  # GRF's builder starts with the left team
        self.ball: tuple[Decimal, Decimal] | None = None
        self.ball_line: int | None = None
        self.config: dict[str, grf_config.Value] = {}
        self.players: list[BuilderPlayer] = []

    def read(self, body: list[ast.stmt]) -> Builder:
        for stmt in body:
            if _is_string(stmt) or isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Assign):
                self._setting(stmt)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._call(stmt.value)
            else:
                raise _not_allowed(stmt, "inside build_scenario")
        return Builder(self.ball, self.ball_line, tuple(self.config.items()),
                       tuple(self.players))

    def _is_builder(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.builder

    def _setting(self, stmt: ast.Assign) -> None:
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Call)
                and isinstance(target.value.func, ast.Attribute)
                and target.value.func.attr == "config"
                and self._is_builder(target.value.func.value)
                and not target.value.args and not target.value.keywords):
            raise _not_allowed(stmt, "inside build_scenario")
        value = _literal(stmt.value, self.top.text, "a setting's value", allow_bool=True)
        try:
            self.config[target.attr] = grf_config.check(target.attr, value)
        except ValueError as err:
            raise _Refused(stmt, str(err)) from None

    def _call(self, call: ast.Call) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and self._is_builder(func.value)):
            raise _not_allowed(call, "inside build_scenario")
        if func.attr == "SetBallPosition":
            if len(call.args) != 2 or call.keywords:
                raise _Refused(call, f"SetBallPosition takes two numbers, x and y; found "
                                     f"`{_shown(call)}`")
            self.ball = (_coordinate(call.args[0], self.top.text),
                         _coordinate(call.args[1], self.top.text))
            self.ball_line = call.lineno
        elif func.attr == "SetTeam":
            if len(call.args) != 1 or call.keywords:
                raise _Refused(call, f"SetTeam takes one team; found `{_shown(call)}`")
            self.team = self._team(call.args[0])
        elif func.attr == "AddPlayer":
            self._player(call)
        else:
            raise _not_allowed(call, "inside build_scenario")

    def _team(self, node: ast.expr) -> str:
        if isinstance(node, ast.Attribute) and node.attr in TEAMS:
            base = node.value
            if isinstance(base, ast.Name) and base.id == "Team":
                if "Team" not in self.top.names:
                    raise _Refused(node, "Team is used but the file never defines it")
                return TEAMS[node.attr]
            if self.top._is_libgame_attr(base, "e_Team"):
                return TEAMS[node.attr]
        raise _Refused(node, f"a team is Team.e_Left or Team.e_Right; found `{_shown(node)}`")

    def _role(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name) and node.id.startswith("e_PlayerRole_"):
            role = node.id[13:]
            if role in ROLES:
                if node.id not in self.top.names:
                    raise _Refused(node, f"{node.id} is used but the file never defines it")
                return role
        if (isinstance(node, ast.Attribute) and node.attr.startswith("e_PlayerRole_")
                and node.attr[13:] in ROLES and self.top._is_libgame_attr(node.value,
                                                                        "e_PlayerRole")):
            return node.attr[13:]
        raise _Refused(node, f"a role is one of e_PlayerRole_{'/'.join(ROLES)}; found "
                             f"`{_shown(node)}`")

    def _player(self, call: ast.Call) -> None:
        if not 3 <= len(call.args) <= 5:
            raise _Refused(call, f"AddPlayer takes x, y, a role and optionally lazy and "
                                 f"controllable; found `{_shown(call)}`")
        x = _coordinate(call.args[0], self.top.text)
        y = _coordinate(call.args[1], self.top.text)
        role = self._role(call.args[2])
        flags: dict[str, bool] = {}
        for name, node in zip(("lazy", "controllable"), call.args[3:], strict=False):
            flags[name] = _flag(node, name, self.top.text)
        for kw in call.keywords:
            if kw.arg not in ("lazy", "controllable") or kw.arg in flags:
                raise _Refused(kw.value, f"AddPlayer's keywords are lazy and controllable, each "
                                         f"once; found `{_shown(call)}`")
            flags[kw.arg] = _flag(kw.value, kw.arg, self.top.text)
        self.players.append(BuilderPlayer(self.team, x, y, role, flags.get("lazy", False),
                                          flags.get("controllable", True), call.lineno))


def _is_string(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _flag(node: ast.expr, name: str, text: str) -> bool:
    value = _literal(node, text, name, allow_bool=True)
    if not isinstance(value, bool):
        raise _Refused(node, f"{name} is True or False; found `{_shown(node)}`")
    return value


def _coordinate(node: ast.expr, text: str) -> Decimal:
    value = _literal(node, text, "a coordinate", allow_bool=False)
    assert not isinstance(value, bool)
    return Decimal(value)


def _literal(node: ast.expr, text: str, what: str, *, allow_bool: bool) -> bool | int | Decimal:
    """A literal: True/False (where allowed) or a number with at most one unary sign, the
    number kept as the decimal written."""
    if allow_bool and isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    sign = 1
    inner = node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        inner = node.operand
    if not (isinstance(inner, ast.Constant) and isinstance(inner.value, (int, float))
            and not isinstance(inner.value, bool)):
        raise _Refused(node, f"{what} is a number{' or True/False' if allow_bool else ''}; "
                             f"found `{_shown(node)}`")
    if isinstance(inner.value, int):
        return sign * inner.value
    written = ast.get_source_segment(text, inner) or repr(inner.value)
    try:
        number = Decimal(written.replace("_", ""))
    except InvalidOperation:
        number = Decimal(repr(inner.value))
    if not number.is_finite() or float(number) != inner.value:
        raise _Refused(node, f"{what} must be a finite number; found `{_shown(node)}`")
    return -number if sign < 0 else number
