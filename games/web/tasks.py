"""VisualWebArena task files, read as published, and their check.

A file holds one task object or a list of them, with VWA's fields (docs/reference/web.md):
``sites, task_id, require_login, storage_state, start_url, geolocation, intent_template, intent,
image, instantiation_dict, require_reset, eval, reasoning_difficulty, visual_difficulty,
overall_difficulty, comments, intent_template_id``. Site addresses are placeholders
(``__CLASSIFIEDS__`` ...) replaced when the task is played; several start pages are joined with
`` |AND| ``.

PlayBench reads one field of its own, ``playbench`` (VWA's tools ignore unknown fields):
``reference`` - actions that solve the task, ``wrong`` - actions that must score 0, both with
element ids written as ``[{selector}]`` (a Playwright selector, turned into the Set-of-Marks id
of the moment when played) - and ``viewport`` ``[width, height]``.

Two VWA fields need more than reading (both from VWA's published code, the
web-arena-x/visualwebarena repository; the task fields: docs/reference/web.md):
``viewport_size`` (``{"width": W, "height": H}``, either key may be left out) replaces the
default viewport for that task - some tasks are phone-sized - and relative paths
(``image``, ``storage_state``, local ``eval_fuzzy_image_match`` files) are relative to
VWA's root directory, where VWA's scripts run, not to the task file: VWA keeps its task files
in ``config_files/`` (``config_files/vwa/test_classifieds.raw.json``) and its login states in
``.auth/`` (``"storage_state": "./.auth/classifieds_state.json"``). :func:`base_dir_for` finds
that root for a file inside a VWA checkout; ``PLAYBENCH_VWA_ROOT`` or ``--vwa-root`` name it
for a file kept elsewhere.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.games.base import Level, LevelError
from playbench.games.packs import RangeError, select
from playbench.games.web.task_model import PLAYBENCH_FIELD as PLAYBENCH_FIELD
from playbench.games.web.task_model import playbench_block

GAME = "web"
KNOWN_FIELDS = ("sites", "task_id", "require_login", "storage_state", "start_url", "geolocation",
                "intent_template", "intent", "image", "instantiation_dict", "require_reset",
                "eval", "reasoning_difficulty", "visual_difficulty", "overall_difficulty",
                "comments", "intent_template_id", "viewport_size")
REQUIRED = ("task_id", "start_url", "intent", "eval")
EVAL_TYPES = ("string_match", "url_match", "program_html", "page_image_query")
AND = " |AND| "
OR = " |OR| "
PLACEHOLDER = re.compile(r"__([A-Z][A-Z_]*?)__")


@dataclass(frozen=True)
class TaskProblem:
    """Something wrong with one task: ``fatal`` problems make it unusable."""

    task: int | str
    field: str
    message: str
    fatal: bool = True

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class WebTaskError(LevelError):
    """A task cannot be played; the message names the task and the field."""

    def __init__(self, problem: TaskProblem, source: str | None = None) -> None:
        self.problem = problem
        super().__init__(f"{problem.field}: {problem.message}", source=source,
                         level=problem.task)

    def _message(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}task {self.level}: {self.reason}"


@dataclass(frozen=True)
class WebTask:
    """One task as PlayBench plays it: VWA's config plus PlayBench's extension."""

    config: Mapping[str, Any]
    reference: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    viewport: tuple[int, int] | None = None
    base_dir: str = "."

    @property
    def task_id(self) -> int:
        return int(self.config["task_id"])

    @property
    def intent(self) -> str:
        return str(self.config.get("intent", ""))

    @property
    def eval(self) -> Mapping[str, Any]:
        return self.config.get("eval") or {}

    @property
    def start_urls(self) -> list[str]:
        return [u.strip() for u in str(self.config.get("start_url", "")).split(AND) if u.strip()]

    @property
    def images(self) -> list[str]:
        img = self.config.get("image")
        if img is None or img == "":
            return []
        return [str(i) for i in img] if isinstance(img, list) else [str(img)]

    def viewport_for(self, default: tuple[int, int]) -> tuple[int, int]:
        """The viewport this task is played in: PlayBench's ``viewport`` when the task gives
        one, else VWA's ``viewport_size`` laid over ``default`` (VWA updates its default size
        with the task's keys, so a task may set only the height), else ``default``."""
        if self.viewport:
            return self.viewport
        return viewport_of(self.config, default)

    def placeholders(self) -> set[str]:
        """Site names the task refers to (``CLASSIFIEDS`` for ``__CLASSIFIEDS__``)."""
        return set(PLACEHOLDER.findall(json.dumps(self.config)))


