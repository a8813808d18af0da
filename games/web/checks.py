"""Checking a VWA task before it is played: every problem names the task and the field.

Fatal problems (missing fields, an unknown evaluator, a VWA helper function PlayBench does not
implement, a site with no address) make the task unusable; warnings (a judge model needed but
not set up, a site PlayBench cannot reset, a field PlayBench ignores) do not.
Field names and evaluator shapes: docs/reference/web.md.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from playbench.evaluators.web import (
    DEFAULT_URL_NOTE,
    PAGE_CHECKS,
    STRING_CHECKS,
    URL_NOTES,
    satisfies,
)
from playbench.games.web import expr
from playbench.games.web.helpers import HELPERS, arity
from playbench.games.web.task_model import shape_problems
from playbench.games.web.tasks import (
    EVAL_TYPES,
    KNOWN_FIELDS,
    OR,
    PLAYBENCH_FIELD,
    REQUIRED,
    TaskProblem,
    WebTask,
    login_sites,
)


class Report(Protocol):
    """Records one problem of the task being checked."""

    def __call__(self, field: str, message: str, fatal: bool = True) -> None: ...


def check_config(task: WebTask, sites: Mapping[str, str | None],
                 judge: bool = False, logins: Collection[str] = (),
                 admins: Collection[str] = ()) -> list[TaskProblem]:
    """All problems of ``task``. ``sites`` maps placeholder names to addresses (None: the
    bundled site); ``judge`` says whether a judge model is configured; ``logins`` names the
    sites the web settings have a login recipe for (a missing storage state file is then
    written by logging in, not a problem); ``admins`` the sites they have an admin account
    for (VWA's REST helpers read the shopping site as its admin)."""
    cfg = task.config
    tid = cfg.get("task_id", "?")
    out: list[TaskProblem] = []
    shape = shape_problems(cfg)

    def bad(field: str, message: str, fatal: bool = True) -> None:
        out.append(TaskProblem(tid, field, message, fatal))

    def bad_shape(*fields: str) -> bool:
        """Report the type problems of ``fields``; whether there were any."""
        found = [f for f in fields if f in shape]
        for field in found:
            bad(field, shape[field])
        return bool(found)

    for name in REQUIRED:
        if name not in cfg or cfg[name] in (None, ""):
            bad(name, "missing field")
    if "task_id" in cfg:
        bad_shape("task_id")
    for name in sorted(set(cfg) - set(KNOWN_FIELDS) - {PLAYBENCH_FIELD}):
        bad(name, "not a VWA task field; ignored", fatal=False)
    for name in task.placeholders():
        if name not in sites:
            bad("sites", f"no address for __{name}__; map it to the site's URL in the web "
                         "settings")
    bad_shape("geolocation")
    _check_login(task, sites, bad, logins)
    bad_shape("viewport_size")
    if not bad_shape("image"):
        _check_images(task, bad)
    ev = cfg.get("eval")
    if not bad_shape("eval") and isinstance(ev, dict):
        _check_eval(task, ev, judge, bad, admins)
    bad_shape(PLAYBENCH_FIELD, *(f"{PLAYBENCH_FIELD}.{k}" for k in ("reference", "wrong",
                                                                     "viewport")))
    return out


def _local(task: WebTask, ref: str) -> Path | None:
    """The file a relative or absolute path names, or None for URLs."""
    if "://" in ref or ref.startswith("data:") or ref.startswith("__"):
        return None
    p = Path(ref)
    return p if p.is_absolute() else Path(task.base_dir) / p


def _bundled(task: WebTask, sites: Mapping[str, str | None]) -> bool:
    names = task.placeholders()
    return bool(names) and all(sites.get(n, "") is None for n in names)


def _check_login(task: WebTask, sites: Mapping[str, str | None], bad: Report,
                 logins: Collection[str] = ()) -> None:
    cfg = task.config
    state = cfg.get("storage_state")
    if cfg.get("require_login") or state:
        if _bundled(task, sites):
            return  # PlayBench logs in to its own site itself
        if not state:
            bad("require_login", "no storage_state file to log in with")
        else:
            path = _local(task, str(state))
            if path is not None and not path.exists():
                needed = login_sites(task)
                if needed and all(n in logins for n in needed):
                    bad("storage_state", f"file {path} not found; it will be written by "
                                         "logging in with the web settings' login recipes",
                        fatal=False)
                else:
                    bad("storage_state", f"file {path} not found (write it with `playbench "
                                         "web login`, which needs a login recipe per site in "
                                         "the web settings, or with VWA's login script)")
    if cfg.get("require_reset") and not _bundled(task, sites):
        bad("require_reset", "PlayBench cannot reset this site; reset it before the run",
            fatal=False)


def _check_images(task: WebTask, bad: Report) -> None:
    for ref in task.images:
        path = _local(task, ref)
        if path is None:
            continue
        if not path.exists():
            bad("image", f"file {path} not found")
        elif not _is_image(path):
            bad("image", f"file {path} is not an image PlayBench can read (PNG, JPEG, GIF, "
                         "WebP or BMP)")


def _is_image(path: Path) -> bool:
    """Whether ``path`` is a picture the model can be sent (Pillow reads and verifies it)."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(path) as img:
            img.verify()
    except (OSError, UnidentifiedImageError, SyntaxError, ValueError):
        return False
    return True


def foreign_classifieds(tasks: Sequence[WebTask], sites: Mapping[str, str | None]) -> str | None:
    """A warning for a task file whose classifieds tasks will run on PlayBench's own offline
    site because ``__CLASSIFIEDS__`` has no address: VWA's own classifieds tasks (no PlayBench
    block: written for VWA's site) refer to VWA's site content - its 65,955 listings, their ids
    and its users (docs/reference/web.md) - which the bundled site does not have, so they cannot
    be solved there. None when there is nothing to warn about."""
    if sites.get("CLASSIFIEDS", "") is not None:
        return None
    foreign = [t.config.get("task_id", "?") for t in tasks
               if "CLASSIFIEDS" in t.placeholders() and PLAYBENCH_FIELD not in t.config]
    if not foreign:
        return None
    return (f"__CLASSIFIEDS__ has no address, so {len(foreign)} task(s) without a PlayBench "
            "block would run on PlayBench's own offline classifieds site; VWA's own "
            "classifieds tasks target VWA's site content (its listings, ids and users), not "
            "the bundled site, and cannot be solved there. Map CLASSIFIEDS to your VWA "
            "classifieds site (--site CLASSIFIEDS=URL or \"sites\" in web.json).")


def check_all(tasks: Sequence[WebTask], sites: Mapping[str, str | None],
              judge: bool = False, logins: Collection[str] = (),
              admins: Collection[str] = ()) -> list[list[TaskProblem]]:
    """:func:`check_config` of every task of one file, plus what only the file as a whole
    shows: a task id used by more than one task (the id names the task in results, ranges
    and studies, so only one of them could ever be chosen)."""
    out = [check_config(t, sites, judge, logins, admins) for t in tasks]
    ids = [t.config.get("task_id") for t in tasks]
    for problems, tid in zip(out, ids, strict=True):
        if isinstance(tid, int) and not isinstance(tid, bool) and ids.count(tid) > 1:
            problems.append(TaskProblem(tid, "task_id", f"{tid} is used by {ids.count(tid)} tasks "
                                                    "of this file; give each its own id"))
    return out


def _check_eval(task: WebTask, ev: Mapping[str, Any], judge: bool, bad: Report,
                admins: Collection[str] = ()) -> None:
    types = ev.get("eval_types")
    if not isinstance(types, list) or not types:
        bad("eval.eval_types", "missing or empty (known: " + ", ".join(EVAL_TYPES) + ")")
        return
    for i, kind in enumerate(types):
        if kind not in EVAL_TYPES:
            bad(f"eval.eval_types[{i}]", f"unknown evaluator {kind!r} (known: "
                                         f"{', '.join(EVAL_TYPES)})")
    if "string_match" in types:
        _check_strings(ev.get("reference_answers"), "eval.reference_answers", judge, bad)
    if "url_match" in types:
        if not isinstance(ev.get("reference_url"), str) or not ev["reference_url"].strip():
            bad("eval.reference_url", "missing (url_match needs it)")
        note = ev.get("url_note") or DEFAULT_URL_NOTE
        if note not in URL_NOTES:
            bad("eval.url_note", f"unknown rule {note!r} (known: {', '.join(URL_NOTES)})")
    if "program_html" in types:
        _check_program(ev.get("program_html"), judge, bad, admins)
    if "page_image_query" in types:
        _check_images_query(task, ev.get("page_image_query"), judge, bad, admins)


def _check_strings(ref: Any, where: str, judge: bool, bad: Report,
                   page: bool = False) -> None:
    """One ``reference_answers`` object, or with ``page`` a ``program_html`` item's
    ``required_contents`` (where VWA runs only the first check present and wants
    ``fuzzy_match`` as one string; a list is read too). Shapes: VWA's evaluators.py."""
    known = PAGE_CHECKS if page else STRING_CHECKS
    if not isinstance(ref, dict) or not ref:
        bad(where, f"missing (needs one of {', '.join(known)})")
        return
    present = [k for k in PAGE_CHECKS if k in ref]
    if page and len(present) > 1:
        bad(where, f"VWA checks only the first of {', '.join(present)} (in the order "
                   f"{', '.join(PAGE_CHECKS)}); the others are ignored", fatal=False)
    for key, value in ref.items():
        if key not in known:
            bad(f"{where}.{key}", f"unknown check (known: {', '.join(known)})")
        elif key in ("must_include", "must_exclude", "one_of", "required_values") and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)):
            bad(f"{where}.{key}", "must be a list of strings")
        elif key == "required_values":
            for i, cond in enumerate(value):
                for alt in cond.split(OR):
                    try:
                        satisfies(0, alt)
                    except ValueError:
                        bad(f"{where}.{key}[{i}]", f"{alt!r} is not a condition such as "
                                                   "\"< 700\" or \">= 3\"")
        elif key == "exact_match" and not isinstance(value, str):
            bad(f"{where}.{key}", "must be a string")
        elif key == "fuzzy_match":
            strings = isinstance(value, list) and all(isinstance(v, str) for v in value)
            if page and not (isinstance(value, str) and value.strip() or strings):
                bad(f"{where}.{key}", "must be a string (alternatives joined by |OR|)")
            elif not page and not (value == "N/A" or strings):
                bad(f"{where}.{key}", 'must be a list of strings or "N/A"')
            elif value != "N/A" and not judge:
                bad(f"{where}.{key}", "needs a judge model; this part will not be scored",
                    fatal=False)


