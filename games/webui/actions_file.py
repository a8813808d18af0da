"""MageBench's ``actions.py`` read as data: the scored steps of a WebUI task, never executed.

A published task folder's ``actions.py`` is Python written against Selenium: a few functions
that each take the driver and act on the page (find an element, click it, type into it, hover,
double-click, drag and drop, press keys, scroll to the bottom, submit a form, sleep), a
module-level list ``actions`` naming the functions the harness scores, one state after each,
and usually an ``interact`` helper that made the task's screenshots. MageBench's harness runs
the file with ``exec``; PlayBench never imports, executes or evaluates it. :func:`read_actions`
parses it with :mod:`ast` and accepts only a small grammar of those Selenium idioms with
literal arguments, turning each scored function into a list of *ops* (plain JSON-ready dicts,
replayed on both pages by :mod:`playbench.games.webui.steps`). Anything outside the grammar -
another import, a call to anything but the driver's and elements' known methods, attribute
access on other objects, an f-string with an expression, a lambda, a loop over anything but
found elements - is refused with a :class:`LevelError` naming the file and line. Every function
in the file is checked, scored or not, so a file is either wholly data or refused.

Ops (``op`` key): ``find`` (``as``, ``by``, ``value``, ``within``, ``index``, ``many``,
``wait``), ``text`` (``as``, ``el``), ``click`` / ``double_click`` / ``context_click`` /
``hover`` / ``submit`` / ``clear`` / ``js_click`` / ``scroll_into_view`` (``el``; ``hover`` and
a chain's ``click`` may give ``dx``/``dy`` from the centre, a chain's ``click`` may have no
``el``: where the mouse is), ``keys`` (``el`` or None for the focused element, ``keys``: items
``{"text"}``, ``{"key"}`` or ``{"var"}``), ``key_down`` / ``key_up`` (``key``), ``mouse_down``
/ ``mouse_up``, ``move_by`` (``dx``, ``dy``), ``drag`` (``el`` and ``to`` or ``dx``/``dy``),
``scroll`` (``to``: ``bottom`` or ``y``, or ``by``), ``wait`` (``seconds``), ``each`` (``el``,
``as``, ``ops``), ``if_text`` (``el``, ``equals``, ``ops``), ``break`` and ``call`` (``name``,
``ops``: a scored function calling another of the file, a compound step).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playbench.games.webui.actions_exprs import (
    BY,
    KEYS,
    ActionsError,
    ExprReader,
    Op,
    Scope,
)

SCRIPTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"window\.scrollTo\(0,document\.(?:body|documentElement)\.scrollHeight\)"),
     "bottom"),
    (re.compile(r"window\.scrollTo\(0,(-?\d+)\)"), "to"),
    (re.compile(r"window\.scrollBy\(0,(-?\d+)\)"), "by"),
    (re.compile(r"arguments\[0\]\.scrollIntoView\((?:true)?\)"), "into_view"),
    (re.compile(r"arguments\[0\]\.click\(\)"), "js_click"),
)
"""The only scripts a step may run through ``execute_script`` (spaces and a final ``;``
ignored): scroll to the bottom, to or by a literal offset, an element into view, a click."""

_IMPORTS = ("selenium", "time")
_CHAIN_TAKES_EL = frozenset({"click", "double_click", "context_click", "click_and_hold",
                             "release"})


@dataclass(frozen=True)
class Step:
    """One scored function: its name and ops."""

    name: str
    ops: tuple[Op, ...]

    def record(self) -> dict[str, Any]:
        """The interaction record a WebUI task keeps (``games/webui/tasks.py``)."""
        return {"do": "steps", "name": self.name, "ops": list(self.ops)}


class _Reader(ExprReader):
    """Reads one file's functions (see the module docstring)."""

    # -- functions ------------------------------------------------------------------------

    def function(self, name: str) -> list[Op]:
        if name in self.done:
            return self.done[name]
        if name in self.active:
            raise self.fail(self.functions[name], f"function {name!r} calls itself")
        fn = self.functions[name]
        args = fn.args
        if (args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults
                or not args.args):
            raise self.fail(fn, f"function {name!r} must take the driver and plain arguments")
        for a in args.args:
            if a.annotation is not None:
                raise self.fail(a, "argument annotations are not read")
        names = [a.arg for a in args.args]
        scope = Scope(names[0], frozenset(names[1:]))
        self.active.append(name)
        try:
            ops = self.block(fn.body, scope)
        finally:
            self.active.pop()
        for var, chain in scope.pending.items():
            if chain:
                raise self.fail(fn, f"action chain {var!r} in {name!r} is never performed")
        self.done[name] = ops
        return ops

    def block(self, body: Sequence[ast.stmt], scope: Scope, *, loop: bool = False
              ) -> list[Op]:
        ops: list[Op] = []
        for stmt in body:
            ops += self.statement(stmt, scope, loop)
        return ops

    def statement(self, stmt: ast.stmt, scope: Scope, loop: bool) -> list[Op]:
        if isinstance(stmt, ast.Pass):
            return []
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str):
            return []  # a docstring or a bare string
        if isinstance(stmt, ast.Break) and loop:
            return [{"op": "break"}]
        if isinstance(stmt, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                raise self.fail(stmt, "only `name = ...` assignments are read")
            return self.assign(stmt.targets[0].id, stmt.value, scope)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            return self.call(stmt.value, scope)
        if isinstance(stmt, ast.For):
            return self.loop(stmt, scope)
        if isinstance(stmt, ast.If) and loop:
            return self.if_text(stmt, scope)
        raise self.fail(stmt, f"a {type(stmt).__name__} statement is not a step we replay")

    def assign(self, name: str, value: ast.expr, scope: Scope) -> list[Op]:
        if name == scope.driver or name in scope.params:
            raise self.fail(value, f"{name!r} is an argument and cannot be reassigned")
        if self.is_chain_start(value, scope):
            scope.kinds[name] = "chain"
            scope.pending[name] = []
            return []
        ops: list[Op] = []
        if isinstance(value, ast.Attribute) and value.attr == "text":
            el = self.element(value.value, scope, ops)
            scope.kinds[name] = "text"
            return ops + [{"op": "text", "as": name, "el": el}]
        found = self.find(value, scope, ops, name)
        if found is None:
            raise self.fail(value, f"`{name} = ...`: only found elements, an element's "
                                   "text and action chains are kept in names")
        return ops

    # -- calls ----------------------------------------------------------------------------

    def call(self, node: ast.Call, scope: Scope) -> list[Op]:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id == "sleep":
                return [self.sleep(node)]
            if func.id in self.functions:
                return self.local_call(node, scope)
            raise self.fail(node, f"a call to {func.id!r} is not a step we replay")
        if not isinstance(func, ast.Attribute):
            raise self.fail(node, "this call is not a step we replay")
        if isinstance(func.value, ast.Name) and func.value.id == "time" and func.attr == "sleep":
            return [self.sleep(node)]
        if func.attr == "perform":
            return self.perform(node, scope)
        if func.attr == "until":
            ops: list[Op] = []
            self.find(node, scope, ops, None)
            return ops
        if self.is_driver(func.value, scope):
            return self.driver_call(node, func.attr, scope)
        ops = []
        el = self.element(func.value, scope, ops)
        if node.keywords:
            raise self.fail(node, "keyword arguments are not read")
        if func.attr in ("click", "submit", "clear"):
            if node.args:
                raise self.fail(node, f"{func.attr}() takes no arguments")
            return ops + [{"op": func.attr, "el": el}]
        if func.attr == "send_keys":
            return ops + [{"op": "keys", "el": el, "keys": self.keys(node.args, scope)}]
        raise self.fail(node, f"element method {func.attr!r} is not a step we replay")

    def sleep(self, node: ast.Call) -> Op:
        if len(node.args) != 1 or node.keywords:
            raise self.fail(node, "sleep takes one number")
        seconds = self.literal(node.args[0], (int, float), "a sleep")
        if not 0 <= seconds <= 60:
            raise self.fail(node, "a sleep must be between 0 and 60 seconds")
        return {"op": "wait", "seconds": float(seconds)}

    def local_call(self, node: ast.Call, scope: Scope) -> list[Op]:
        func = node.func
        assert isinstance(func, ast.Name)
        if node.keywords or not node.args or not self.is_driver(node.args[0], scope):
            raise self.fail(node, f"{func.id}(...) must be called with the driver first")
        for a in node.args[1:]:
            if not (isinstance(a, ast.Name) and a.id in scope.params):
                raise self.fail(a, f"{func.id}(...) may pass on only this function's own "
                                   "arguments")
        target = self.functions[func.id]
        if len(target.args.args) != len(node.args):
            raise self.fail(node, f"{func.id}(...) takes {len(target.args.args)} arguments")
        return [{"op": "call", "name": func.id, "ops": self.function(func.id)}]

    def driver_call(self, node: ast.Call, method: str, scope: Scope) -> list[Op]:
        if method == "save_screenshot":
            # The screenshot helpers: a path, maybe an f-string over the arguments. Nothing
            # to replay (the target screenshots are rendered from the reference page).
            for a in node.args:
                self.screenshot_path(a, scope)
            return []
        if method == "execute_script":
            return self.script(node, scope)
        if method in ("find_element", "find_elements"):
            ops: list[Op] = []
            self.find(node, scope, ops, None)
            return ops
        raise self.fail(node, f"driver.{method}(...) is not a step we replay")

    def screenshot_path(self, node: ast.expr, scope: Scope) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                if isinstance(v, ast.Constant):
                    continue
                if isinstance(v, ast.FormattedValue) and v.format_spec is None \
                        and isinstance(v.value, ast.Name) and v.value.id in scope.params:
                    continue
                raise self.fail(node, "a screenshot path may only join literal text and "
                                      "the function's own arguments")
            return
        raise self.fail(node, "a screenshot path must be a literal")

    def script(self, node: ast.Call, scope: Scope) -> list[Op]:
        if not node.args or node.keywords:
            raise self.fail(node, "execute_script takes a literal script")
        text = self.literal(node.args[0], (str,), "a script")
        compact = re.sub(r"\s+", "", text).rstrip(";")
        for pattern, what in SCRIPTS:
            m = pattern.fullmatch(compact)
            if m is None:
                continue
            wants_el = what in ("into_view", "js_click")
            if len(node.args) != (2 if wants_el else 1):
                raise self.fail(node, f"the script {text!r} takes "
                                      f"{'one element' if wants_el else 'no arguments'}")
            if what == "bottom":
                return [{"op": "scroll", "to": "bottom"}]
            if what == "to":
                return [{"op": "scroll", "to": int(m.group(1))}]
            if what == "by":
                return [{"op": "scroll", "by": int(m.group(1))}]
            ops: list[Op] = []
            el = self.element(node.args[1], scope, ops)
            return ops + [{"op": "scroll_into_view" if what == "into_view" else "js_click",
                           "el": el}]
        raise self.fail(node, f"the script {text!r} is not one we replay (scrolling, "
                              "scrollIntoView, click)")

    def perform(self, node: ast.Call, scope: Scope) -> list[Op]:
        """``<chain>.a(...).b(...).perform()``: the chain's calls in order."""
        if node.args or node.keywords:
            raise self.fail(node, "perform() takes no arguments")
        calls: list[ast.Call] = []
        cur = node.func.value  # type: ignore[attr-defined]
        while isinstance(cur, ast.Call) and isinstance(cur.func, ast.Attribute) \
                and not self.is_chain_start(cur, scope):
            calls.append(cur)
            cur = cur.func.value
        ops: list[Op] = []
        if self.is_chain_start(cur, scope):
            pending: list[Op] = []
        elif isinstance(cur, ast.Name) and scope.kinds.get(cur.id) == "chain":
            pending = scope.pending[cur.id]
            scope.pending[cur.id] = []
        else:
            raise self.fail(node, "perform() belongs to an ActionChains(driver)")
        chain = list(pending)
        for c in reversed(calls):
            chain += self.chain_call(c, scope, ops)
        return ops + chain

    def chain_call(self, node: ast.Call, scope: Scope, ops: list[Op]) -> list[Op]:
        func = node.func
        assert isinstance(func, ast.Attribute)
        name, args = func.attr, node.args
        if node.keywords:
            raise self.fail(node, "keyword arguments are not read")

        def el(i: int) -> str:
            return self.element(args[i], scope, ops)

        def num(i: int) -> float:
            return float(self.literal(args[i], (int, float), "an offset"))

        if name == "move_to_element" and len(args) == 1:
            return [{"op": "hover", "el": el(0)}]
        if name == "move_to_element_with_offset" and len(args) == 3:
            return [{"op": "hover", "el": el(0), "dx": num(1), "dy": num(2)}]
        if name == "move_by_offset" and len(args) == 2:
            return [{"op": "move_by", "dx": num(0), "dy": num(1)}]
        if name in _CHAIN_TAKES_EL and len(args) <= 1:
            target = el(0) if args else None
            if name == "click_and_hold":
                return ([{"op": "hover", "el": target}] if target else []) + \
                    [{"op": "mouse_down"}]
            if name == "release":
                return ([{"op": "hover", "el": target}] if target else []) + \
                    [{"op": "mouse_up"}]
            return [{"op": name, "el": target}]
        if name == "drag_and_drop" and len(args) == 2:
            return [{"op": "drag", "el": el(0), "to": el(1)}]
        if name == "drag_and_drop_by_offset" and len(args) == 3:
            return [{"op": "drag", "el": el(0), "dx": num(1), "dy": num(2)}]
        if name == "send_keys":
            return [{"op": "keys", "el": None, "keys": self.keys(args, scope)}]
        if name == "send_keys_to_element" and args:
            return [{"op": "keys", "el": el(0), "keys": self.keys(args[1:], scope)}]
        if name in ("key_down", "key_up") and 1 <= len(args) <= 2:
            parts = self.key_parts(args[0], scope)
            if len(parts) != 1 or "key" not in parts[0] and "text" not in parts[0]:
                raise self.fail(node, f"{name} takes one key")
            key = parts[0].get("key") or parts[0]["text"]
            pre = [{"op": "click", "el": el(1)}] if len(args) == 2 else []
            return pre + [{"op": name, "key": key}]
        if name == "pause" and len(args) == 1:
            return [{"op": "wait", "seconds": num(0)}]
        if name == "scroll_to_element" and len(args) == 1:
            return [{"op": "scroll_into_view", "el": el(0)}]
        raise self.fail(node, f"ActionChains.{name}(...) is not a step we replay")

    def loop(self, stmt: ast.For, scope: Scope) -> list[Op]:
        if stmt.orelse or not isinstance(stmt.target, ast.Name):
            raise self.fail(stmt, "only `for name in found_elements:` loops are read")
        ops: list[Op] = []
        if isinstance(stmt.iter, ast.Name) and scope.kinds.get(stmt.iter.id) == "many":
            many = stmt.iter.id
        else:
            found = self.find(stmt.iter, scope, ops, None)
            if found is None or scope.kinds.get(found) != "many":
                raise self.fail(stmt.iter, "a loop must run over found elements")
            many = found
        scope.kinds[stmt.target.id] = "item"
        body = self.block(stmt.body, scope, loop=True)
        return ops + [{"op": "each", "el": many, "as": stmt.target.id, "ops": body}]

    def if_text(self, stmt: ast.If, scope: Scope) -> list[Op]:
        test = stmt.test
        if stmt.orelse or not (isinstance(test, ast.Compare) and len(test.ops) == 1
                               and isinstance(test.ops[0], ast.Eq)
                               and isinstance(test.left, ast.Attribute)
                               and test.left.attr == "text"):
            raise self.fail(stmt, "inside a loop only `if element.text == 'literal':` is read")
        el = self.element(test.left.value, scope, [])
        equals = self.literal(test.comparators[0], (str,), "a compared text")
        return [{"op": "if_text", "el": el, "equals": equals,
                 "ops": self.block(stmt.body, scope, loop=True)}]


def _module(tree: ast.Module, source: str) -> tuple[dict[str, ast.FunctionDef], list[str]]:
    """The file's functions and the names its ``actions`` list gives, after checking every
    module-level statement is an import of Selenium or ``time``, a function, a docstring or
    the ``actions`` list."""
    functions: dict[str, ast.FunctionDef] = {}
    listed: list[str] | None = None
    for stmt in tree.body:
        line = stmt.lineno
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name.split(".")[0] not in _IMPORTS:
                    raise ActionsError(f"import of {alias.name!r}: only Selenium and time are "
                                       "read", source=source, line=line)
        elif isinstance(stmt, ast.ImportFrom):
            if stmt.level or (stmt.module or "").split(".")[0] not in _IMPORTS:
                raise ActionsError(f"import from {stmt.module!r}: only Selenium and time are "
                                   "read", source=source, line=line)
        elif isinstance(stmt, ast.FunctionDef):
            if stmt.decorator_list or stmt.returns is not None:
                raise ActionsError(f"function {stmt.name!r}: decorators and annotations are "
                                   "not read", source=source, line=line)
            if stmt.name in functions:
                raise ActionsError(f"function {stmt.name!r} is defined twice", source=source,
                                   line=line)
            functions[stmt.name] = stmt
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str):
            continue
        elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
              and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == "actions"):
            if listed is not None:
                raise ActionsError("`actions` is assigned twice", source=source, line=line)
            if not isinstance(stmt.value, ast.List | ast.Tuple) or not all(
                    isinstance(e, ast.Name) for e in stmt.value.elts):
                raise ActionsError("`actions` must be a list of function names",
                                   source=source, line=line)
            listed = [e.id for e in stmt.value.elts]  # type: ignore[attr-defined]
        else:
            raise ActionsError(f"a module-level {type(stmt).__name__} is not read (only "
                               "imports, functions and the `actions` list)", source=source,
                               line=line)
    if listed is None:
        raise ActionsError("no module-level `actions` list", source=source)
    for name in listed:
        if name not in functions:
            raise ActionsError(f"`actions` names {name!r}, which the file does not define",
                               source=source)
    return functions, listed


def read_actions(text: str, source: str = "actions.py") -> list[Step]:
    """The scored steps of an ``actions.py`` (see the module docstring); raises
    :class:`ActionsError` naming ``source`` and the line for anything outside the grammar."""
    try:
        tree = ast.parse(text, filename=source)
    except SyntaxError as err:
        raise ActionsError(f"not Python ({err.msg})", source=source, line=err.lineno) from None
    except ValueError as err:  # NUL bytes
        raise ActionsError(f"not Python ({err})", source=source) from None
    functions, listed = _module(tree, source)
    reader = _Reader(source, functions)
    for name in functions:  # every function is checked, scored or not
        reader.function(name)
    return [Step(name, tuple(reader.function(name))) for name in listed]


__all__ = ["BY", "KEYS", "ActionsError", "Op", "Step", "read_actions"]
