"""WebUI tasks as levels: reading, checking and listing them.

A task's level text is its record as JSON (keys sorted, so the content hash is stable): ``id``,
``title``, ``category``, ``description`` (Markdown), ``names`` (selector -> what it is, the
class/id names interactive elements must use), ``interactions`` (``{"do": "click" | "type" |
"scroll", "selector", "text", "dy", "name"}``), ``reference`` (``index.html`` and optionally
``style.css``, ``script.js``), ``resources`` (path -> text, e.g. generated SVG images),
``binary`` (path -> base64, pictures a MageBench folder holds) and ``aes`` (``magebench`` for a
task read from MageBench's files: the default of the ``aes`` rule option, see ``kind.py``).
An interaction ``{"do": "steps", "name", "ops"}`` is a step read from a MageBench
``actions.py`` (``games/webui/actions_file.py``, replayed by ``games/webui/steps.py``).
The bundled set ``webui`` is built by :func:`playbench.games.webui.pages.build_tasks`; a
``.json`` file holding a list of such records (or a ``.jsonl`` file, one per line) can be
loaded too, and so can MageBench's own task folders and list files
(``games/webui/magebench.py``).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.games.base import Level, LevelError
from playbench.games.webui import magebench
from playbench.games.webui.pages import build_tasks
from playbench.games.webui.steps import check_ops

GAME = "webui"
BUNDLED = "webui"
INTERACTIONS = ("click", "type", "scroll", "steps")


@dataclass(frozen=True)
class WebUITask:
    """One task, read from a level (see the module docstring)."""

    id: str
    title: str
    category: str
    description: str
    names: Mapping[str, str]
    interactions: tuple[Mapping[str, Any], ...]
    reference: Mapping[str, str]
    resources: Mapping[str, str | bytes]
    aes: str = ""
    """The scoring the task's file asks for (``magebench``), or empty for PlayBench's."""

    def reference_files(self) -> dict[str, str | bytes]:
        """The reference page with its resources, as the sandbox serves it."""
        return {**self.resources, **self.reference}

    def with_submission(self, files: Mapping[str, str]) -> dict[str, str | bytes]:
        """A submission's files served beside the task's resources (the submission wins)."""
        return {**self.resources, **files}

    def prompt_text(self) -> str:
        """The Markdown task description a player reads: the page, the resources and the
        names interactions rely on (the target screenshots are shown beside it)."""
        lines = [f"# {self.title}", "", self.description, ""]
        if self.resources:
            lines += ["## Resources", "Use these files by their relative paths:"]
            lines += [f"- `{path}`" for path in self.resources]
            lines.append("")
        if self.names:
            lines += ["## Names the automatic test uses",
                      "Give these elements exactly these ids/classes:"]
            lines += [f"- `{sel}`: {what}" for sel, what in self.names.items()]
            lines.append("")
        lines += ["## Screenshots", "The target page as loaded"
                  + "".join(f", then after: {i.get('name') or i.get('do')}"
                            for i in self.interactions)
                  + " (1920 x 1080, one second after each interaction)."]
        return "\n".join(lines)


def level_of(record: Mapping[str, Any], number: int) -> Level:
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    meta: dict[str, Any] = {"id": record.get("id"), "category": record.get("category")}
    if record.get("aes"):
        meta["aes"] = record["aes"]  # the default of the kind's ``aes`` rule option
    return Level(GAME, text, number, str(record.get("title") or record.get("id") or ""), meta)


def task_of(level: Level) -> WebUITask:
    """The task in a level's text; raises :class:`LevelError` saying what is missing."""
    try:
        data = json.loads(level.text)
    except ValueError as err:
        raise LevelError(f"not a WebUI task (not JSON: {err})", level=level.number) from None
    if not isinstance(data, dict):
        raise LevelError("a WebUI task must be a JSON object", level=level.number)
    reference = data.get("reference")
    if not isinstance(reference, dict) or not isinstance(reference.get("index.html"), str):
        raise LevelError("a WebUI task needs reference['index.html']", level=level.number)
    steps = data.get("interactions") or []
    if not isinstance(steps, list):
        raise LevelError("'interactions' must be a list", level=level.number)
    for i, s in enumerate(steps):
        if not isinstance(s, dict) or s.get("do") not in INTERACTIONS:
            raise LevelError(f"interaction {i + 1} must have \"do\": click, type, scroll or "
                             "steps", level=level.number)
        if s["do"] == "steps":
            try:
                check_ops(s.get("ops"), f"interaction {i + 1}")
            except ValueError as err:
                raise LevelError(str(err), level=level.number) from None
        elif s["do"] != "scroll" and not isinstance(s.get("selector"), str):
            raise LevelError(f"interaction {i + 1} ({s['do']}) needs a \"selector\"",
                             level=level.number)
    resources: dict[str, str | bytes] = {
        str(k): str(v) for k, v in (data.get("resources") or {}).items()}
    binary = data.get("binary") or {}
    if not isinstance(binary, dict):
        raise LevelError("'binary' must map paths to base64 text", level=level.number)
    for k, v in binary.items():
        try:
            resources[str(k)] = base64.b64decode(str(v), validate=True)
        except (binascii.Error, ValueError):
            raise LevelError(f"binary[{k!r}] is not base64", level=level.number) from None
    return WebUITask(str(data.get("id") or level.number), str(data.get("title") or ""),
                     str(data.get("category") or ""), str(data.get("description") or ""),
                     dict(data.get("names") or {}), tuple(steps),
                     {str(k): str(v) for k, v in reference.items()}, resources,
                     str(data.get("aes") or ""))