def login_sites(task: WebTask) -> list[str]:
    """The sites a task needs to be logged in to: its ``sites`` field (VWA writes them in
    lower case: ``classifieds``), else the site placeholders it uses."""
    named = task.config.get("sites")
    if isinstance(named, list) and named and all(isinstance(s, str) for s in named):
        return sorted({s.strip("_").upper() for s in named})
    return sorted(task.placeholders())


def viewport_of(config: Mapping[str, Any], default: tuple[int, int]) -> tuple[int, int]:
    """VWA's ``viewport_size`` of a task config over ``default`` (values that are not
    positive whole numbers are ignored here; :mod:`playbench.games.web.checks` reports them)."""
    size = config.get("viewport_size")
    width, height = default
    if isinstance(size, dict):
        w, h = size.get("width"), size.get("height")
        if isinstance(w, int) and not isinstance(w, bool) and w > 0:
            width = w
        if isinstance(h, int) and not isinstance(h, bool) and h > 0:
            height = h
    return width, height


VWA_ROOT_ENV = "PLAYBENCH_VWA_ROOT"
"""Environment variable naming VWA's root directory for task files kept outside it."""
VWA_TASK_DIR = "config_files"
"""The directory of VWA's repository that holds its task files."""


def vwa_root_of(path: Path) -> Path | None:
    """The VWA checkout a task file sits in: the directory holding the ``config_files``
    directory the file is under (VWA's layout), or None when the file is not in one."""
    resolved = path.resolve()
    for parent in resolved.parents:
        if parent.name == VWA_TASK_DIR:
            return parent.parent
    return None


def base_dir_for(path: Path, vwa_root: Path | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The directory a task file's relative paths are read from: ``vwa_root`` when given,
    else ``$PLAYBENCH_VWA_ROOT``, else the VWA checkout the file sits in
    (:func:`vwa_root_of`), else the file's own directory (PlayBench's own task files)."""
    env = os.environ if environ is None else environ
    root = vwa_root or (Path(env[VWA_ROOT_ENV]) if env.get(VWA_ROOT_ENV) else None) \
        or vwa_root_of(path)
    return str((root or path.parent).resolve())


def canonical_text(config: Mapping[str, Any], viewport: Sequence[int] | None,
                   reference: Sequence[str] = (), wrong: Sequence[str] = ()) -> str:
    """The text a web level is stored (and content-hashed) as: the VWA config and every part
    of the PlayBench block that changes play or scoring - the viewport, and the reference and
    wrong trajectories the oracle plays (the level's identity is this text's hash, so two
    files differing only there are two tasks, each replaying with its own trajectories)."""
    data = {k: v for k, v in config.items() if k != PLAYBENCH_FIELD}
    ext: dict[str, Any] = {}
    if viewport:
        ext["viewport"] = list(viewport)
    if reference:
        ext["reference"] = list(reference)
    if wrong:
        ext["wrong"] = list(wrong)
    if ext:
        data[PLAYBENCH_FIELD] = ext
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def task_from_level(level: Level) -> WebTask:
    """Rebuild the task a level holds (raises WebTaskError for text that is not a task)."""
    try:
        config = json.loads(level.text)
    except json.JSONDecodeError as err:
        raise WebTaskError(TaskProblem(level.number, "task", f"not JSON ({err.msg})")) from None
    if not isinstance(config, dict):
        raise WebTaskError(TaskProblem(level.number, "task", "not a JSON object"))
    block = playbench_block(config)
    meta = level.meta or {}
    # The trajectories come from the text where it holds them (the hashed identity), else
    # from the meta of levels stored before they were part of it. A block of the wrong shape
    # gives none (the task's check reports it, and the task is not played).
    reference = block.reference if block else None
    wrong = block.wrong if block else None
    viewport = block.viewport if block else None
    return WebTask(config, tuple(reference or meta.get("reference") or ()),
                   tuple(wrong or meta.get("wrong") or ()),
                   (viewport[0], viewport[1]) if viewport else None,
                   str(meta.get("base_dir") or "."))


def level_of(config: Mapping[str, Any], index: int, base_dir: str, source: str) -> Level:
    """A level for one task object of a file (``index`` numbers it when it has no task_id)."""
    block = playbench_block(config)
    number = config.get("task_id")
    number = number if isinstance(number, int) and not isinstance(number, bool) else index
    meta: dict[str, Any] = {"base_dir": base_dir, "source": source}
    for key in ("sites", "overall_difficulty", "reasoning_difficulty", "visual_difficulty"):
        if config.get(key) is not None:
            meta[key] = config[key]
    if block is None and config.get(PLAYBENCH_FIELD) is not None:
        # A block of the wrong shape is kept as written, so that the task's check sees it and
        # says what is wrong (rebuilding it would drop or reshape the wrong parts).
        text = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    else:
        for key in ("reference", "wrong"):
            if block and getattr(block, key):
                meta[key] = list(getattr(block, key))
        text = canonical_text(config, block.viewport if block else None,
                              meta.get("reference") or (), meta.get("wrong") or ())
    return Level(GAME, text, number, str(config.get("intent", "")), meta)


def load_text(text: str, source: str, base_dir: str = ".") -> list[Level]:
    """Levels of a task file's text (one object or a list). Only a file that is not JSON, or
    not objects, is refused here; problems inside a task are reported by :func:`check_task`
    and end that task's episode as ``error`` when played."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise LevelError(f"not a JSON task file: {err.msg}", source=source,
                         line=err.lineno) from None
    except RecursionError:
        raise LevelError("not a usable task file: its JSON is nested too deeply (a task is a "
                         "few levels deep)", source=source) from None
    items = data if isinstance(data, list) else [data]
    levels = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise LevelError(f"entry {i} is not a task object", source=source)
        levels.append(level_of(item, i, base_dir, source))
    return levels


