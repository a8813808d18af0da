"""VWA's ``func:`` expressions, read with :mod:`ast` and evaluated without ``eval``.

VWA's evaluators (``evaluation_harness/evaluators.py``) run the text after ``func:`` of a
``program_html`` item's ``url`` or ``locator`` (and of a ``page_image_query`` item's
``eval_image_url``) through Python's ``eval``, after replacing ``__last_url__`` with the final
page's address and ``__page__`` with the page. Its task files use that for calls of its helper
functions: ``shopping_get_latest_order_url()``,
``reddit_get_post_url('__last_url__')``, ``shopping_get_sku_latest_review_rating("B09QYJJNW2")``,
``reddit_get_latest_comment_content_by_username(__page__, 'MarvelsGrantMan136')``.

PlayBench reads such a text as an expression tree and admits exactly this grammar:

- a call of a helper PlayBench knows, by its plain name, with positional arguments only;
- string and number literals (``True``/``False``/``None`` too), and the name ``__page__``;
- ``x[k]`` with a literal key (a field of a helper's result, such as ``['content']``);
- ``a + b`` (joining texts, adding numbers) and a leading minus on a number.

Anything else - attribute access, other names, keyword arguments, comprehensions, lambdas,
operators other than ``+`` - is refused when the task is checked, with the reason, and is never
run. Evaluation goes through the tree: literals are taken as written, ``__page__`` is the page
being evaluated, and each call is handed to the caller's ``call`` function with its evaluated
arguments (see :mod:`playbench.games.web.helpers`).
"""

from __future__ import annotations

import ast
from collections.abc import Awaitable, Callable, Collection
from typing import Any

PAGE_NAME = "__page__"
LAST_URL = "__last_url__"
MAX_TEXT = 4000
"""Longest ``func:`` text read (VWA's are under 200 characters)."""

Call = Callable[[str, list[Any]], Awaitable[Any]]
"""``call(name, args)``: runs one helper on already evaluated arguments."""


class ExpressionError(ValueError):
    """A ``func:`` text outside the grammar, or one that fails while evaluated (a missing
    key, ``+`` on values Python could not add)."""


def parse(text: str, helpers: Collection[str]) -> ast.expr:
    """The expression tree of ``text`` (without its ``func:`` prefix), checked against the
    grammar above with ``helpers`` as the callable names; raises ExpressionError naming the
    first thing refused."""
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"longer than {MAX_TEXT} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as err:
        raise ExpressionError(f"not an expression ({err.msg})") from None
    except (ValueError, RecursionError, MemoryError):
        raise ExpressionError("not an expression PlayBench can read") from None
    _check(tree.body, helpers)
    return tree.body


def calls(tree: ast.expr) -> list[str]:
    """The helper names a checked tree calls, outermost first."""
    return [n.func.id for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]


def _check(node: ast.expr, helpers: Collection[str]) -> None:
    if isinstance(node, ast.Constant):
        if node.value is None or isinstance(node.value, (str, int, float, bool)):
            return
        raise ExpressionError(f"literal {node.value!r} is not a text or number")
    if isinstance(node, ast.Name):
        if node.id == PAGE_NAME:
            return
        if node.id in helpers:
            raise ExpressionError(f"{node.id} is a helper and must be called")
        raise ExpressionError(f"unknown name {node.id!r} (only {PAGE_NAME} may stand alone)")
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExpressionError("only helpers may be called, by their plain name")
        if node.func.id not in helpers:
            raise ExpressionError(f"unknown helper {node.func.id!r}")
        if node.keywords:
            raise ExpressionError(f"{node.func.id}: keyword arguments are not read")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise ExpressionError(f"{node.func.id}: *arguments are not read")
            _check(arg, helpers)
        return
    if isinstance(node, ast.Subscript):
        key = node.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, (str, int))
                and not isinstance(key.value, bool)):
            raise ExpressionError("a subscript must be one text or whole-number literal")
        _check(node.value, helpers)
        return
    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ast.Add):
            raise ExpressionError(f"operator {type(node.op).__name__} is not read (only +)")
        _check(node.left, helpers)
        _check(node.right, helpers)
        return
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and \
                isinstance(node.operand.value, (int, float)) and \
                not isinstance(node.operand.value, bool):
            return
        raise ExpressionError("only a minus sign before a number is read")
    raise ExpressionError(f"{type(node).__name__} is not read")


async def evaluate(tree: ast.expr, call: Call, page: Any = None, last_url: str = "") -> Any:
    """The value of a checked tree: ``__page__`` is ``page``, ``__last_url__`` inside a text
    literal is replaced by ``last_url`` (as VWA replaces it in the text before evaluating),
    and calls go to ``call``."""
    if isinstance(tree, ast.Constant):
        value = tree.value
        return value.replace(LAST_URL, last_url) if isinstance(value, str) else value
    if isinstance(tree, ast.Name):
        if tree.id != PAGE_NAME:
            raise ExpressionError(f"unknown name {tree.id!r}")
        return page
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name):
        args = [await evaluate(a, call, page, last_url) for a in tree.args]
        return await call(tree.func.id, args)
    if isinstance(tree, ast.Subscript) and isinstance(tree.slice, ast.Constant):
        value = await evaluate(tree.value, call, page, last_url)
        try:
            return value[tree.slice.value]
        except (KeyError, IndexError, TypeError) as err:
            raise ExpressionError(f"[{tree.slice.value!r}] of {_short(value)}: "
                                  f"{type(err).__name__}") from None
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Add):
        left = await evaluate(tree.left, call, page, last_url)
        right = await evaluate(tree.right, call, page, last_url)
        try:
            return left + right
        except TypeError:
            raise ExpressionError(f"cannot add {_short(left)} and {_short(right)}") from None
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub) and \
            isinstance(tree.operand, ast.Constant) and \
            isinstance(tree.operand.value, (int, float)):
        return -tree.operand.value
    raise ExpressionError(f"{type(tree).__name__} is not read")


def lambda_script(locator: str) -> str:
    """The script of a ``lambda:`` locator as VWA runs it (in the page, as JavaScript): VWA
    takes ``locator.lstrip("lambda:")``, which strips every leading character among
    ``l a m b d :``, so a script that starts with one of them loses it, as in VWA."""
    start = 0
    while start < len(locator) and locator[start] in "lambd:":
        start += 1
    return locator[start:]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["ExpressionError", "parse", "evaluate", "calls", "lambda_script", "PAGE_NAME",
           "LAST_URL"]