def _pick(levels: list[Level], spec: str, source: str) -> list[Level]:
    """``N`` or ``A-B`` (1-based, inclusive) or a task id."""
    if not spec:
        return levels
    if "-" in spec and all(p.isdigit() for p in spec.split("-", 1)):
        a, b = (int(p) for p in spec.split("-", 1))
        picked = [lv for lv in levels if a <= lv.number <= b]
    elif spec.isdigit():
        picked = [lv for lv in levels if lv.number == int(spec)]
    else:
        picked = [lv for lv in levels if lv.meta.get("id") == spec]
    if not picked:
        raise LevelError(f"no task {spec!r}", source=source)
    return picked


def _folders(folders: list[Path]) -> list[dict[str, Any]]:
    return [magebench.folder_record(f) for f in folders]


def _read_file(path: Path) -> list[Any]:
    """The records of a task file (.json, .jsonl) or of the folders a MageBench list names."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LevelError(f"cannot read ({err.strerror or err})", source=name) from None
    except UnicodeDecodeError as err:
        raise LevelError(f"not UTF-8 text ({err.reason})", source=name) from None
    try:
        records = ([json.loads(x) for x in text.splitlines() if x.strip()]
                   if path.suffix == ".jsonl" else json.loads(text))
    except ValueError as err:
        raise LevelError(f"not JSON ({err})", source=name) from None
    if magebench.is_list(records):
        records = _folders(magebench.read_list(path))
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list):
        raise LevelError("a WebUI task file holds a task record or a list of them",
                         source=name)
    for i, r in enumerate(records, start=1):
        if not isinstance(r, dict):
            raise LevelError(f"entry {i} is not a task record (a JSON object) - a MageBench "
                             "list holds only folder paths", source=name)
    return records


def load_levels(source: str) -> list[Level]:
    """``webui[:RANGE]`` (bundled), ``FILE[:RANGE]`` (.json list of records or .jsonl), or
    MageBench's own: a task folder, a folder of task folders, or a list file
    (``WebUI_mini.json``) - each ``[:RANGE]``."""
    name, _, spec = source.partition(":")
    if name == BUNDLED:
        levels = [level_of(r, i) for i, r in enumerate(build_tasks(), start=1)]
        return _pick(levels, spec, source)
    path = Path(name)
    records = _folders(magebench.folders_of(path)) if path.is_dir() else _read_file(path)
    levels = [level_of(r, i) for i, r in enumerate(records, start=1)]
    for lv in levels:
        try:
            task_of(lv)
        except LevelError as err:
            raise err.located(source=name) from None
    return _pick(levels, spec, source)


__all__ = ["BUNDLED", "GAME", "WebUITask", "level_of", "load_levels", "task_of"]