def _decode(data: bytes, source: str) -> str:
    """A task file's text: UTF-8 (JSON's encoding), or UTF-16/32 when the file starts with
    that encoding's byte-order mark (as some Windows editors save it)."""
    boms = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
            (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
            (codecs.BOM_UTF16_BE, "utf-16"))
    encoding = next((name for bom, name in boms if data.startswith(bom)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise LevelError(f"not {encoding.upper()} text ({err.reason} at byte {err.start}); "
                         "save the task file as UTF-8", source=source, line=line) from None


MAX_TASK_FILE_BYTES = 32 * 1024 * 1024
"""Largest web task file read (VWA's own task files are well under 2 MiB); a larger file is
refused before it is read, so a wrong path cannot make the app read gigabytes into memory."""


def load_file(path: Path, base_dir: str | None = None) -> list[Level]:
    """The tasks of one file; relative paths in them are read from ``base_dir`` (default:
    :func:`base_dir_for` the file)."""
    try:
        size = path.stat().st_size
        if size > MAX_TASK_FILE_BYTES:
            raise LevelError(f"the file is {size / 2**20:.0f} MiB; web task files larger than "
                             f"{MAX_TASK_FILE_BYTES // 2**20} MiB are not read (split it into "
                             "several files)", source=str(path))
        data = path.read_bytes()
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    return load_text(_decode(data, str(path)), str(path),
                     base_dir if base_dir is not None else base_dir_for(path))


def parse_ids(text: str) -> list[tuple[int, int]]:
    """``"3"``, ``"0-5"``, ``"1,4,6-9"``: inclusive spans of task ids (VWA numbers from 0)."""
    if not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", text):
        raise LevelError(f"bad task range {text!r}: use N, A-B or a list such as 0,3,5-7")
    spans = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a, b = int(lo), int(hi or lo)
        if b < a:
            raise LevelError(f"bad task range {text!r}: {part!r} is descending")
        spans.append((a, b))
    return spans


def select_ids(levels: Iterable[Level], range_text: str | None, source: str) -> list[Level]:
    """The tasks whose ids ``range_text`` names; an id it names that the file lacks is refused."""
    levels = list(levels)
    if range_text is None:
        return levels
    if not levels:
        raise LevelError("the file has no task", source=source)
    try:
        return select(levels, range_text, source, parse_ids(range_text), noun="task")
    except RangeError as err:
        raise LevelError(str(err), source=source) from None


__all__ = ["WebTask", "WebTaskError", "TaskProblem", "load_file", "load_text", "task_from_level",
           "select_ids", "parse_ids", "canonical_text", "level_of", "viewport_of", "vwa_root_of",
           "base_dir_for", "VWA_ROOT_ENV", "login_sites"]
