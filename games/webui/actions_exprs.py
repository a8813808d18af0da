"""The expressions of MageBench's ``actions.py`` that :mod:`playbench.games.webui.actions_file`
reads: literals, locators, found elements, waits and typed keys (``actions_file`` holds the
statements, calls and action chains, and says what the grammar is for)."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.games.base import LevelError

Op = dict[str, Any]

BY: Mapping[str, str] = {
    "ID": "id", "CLASS_NAME": "class", "TAG_NAME": "tag", "NAME": "name",
    "CSS_SELECTOR": "css", "XPATH": "xpath", "LINK_TEXT": "link",
    "PARTIAL_LINK_TEXT": "partial_link",
}
"""Selenium's ``By`` locator kinds and our names for them."""

KEYS: Mapping[str, str] = {
    "ENTER": "Enter", "RETURN": "Enter", "TAB": "Tab", "ESCAPE": "Escape", "SPACE": " ",
    "BACKSPACE": "Backspace", "BACK_SPACE": "Backspace", "DELETE": "Delete",
    "ARROW_UP": "ArrowUp", "ARROW_DOWN": "ArrowDown", "ARROW_LEFT": "ArrowLeft",
    "ARROW_RIGHT": "ArrowRight", "UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft",
    "RIGHT": "ArrowRight", "HOME": "Home", "END": "End", "PAGE_UP": "PageUp",
    "PAGE_DOWN": "PageDown", "SHIFT": "Shift", "CONTROL": "Control", "ALT": "Alt",
    "COMMAND": "Meta", "META": "Meta", "INSERT": "Insert",
    **{f"F{i}": f"F{i}" for i in range(1, 13)},
}
"""Selenium's ``Keys`` names and the key names the browser takes."""

WAIT_CONDITIONS = frozenset({
    "presence_of_element_located", "visibility_of_element_located",
    "element_to_be_clickable", "presence_of_all_elements_located",
    "visibility_of_all_elements_located",
})
"""``expected_conditions`` a ``WebDriverWait(...).until(...)`` may wait for (an element)."""

class ActionsError(LevelError):
    """An ``actions.py`` outside the grammar (the message names file and line)."""


@dataclass
class Scope:
    """What a function's names are while it is read: the driver, elements, element lists,
    texts and action chains (with the chain calls not yet performed)."""

    driver: str
    params: frozenset[str]
    kinds: dict[str, str] = field(default_factory=dict)
    pending: dict[str, list[Op]] = field(default_factory=dict)
    temp: int = 0

    def fresh(self) -> str:
        self.temp += 1
        return f"_{self.temp}"