def _objects(items: Any, field: str, empty: str,
             bad: Report) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of the list ``items`` (task field ``field``) with their places, each
    non-object and an empty or missing list reported."""
    if not isinstance(items, list) or not items:
        bad(field, empty)
        return
    for i, item in enumerate(items):
        where = f"{field}[{i}]"
        if isinstance(item, dict):
            yield where, item
        else:
            bad(where, "must be an object")


def _check_page_url(url: Any, where: str, bad: Report, admins: Collection[str]) -> None:
    """A page address a check opens: required; a ``func:`` call must be one PlayBench reads."""
    if not isinstance(url, str) or not url:
        bad(where, "missing")
    elif url.startswith("func"):
        _check_func(url.split("func:", 1)[-1], where, bad, admins)


def _check_func(text: str, where: str, bad: Report, admins: Collection[str]) -> None:
    """A ``func:`` text: within the grammar of :mod:`playbench.games.web.expr`, calling VWA
    helpers PlayBench implements with as many arguments as they take; a REST helper needs the
    site's admin account."""
    try:
        tree = expr.parse(text, HELPERS)
    except expr.ExpressionError as err:
        bad(where, f"VWA helper call {text[:80]!r} is refused: {err} (PlayBench reads helper "
                   f"calls with text and number arguments, __page__, [key] and +)")
        return
    for node in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        want = arity(name)
        if len(node.args) != want:
            bad(where, f"{name} takes {want} argument(s), the task gives {len(node.args)}")
        site = HELPERS[name].admin
        if site and site not in admins:
            bad(where, f"{name} reads the {site.lower()} site's REST API as its admin: set "
                       f"admin_accounts.{site} in the web settings")


