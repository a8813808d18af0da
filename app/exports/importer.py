"""``playbench import DIR``: merge a JSONL trajectory export into this database.

Two passes. The first reads every file and line and checks it (format, schema version, types,
step numbering, frames present, studies consistent with the ones stored here) without writing
anything; the first problem stops the import with its file and line. The second writes
everything in one transaction, so a failure there leaves the database as it was too.

Merging, so annotators' laptops can be gathered into one study database without duplicates:
episodes by uid (an episode already here gains the steps it lacks when the export holds more of
it, e.g. a later export of the same laptop); participants by (kind, name); tasks by (game, level
hash); frames by hash; studies by uid, else by name when their protocols have the same
fingerprint (the same study file created on several machines). A study whose name is taken by a
different protocol is refused. New rows get this database's own ids (so PostgreSQL sequences
stay right).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from playbench.app.exports.jsonl import FORMAT, SCHEMA_VERSION, step_of_object
from playbench.app.exports.lines import (
    WHOLE,
    ImportProblem,
    check_step,
    need,
    number,
    read_lines,
    text,
    whole,
)
from playbench.app.studies.protocol import fingerprint
from playbench.db.steps import StoredStep
from playbench.db.store import Store
from playbench.db.studies import find_study
from playbench.db.transfer import Incoming, merge
from playbench.games.base import Level
from playbench.games.kind import KindError, Registry, UnknownKind, default_registry

_FRAME = re.compile(r"^[0-9a-f]{64}\.png$")
KINDS = ("human", "model", "script")
STATUSES = ("running", "done", "interrupted", "error")
BATCH = 2000


@dataclass
class ImportReport:
    episodes_new: int = 0
    episodes_extended: int = 0
    episodes_skipped: int = 0
    steps: int = 0
    frames: int = 0
    participants: int = 0
    tasks: int = 0
    studies: int = 0
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Seen:
    """What the checking pass learned, for the writing pass."""

    episodes: dict[str, dict] = field(default_factory=dict)
    step_counts: dict[str, int] = field(default_factory=dict)
    frames: set[str] = field(default_factory=set)
    studies: list[dict] = field(default_factory=list)
    levels: dict[tuple[str, str], str | None] = field(default_factory=dict)
    """(game, level text) already tried -> why it cannot start (None: it starts)."""


def _time(where: str, value: Any, optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ImportProblem(f"{where}: {_cut(repr(value))} is not an ISO 8601 time") from None


def _check_frame(directory: Path, where: str, name: str | None, seen: _Seen) -> None:
    if name is None:
        return
    if not isinstance(name, str) or not _FRAME.match(name):
        raise ImportProblem(f"{where}: frame {name!r} is not a frame file name")
    if name[:-4] in seen.frames:
        return
    path = directory / "frames" / name
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        raise ImportProblem(f"{where}: frame {name} is missing from frames/") from None
    if head != b"\x89PNG\r\n\x1a\n":
        raise ImportProblem(f"frames/{name}: not a PNG file")
    seen.frames.add(name[:-4])


def _why_level_cannot_start(registry: Registry, game: str, level: Level) -> str | None:
    """Why an episode's task could never be played here (an unknown game, a level the
    game's rules or the task reader refuse), or None when it can start. Imported rows that
    cannot start would later stop ``replay --verify --all`` and exports, so they are refused
    at the door."""
    try:
        kind = registry.get(game)
    except (UnknownKind, KindError) as err:
        return str(err).strip("'\"")
    try:
        kind.check_level(level)
    except Exception as err:  # the rules' own refusal, whatever its type
        return f"its {game} level cannot start ({err})"
    return None


def check_bundle(store: Store, directory: Path, registry: Registry | None = None,
                 progress: Callable[[str, int], None] | None = None) -> _Seen:
    """The first pass: check everything, write nothing. ``registry`` names the installed
    task kinds (default: :func:`playbench.games.kind.default_registry`); ``progress`` is told
    ``("checking", steps so far)`` every :data:`PROGRESS_EVERY` step lines."""
    registry = registry if registry is not None else default_registry()
    manifest = _check_manifest(directory / "manifest.json")
    seen = _Seen()
    for n, s in read_lines(directory / "studies.jsonl"):
        _check_study(store, f"studies.jsonl:{n}", s)
        seen.studies.append(s)
    bundle_studies = {s["id"] for s in seen.studies}
    for n, e in read_lines(directory / "episodes.jsonl"):
        where = f"episodes.jsonl:{n}"
        uid = _check_episode(registry, where, e, seen)
        _check_frame(directory, where, e.get("start_frame"), seen)
        study = need(where, e, "study", (str,), optional=True)
        if study is not None and study not in bundle_studies:
            raise ImportProblem(f"{where}: study {_cut(study)} is not in studies.jsonl")
        seen.episodes[uid] = {"line": n, **e}
        seen.step_counts[uid] = 0
    steps = 0
    for n, s in read_lines(directory / "steps.jsonl"):
        where = f"steps.jsonl:{n}"
        uid = need(where, s, "episode", (str,))
        if uid not in seen.episodes:
            raise ImportProblem(f"{where}: episode {_cut(uid)} is not in episodes.jsonl")
        index = need(where, s, "index", (int,))
        if index != seen.step_counts[uid]:
            raise ImportProblem(f"{where}: step {_cut(str(index))} of episode {uid} out of "
                                f"order (expected {seen.step_counts[uid]})")
        seen.step_counts[uid] += 1
        check_step(where, s)
        _check_frame(directory, where, s.get("frame"), seen)
        steps += 1
        if progress is not None and steps % PROGRESS_EVERY == 0:
            progress("checking", steps)
    for uid, e in seen.episodes.items():
        if seen.step_counts[uid] != e["n_steps"]:
            raise ImportProblem(f"episodes.jsonl:{e['line']}: episode {uid} says {e['n_steps']} "
                                f"steps, steps.jsonl holds {seen.step_counts[uid]}")
    for name, held in (("episodes", len(seen.episodes)), ("steps", steps),
                       ("studies", len(seen.studies))):
        if manifest[name] != held:
            raise ImportProblem(f"manifest.json: field {name!r} says {manifest[name]:,}, the "
                                f"export holds {held:,} (a file cut short, or from another "
                                "export?)")
    return seen


PROGRESS_EVERY = 10_000
"""Step lines between two progress calls (each call is cheap; the caller decides what to
print)."""


def _cut(value: str, longest: int = 60) -> str:
    """A value from the file as quoted in a message: at most ``longest`` characters."""
    return value if len(value) <= longest else value[:longest - 3] + "..."


def _check_manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise ImportProblem("manifest.json: missing (not a PlayBench export)") from None
    except (ValueError, RecursionError) as err:
        raise ImportProblem(f"manifest.json: not valid JSON ({str(err)[:200]})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ImportProblem(f"manifest.json: format is not {FORMAT!r}")
    version = manifest.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportProblem("manifest.json: schema_version must be a whole number")
    if version > SCHEMA_VERSION:
        raise ImportProblem(f"manifest.json: schema version {version} is newer than this "
                            f"PlayBench reads ({SCHEMA_VERSION}); upgrade PlayBench")
    for name in ("episodes", "steps", "frames", "studies"):
        whole("manifest.json", manifest, name, high=2 ** 63 - 1)
    text("manifest.json", manifest, "playbench", 100, optional=True)
    return manifest


def _check_study(store: Store, where: str, s: dict) -> None:
    _check_schema(where, s)
    text(where, s, "id", 36)
    text(where, s, "name", 200)
    protocol = need(where, s, "protocol", (dict,))
    if not isinstance(protocol.get("tasks"), list):
        raise ImportProblem(f"{where}: protocol has no task list")
    _time(f"{where}: created", s.get("created"), optional=True)
    for i, m in enumerate(need(where, s, "members", (list,))):
        at = f"{where}: members[{i}]"
        if not isinstance(m, dict):
            raise ImportProblem(f"{at}: must be an object with participant, seed and "
                                "task_order")
        _check_participant(at, need(at, m, "participant", (dict,)))
        whole(at, m, "seed", low=-2 ** 63, high=2 ** 63 - 1)
        order = need(at, m, "task_order", (list,))
        if not all(isinstance(key, str) for key in order):
            raise ImportProblem(f"{at}: field 'task_order' must be a list of task keys")
        _time(f"{at}: joined", m.get("joined"), optional=True)
    _check_study_here(store, where, s)


def _check_participant(where: str, p: dict) -> None:
    if p.get("kind") not in KINDS or not isinstance(p.get("name"), str) or not p["name"]:
        raise ImportProblem(f"{where}: participant must have a kind ({', '.join(KINDS)}) "
                            "and a name")
    text(f"{where}: participant", p, "name", 200)


def _check_episode(registry: Registry, where: str, e: dict, seen: _Seen) -> str:
    """An episode line's own fields (its start frame and study are the caller's); its uid."""
    _check_schema(where, e)
    uid = need(where, e, "id", (str,))
    if not 0 < len(uid) <= 36:
        raise ImportProblem(f"{where}: episode id must be 1-36 characters")
    if uid in seen.episodes:
        raise ImportProblem(f"{where}: episode {uid} appears twice")
    _check_participant(where, need(where, e, "participant", (dict,)))
    game = text(where, e, "game", 40)
    level = need(where, e, "level", (dict,))
    at = f"{where}: level"
    text(at, level, "hash", 64)
    text(at, level, "text")
    whole(at, level, "number")
    text(at, level, "title", 300, optional=True)
    text(at, level, "source", 500, optional=True)
    need(at, level, "meta", (dict,), optional=True)
    level_key = (str(game), level["text"])
    if level_key not in seen.levels:
        meta = level.get("meta") or {}
        seen.levels[level_key] = _why_level_cannot_start(
            registry, str(game), Level(str(game), level["text"], level["number"],
                                       str(level.get("title") or ""), dict(meta)))
    if seen.levels[level_key] is not None:
        raise ImportProblem(f"{where}: episode {uid}: {seen.levels[level_key]}")
    for key in ("budget", "rules", "scores"):
        need(where, e, key, (dict,))
    for name, value in e["scores"].items():
        if len(name) > 80:
            raise ImportProblem(f"{where}: score {_cut(name)!r}: names are at most 80 "
                                "characters")
        if value is not None:
            number(f"{where}: scores", e["scores"], name)
    text(where, e, "setting", 80)
    whole(where, e, "seed", low=-WHOLE - 1)
    if text(where, e, "status") not in STATUSES:
        raise ImportProblem(f"{where}: unknown status {_cut(e['status'])!r}")
    whole(where, e, "n_steps")
    for name, longest in (("player", 200), ("end_reason", 300), ("owner", 200),
                          ("start_state", 64)):
        text(where, e, name, longest, optional=True)
    _time(f"{where}: started", e.get("started"))
    _time(f"{where}: ended", e.get("ended"), optional=True)
    need(where, e, "practice", (bool,), optional=True)
    need(where, e, "meta", (dict,), optional=True)
    need(where, e, "participant_details", (dict,), optional=True)
    return uid


def _check_schema(where: str, obj: dict) -> None:
    v = obj.get("schema", 1)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ImportProblem(f"{where}: schema must be a whole number")
    if v > SCHEMA_VERSION:
        raise ImportProblem(f"{where}: schema version {v} is newer than this PlayBench reads "
                            f"({SCHEMA_VERSION}); upgrade PlayBench")


def _check_study_here(store: Store, where: str, s: dict) -> None:
    row = find_study(store.db, s["name"])
    if row is not None and row.uid != s["id"] and \
            fingerprint(row.protocol or {}) != fingerprint(s["protocol"]):
        raise ImportProblem(f"{where}: a different study named {s['name']!r} is already in "
                            "this database (its tasks or rules differ)")


def import_bundle(store: Store, directory: Path,
                  progress: Callable[[str, int], None] | None = None) -> ImportReport:
    """Check, then merge the export in ``directory`` into ``store``'s database (one
    transaction). ``progress`` hears ``("checking", steps checked)`` during the first pass and
    ``("writing", steps written)`` during the second, every few thousand steps."""
    directory = Path(directory)
    seen = check_bundle(store, directory, progress=progress)
    report = ImportReport()

    def steps() -> Iterator[tuple[str, StoredStep]]:
        with open(directory / "steps.jsonl", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield step_of_object(json.loads(line))

    written = 0

    def wrote(n: int) -> None:
        nonlocal written
        written += n
        if progress is not None:
            progress("writing", written)

    incoming = Incoming(episodes=seen.episodes, studies=seen.studies, frames=seen.frames,
                        frame_png=lambda digest: (directory / "frames" / f"{digest}.png")
                        .read_bytes(), steps=steps)
    merge(store, incoming, report, wrote)
    return report