class ExprReader:
    """Reads the expressions of one file's functions; the statements are
    :class:`playbench.games.webui.actions_file._Reader`'s."""

    def __init__(self, source: str, functions: Mapping[str, ast.FunctionDef]) -> None:
        self.source = source
        self.functions = functions
        self.done: dict[str, list[Op]] = {}
        self.active: list[str] = []

    def fail(self, node: ast.AST | None, why: str) -> ActionsError:
        line = getattr(node, "lineno", None)
        return ActionsError(why, source=self.source, line=line)

    # -- expressions ----------------------------------------------------------------------
    def is_driver(self, node: ast.expr, scope: Scope) -> bool:
        return isinstance(node, ast.Name) and node.id == scope.driver

    def is_chain_start(self, node: ast.expr, scope: Scope) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "ActionChains" and len(node.args) == 1
                and not node.keywords and self.is_driver(node.args[0], scope))

    def literal(self, node: ast.expr, kinds: tuple[type, ...], what: str) -> Any:
        """A literal of one of ``kinds`` (a negative number counts), else refused."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and isinstance(node.operand, ast.Constant) \
                and type(node.operand.value) in (int, float):
            number: Any = node.operand.value
            value: Any = -number
        elif isinstance(node, ast.Constant):
            value = node.value
        elif isinstance(node, ast.JoinedStr):
            value = self.plain_fstring(node)
        else:
            raise self.fail(node, f"{what} must be a literal")
        if type(value) not in kinds:
            raise self.fail(node, f"{what} must be a literal "
                                  f"{' or '.join(k.__name__ for k in kinds)}")
        return value

    def plain_fstring(self, node: ast.JoinedStr) -> str:
        parts = []
        for v in node.values:
            if not (isinstance(v, ast.Constant) and isinstance(v.value, str)):
                raise self.fail(node, "an f-string with expressions is not a literal")
            parts.append(v.value)
        return "".join(parts)

    def locator(self, args: Sequence[ast.expr], node: ast.AST) -> tuple[str, str]:
        if len(args) != 2:
            raise self.fail(node, "a locator is (By.KIND, 'value')")
        kind = args[0]
        if not (isinstance(kind, ast.Attribute) and isinstance(kind.value, ast.Name)
                and kind.value.id == "By" and kind.attr in BY):
            raise self.fail(kind, f"a locator kind must be one of By.{', By.'.join(BY)}")
        return BY[kind.attr], self.literal(args[1], (str,), "a locator value")

    def find(self, node: ast.expr, scope: Scope, ops: list[Op], name: str | None
             ) -> str | None:
        """Emit the ops that find what ``node`` finds and return the name it is kept under
        (None if ``node`` finds nothing)."""
        index: int | None = None
        if isinstance(node, ast.Subscript):
            index = self.literal(node.slice, (int,), "an element index")
            node = node.value
            if not self.is_find_call(node, "find_elements"):
                raise self.fail(node, "only a found element list may be indexed")
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if self.is_wait(node, scope):
            cond = node.args[0]
            assert isinstance(cond, ast.Call) and isinstance(cond.func, ast.Attribute)
            by, value = self.locator(self.tuple_items(cond.args[0]), cond)
            seconds = self.literal(func.value.args[1], (int, float), "a wait")  # type: ignore
            many = "all_elements" in cond.func.attr
            var = name or scope.fresh()
            ops.append({"op": "find", "as": var, "by": by, "value": value, "within": None,
                        "index": None, "many": many, "wait": float(seconds)})
            scope.kinds[var] = "many" if many else "one"
            return var
        if not (isinstance(func, ast.Attribute)
                and func.attr in ("find_element", "find_elements")):
            return None
        if node.keywords:
            raise self.fail(node, "keyword arguments are not read")
        within = None if self.is_driver(func.value, scope) else self.element(func.value,
                                                                              scope, ops)
        by, value = self.locator(node.args, node)
        many = func.attr == "find_elements" and index is None
        var = name or scope.fresh()
        ops.append({"op": "find", "as": var, "by": by, "value": value, "within": within,
                    "index": index, "many": many, "wait": 0.0})
        scope.kinds[var] = "many" if many else "one"
        return var

    def is_find_call(self, node: ast.expr, method: str) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == method)

    def tuple_items(self, node: ast.expr) -> list[ast.expr]:
        if not isinstance(node, ast.Tuple):
            raise self.fail(node, "a wait's locator is a (By.KIND, 'value') tuple")
        return list(node.elts)

    def is_wait(self, node: ast.Call, scope: Scope) -> bool:
        """``WebDriverWait(driver, N).until(EC.<condition>((By.KIND, 'value')))``."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "until"
                and isinstance(func.value, ast.Call)):
            return False
        waiter = func.value
        if not (isinstance(waiter.func, ast.Name) and waiter.func.id == "WebDriverWait"
                and len(waiter.args) == 2 and not waiter.keywords
                and self.is_driver(waiter.args[0], scope)):
            raise self.fail(node, "only WebDriverWait(driver, seconds).until(...) waits")
        if len(node.args) != 1 or node.keywords:
            raise self.fail(node, "until(...) takes one condition")
        cond = node.args[0]
        if not (isinstance(cond, ast.Call) and isinstance(cond.func, ast.Attribute)
                and isinstance(cond.func.value, ast.Name) and cond.func.value.id == "EC"
                and cond.func.attr in WAIT_CONDITIONS and len(cond.args) == 1):
            raise self.fail(cond, "a wait condition must be one of EC."
                            + ", EC.".join(sorted(WAIT_CONDITIONS)))
        return True

    def element(self, node: ast.expr, scope: Scope, ops: list[Op]) -> str:
        """The name of the element ``node`` is (found inline if need be)."""
        if isinstance(node, ast.Name):
            if scope.kinds.get(node.id) in ("one", "item"):
                return node.id
            raise self.fail(node, f"{node.id!r} is not a found element")
        var = self.find(node, scope, ops, None)
        if var is None or scope.kinds.get(var) != "one":
            raise self.fail(node, "an element must be found with find_element(...) or "
                                  "find_elements(...)[i]")
        return var

    def keys(self, args: Sequence[ast.expr], scope: Scope) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for a in args:
            out += self.key_parts(a, scope)
        return out

    def key_parts(self, node: ast.expr, scope: Scope) -> list[dict[str, str]]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.key_parts(node.left, scope) + self.key_parts(node.right, scope)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "Keys":
            if node.attr not in KEYS:
                raise self.fail(node, f"unknown key Keys.{node.attr}")
            return [{"key": KEYS[node.attr]}]
        if isinstance(node, ast.Name):
            if scope.kinds.get(node.id) != "text":
                raise self.fail(node, f"{node.id!r} is not a text read from the page")
            return [{"var": node.id}]
        return [{"text": self.literal(node, (str,), "typed text")}]


__all__ = ["BY", "KEYS", "WAIT_CONDITIONS", "ActionsError", "ExprReader", "Op", "Scope"]