def _check_program(items: Any, judge: bool, bad: Report, admins: Collection[str] = ()) -> None:
    for where, item in _objects(items, "eval.program_html",
                                "missing or empty (program_html needs checks)", bad):
        _check_page_url(item.get("url"), f"{where}.url", bad, admins)
        loc = item.get("locator", "")
        if not isinstance(loc, str):
            bad(f"{where}.locator", "must be a string")
        elif loc.strip().startswith("func:"):
            _check_func(loc.strip()[len("func:"):], f"{where}.locator", bad, admins)
        elif loc.startswith("lambda:") and not expr.lambda_script(loc).strip():
            bad(f"{where}.locator", "a lambda: locator needs a script (VWA runs it in the page)")
        prep = item.get("prep_actions", [])
        if not isinstance(prep, list) or not all(isinstance(p, str) for p in prep):
            bad(f"{where}.prep_actions", "must be a list of JavaScript snippets")
        _check_strings(item.get("required_contents"), f"{where}.required_contents", judge, bad,
                       page=True)


def _check_images_query(task: WebTask, items: Any, judge: bool, bad: Report,
                        admins: Collection[str] = ()) -> None:
    for where, item in _objects(items, "eval.page_image_query", "missing or empty", bad):
        _check_page_url(item.get("eval_image_url"), f"{where}.eval_image_url", bad, admins)
        if not isinstance(item.get("eval_image_class", ""), str):
            bad(f"{where}.eval_image_class", "must be a CSS selector string")
        vqa, gold = item.get("eval_vqa"), item.get("eval_fuzzy_image_match")
        if vqa is None and gold is None:
            bad(where, "needs eval_vqa or eval_fuzzy_image_match")
        if vqa is not None:
            if not isinstance(vqa, list) or not all(
                    isinstance(q, dict) and isinstance(q.get("question"), str)
                    and isinstance(q.get("answer"), str) for q in vqa):
                bad(f"{where}.eval_vqa", "must be a list of {question, answer} objects")
            elif not judge:
                bad(f"{where}.eval_vqa", "needs a VQA model; this part will not be scored",
                    fatal=False)
        if gold is not None:
            if not isinstance(gold, str) or not gold.strip():
                bad(f"{where}.eval_fuzzy_image_match", "must be image paths or URLs")
            else:
                for ref in gold.split(OR):
                    path = _local(task, ref.strip())
                    if path is not None and not path.exists():
                        bad(f"{where}.eval_fuzzy_image_match", f"file {path} not found")
        threshold = item.get("ssim_threshold", 0.8)
        if not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
            bad(f"{where}.ssim_threshold", "must be a number from 0 to 1")
