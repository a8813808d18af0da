"""MageBench's own WebUI task folders and list files, read as they sit in its repository.

A task is a folder (``resources/WebUI/<name>/`` in MageBench): ``index.html`` - the reference
page, its scored elements carrying ``data-filter-by`` / ``data-evalby``; optionally
``style.css`` and ``script.js``; ``actions.py`` - the scored interactions, read as data by
:mod:`playbench.games.webui.actions_file`; ``tasks.md`` - the prompt, its target screenshots
linked from ``_images/``; ``tasks_content.json`` - the same prompt as chat content parts; and
whatever else the page uses (pictures, fonts), served beside it. ``resources/WebUI_all.json`` and
``WebUI_mini.json`` are JSON lists of folder paths relative to the list file's own folder
(``"WebUI/Text-Formatter"``).

:func:`folder_record` turns a folder into a WebUI task record (``games/webui/tasks.py``): the
reference files, the other files as resources (text kept as text, anything else as base64
under ``binary``), the prompt from ``tasks.md`` (or the text parts of ``tasks_content.json``),
the steps of ``actions.py``, and ``aes: "magebench"`` - scored as MageBench's harness scores by
default (``games/webui/aes.py``). ``_images/`` is not read: the target screenshots are rendered
from the reference in the browser that renders the submissions (``games/webui/env.py``).
Nothing in a folder is ever executed.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from playbench.games.base import LevelError
from playbench.games.webui.actions_file import read_actions

REFERENCE = ("index.html", "style.css", "script.js")
"""The files a player writes (and the reference holds)."""
PROMPT_FILES = ("actions.py", "tasks.md", "tasks_content.json")
SKIPPED_DIRS = frozenset({"_images", "__pycache__"})
"""Folders of a task that are not served: the published target screenshots, Python caches."""
TEXT_SUFFIXES = frozenset({".html", ".htm", ".css", ".js", ".svg", ".txt", ".json", ".md",
                           ".csv", ".xml", ".mjs"})
MAX_TASK_BYTES = 16 * 1024 * 1024
"""A task folder's files together (MageBench's largest folders hold a few megabytes of
pictures; more than this is not a web page task)."""


def is_task_folder(path: Path) -> bool:
    return (path / "index.html").is_file()


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise LevelError(f"not UTF-8 text ({err.reason} at byte {err.start})",
                         source=str(path)) from None
    except OSError as err:
        raise LevelError(f"cannot read ({err.strerror or err})", source=str(path)) from None


def _prompt(folder: Path) -> str:
    md = folder / "tasks.md"
    if md.is_file():
        return _read_text(md)
    content = folder / "tasks_content.json"
    if not content.is_file():
        return ""
    try:
        parts = json.loads(_read_text(content))
    except ValueError as err:
        raise LevelError(f"not JSON ({err})", source=str(content)) from None
    if not isinstance(parts, list):
        raise LevelError("must be a list of content parts", source=str(content))
    texts = []
    for i, part in enumerate(parts, start=1):
        if not isinstance(part, dict) or part.get("type") not in ("text", "image_url"):
            raise LevelError(f"part {i}: needs \"type\": text or image_url",
                             source=str(content))
        if part["type"] == "text":
            texts.append(str(part.get("text") or ""))
    return "".join(texts)


def folder_record(folder: Path) -> dict[str, Any]:
    """The task record of one MageBench task folder; raises :class:`LevelError` naming the
    file (and line) that is wrong."""
    if not is_task_folder(folder):
        raise LevelError("not a MageBench WebUI task folder (no index.html)", source=str(folder))
    reference: dict[str, str] = {}
    resources: dict[str, str] = {}
    binary: dict[str, str] = {}
    total = 0
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or rel.parts[0] in SKIPPED_DIRS or any(
                p.startswith(".") for p in rel.parts):
            continue
        name = rel.as_posix()
        if name in PROMPT_FILES:
            continue
        total += path.stat().st_size
        if total > MAX_TASK_BYTES:
            raise LevelError(f"the task's files are over {MAX_TASK_BYTES // 2 ** 20} MiB",
                             source=str(folder))
        if name in REFERENCE:
            reference[name] = _read_text(path)
        elif path.suffix.lower() in TEXT_SUFFIXES:
            resources[name] = _read_text(path)
        else:
            binary[name] = base64.b64encode(path.read_bytes()).decode("ascii")
    actions = folder / "actions.py"
    steps = (read_actions(_read_text(actions), str(actions)) if actions.is_file() else [])
    return {
        "id": folder.name, "title": folder.name, "category": "magebench",
        "description": _prompt(folder), "names": {},
        "interactions": [s.record() for s in steps],
        "reference": reference, "resources": resources, "binary": binary,
        "aes": "magebench",
    }


def read_list(path: Path) -> list[Path]:
    """The task folders a MageBench list file names, resolved against its folder; raises
    :class:`LevelError` naming the file and the entry that is wrong."""
    try:
        entries = json.loads(_read_text(path))
    except ValueError as err:
        raise LevelError(f"not JSON ({err})", source=str(path)) from None
    if not isinstance(entries, list):
        raise LevelError("a MageBench list is a JSON list of task folders", source=str(path))
    folders = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, str) or not entry.strip():
            raise LevelError(f"entry {i} must be a folder path", source=str(path))
        folder = (path.parent / entry).resolve()
        if not is_task_folder(folder):
            raise LevelError(f"entry {i} ({entry}): no task folder with an index.html at "
                             f"{folder}", source=str(path))
        folders.append(folder)
    return folders


def is_list(data: Any) -> bool:
    """Whether parsed JSON is a MageBench list (folder paths), not task records: a list with
    any string in it (a list mixing paths and other values is then refused entry by entry)."""
    return isinstance(data, list) and any(isinstance(x, str) for x in data)


def folders_of(path: Path) -> list[Path]:
    """A task folder itself, or the task folders directly inside ``path`` (MageBench's
    ``resources/WebUI``), sorted by name."""
    if is_task_folder(path):
        return [path]
    inside = sorted(p for p in path.iterdir() if p.is_dir() and is_task_folder(p))
    if not inside:
        raise LevelError("no MageBench WebUI task here (a task folder holds an index.html)",
                         source=str(path))
    return inside


__all__ = ["MAX_TASK_BYTES", "folder_record", "folders_of", "is_list", "is_task_folder",
           "read_list"]
