"""``playbench import DIR``: merge a JSONL trajectory export into this database.

Every line is checked (format, schema version, types, step numbering, frames present, studies
consistent with the ones stored here) and the first problem stops the import with its file and
line. The small files (manifest, studies, episodes) are checked before anything is written; the
steps are checked as they are written, inside the one transaction that writes the whole
export, and a problem there rolls it back: a refused or failed import leaves the database as
it was. (Checking the steps in a pass of their own, then reading them again to write them,
validated each line twice: a third of an import's time, cProfile on bench_results' export.)
``playbench import --check`` runs every check and writes nothing.

Merging, so annotators' laptops can be gathered into one study database without duplicates:
episodes by uid (an episode already here gains the steps it lacks when the export holds more of
it, e.g. a later export of the same laptop); participants by (kind, name); tasks by (game, level
hash); frames by hash; studies by uid, else by name when their protocols have the same
fingerprint (the same study file created on several machines). A study whose name is taken by a
different protocol is refused. New rows get this database's own ids (so PostgreSQL sequences
stay right).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.app.exports.jsonl import step_of_line
from playbench.app.exports.lines import (
    ImportProblem,
    bounded_lines,
    read_lines,
    validate_line,
)
from playbench.app.exports.schema import EpisodeLine, Manifest, StepLine, StudyLine
from playbench.app.studies.protocol import fingerprint
from playbench.db.caps import FIELD_LIMIT, INFO_LIMIT, NOTE_ROOM, cap_step_row
from playbench.db.steps import StoredStep
from playbench.db.store import Store
from playbench.db.studies import find_study
from playbench.db.transfer import Incoming, merge
from playbench.games.base import Level
from playbench.games.kind import KindError, Registry, UnknownKind, default_registry

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


def _check_frame(directory: Path, where: str, name: str | None, seen: _Seen) -> None:
    """A frame a line names (its name already held to the model's pattern) is a PNG file."""
    if name is None or name[:-4] in seen.frames:
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
    """Check everything, write nothing. ``registry`` names the installed task kinds (default:
    :func:`playbench.games.kind.default_registry`); ``progress`` is told ``("checking", steps
    so far)`` every :data:`PROGRESS_EVERY` step lines."""
    manifest, seen = _check_head(store, directory, registry)
    for _ in checked_steps(directory, manifest, seen, progress):
        pass
    return seen


def _check_head(store: Store, directory: Path, registry: Registry | None
                ) -> tuple[Manifest, _Seen]:
    """The manifest, studies and episodes checked (what is known before the steps)."""
    registry = registry if registry is not None else default_registry()
    manifest = _check_manifest(directory / "manifest.json")
    seen = _Seen()
    for n, study in read_lines(directory / "studies.jsonl", StudyLine):
        _check_study_here(store, f"studies.jsonl:{n}", study)
        seen.studies.append(study.model_dump(by_alias=True))
    bundle_studies = {s["id"] for s in seen.studies}
    for n, e in read_lines(directory / "episodes.jsonl", EpisodeLine):
        where = f"episodes.jsonl:{n}"
        _check_episode(registry, where, e, seen)
        _check_frame(directory, where, e.start_frame, seen)
        if e.study is not None and e.study not in bundle_studies:
            raise ImportProblem(f"{where}: study {_cut(e.study)} is not in studies.jsonl")
        seen.episodes[e.id] = {"line": n, **e.model_dump(by_alias=True)}
        seen.step_counts[e.id] = 0
    for name in ("episodes", "studies"):
        _check_count(manifest, name, len(getattr(seen, name)))
    return manifest, seen


def checked_steps(directory: Path, manifest: Manifest, seen: _Seen,
                  progress: Callable[[str, int], None] | None = None
                  ) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each line of ``steps.jsonl`` checked against its model and what ``seen`` holds (its
    episode is in the export, it comes in order, its frame is a PNG in ``frames/``), as
    ``(episode uid, steps row values)`` (:func:`step_row`). Once the last line is read, each
    episode's step count and the manifest's are checked too: a problem anywhere is raised
    before the iteration ends."""
    steps = 0
    counts = seen.step_counts
    # one mapping for every step without info: the writer encodes a value once when the same
    # object comes again, so most steps' info is not encoded as JSON one by one
    empty: dict[str, Any] = {}
    with open(directory / "steps.jsonl", encoding="utf-8") as f:
        for n, text in enumerate(bounded_lines(f, "steps.jsonl"), 1):
            if not text.strip():
                continue
            s = validate_line(f"steps.jsonl:{n}", text, StepLine)
            uid = s.episode
            expected = counts.get(uid)
            if expected is None:
                raise ImportProblem(f"steps.jsonl:{n}: episode {_cut(uid)} is not in "
                                    "episodes.jsonl")
            if s.index != expected:
                raise ImportProblem(f"steps.jsonl:{n}: step {s.index} of episode {uid} out "
                                    f"of order (expected {expected})")
            counts[uid] = expected + 1
            if s.frame is not None and s.frame[:-4] not in seen.frames:
                _check_frame(directory, f"steps.jsonl:{n}", s.frame, seen)
            steps += 1
            if progress is not None and steps % PROGRESS_EVERY == 0:
                progress("checking", steps)
            yield step_row(s, len(text), empty)
    for uid, said in seen.episodes.items():
        if counts[uid] != said["n_steps"]:
            raise ImportProblem(f"episodes.jsonl:{said['line']}: episode {uid} says "
                                f"{said['n_steps']} steps, steps.jsonl holds {counts[uid]}")
    _check_count(manifest, "steps", steps)


def _check_count(manifest: Manifest, name: str, held: int) -> None:
    said = getattr(manifest, name)
    if said != held:
        raise ImportProblem(f"manifest.json: field {name!r} says {said:,}, the export holds "
                            f"{held:,} (a file cut short, or from another export?)")


SHORT_LINE = (FIELD_LIMIT + NOTE_ROOM) // 4
"""A step line of at most this many characters needs no cutting to fit the stored-field caps
(``playbench.db.caps``): no text in it can be longer, as UTF-8, than 4 bytes a character, and
its ``info`` re-encoded with ``json.dumps``'s spaces is at most twice its characters there."""
assert 8 * SHORT_LINE <= INFO_LIMIT + NOTE_ROOM


def step_row(line: StepLine, length: int, empty: dict[str, Any] | None = None
             ) -> tuple[str, dict[str, Any]]:
    """(episode uid, ``steps`` row values) of a checked step line of ``length`` characters,
    cut to the stored-field caps as the recorder's rows are (only a long line can need it).
    An empty ``info`` is given as ``empty`` when that is given (one object for every such
    step)."""
    frame = line.frame
    row = {"index": line.index, "decision": line.decision, "action": line.action,
           "raw": line.raw, "valid": line.valid, "invalid_kind": line.invalid_kind,
           "invalid_reason": line.invalid_reason, "changed": line.changed,
           "reward": line.reward, "state_hash": line.state_hash, "think_ms": line.think_ms,
           "prompt_tokens": line.tokens.prompt, "completion_tokens": line.tokens.completion,
           "cost": line.cost, "latency_ms": line.latency_ms or 0.0,
           "info": line.info or (line.info if empty is None else empty),
           "frame": frame[:-4] if frame else None}
    return line.episode, (row if length <= SHORT_LINE else cap_step_row(row))


PROGRESS_EVERY = 10_000
"""Step lines between two progress calls (each call is cheap; the caller decides what to
print)."""


def _cut(value: str, longest: int = 60) -> str:
    """A value from the file as quoted in a message: at most ``longest`` characters."""
    return value if len(value) <= longest else value[:longest - 3] + "..."


def _check_manifest(path: Path) -> Manifest:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise ImportProblem("manifest.json: missing (not a PlayBench export)") from None
    except ValueError as err:
        raise ImportProblem(f"manifest.json: not UTF-8 text ({str(err)[:200]})") from None
    return validate_line("manifest.json", text, Manifest)


def _check_episode(registry: Registry, where: str, e: EpisodeLine, seen: _Seen) -> None:
    """What an episode line's model cannot say alone: it appears once, and its level starts
    here (its start frame and study are the caller's)."""
    if e.id in seen.episodes:
        raise ImportProblem(f"{where}: episode {e.id} appears twice")
    level_key = (e.game, e.level.text)
    if level_key not in seen.levels:
        lv = e.level
        seen.levels[level_key] = _why_level_cannot_start(
            registry, e.game, Level(e.game, lv.text, lv.number, lv.title or "",
                                    dict(lv.meta or {})))
    if seen.levels[level_key] is not None:
        raise ImportProblem(f"{where}: episode {e.id}: {seen.levels[level_key]}")


def _check_study_here(store: Store, where: str, s: StudyLine) -> None:
    row = find_study(store.db, s.name)
    if row is not None and row.uid != s.id and \
            fingerprint(row.protocol or {}) != fingerprint(s.protocol):
        raise ImportProblem(f"{where}: a different study named {s.name!r} is already in "
                            "this database (its tasks or rules differ)")


def import_bundle(store: Store, directory: Path,
                  progress: Callable[[str, int], None] | None = None) -> ImportReport:
    """Check the export in ``directory`` and merge it into ``store``'s database in one
    transaction, the steps checked as they are written (a problem rolls it all back).
    ``progress`` hears ``("writing", steps written)`` every few thousand steps."""
    directory = Path(directory)
    manifest, seen = _check_head(store, directory, None)
    report = ImportReport()

    def steps() -> Iterator[tuple[str, StoredStep]]:
        for _, line in read_lines(directory / "steps.jsonl", StepLine):
            yield step_of_line(line)

    written = 0

    def wrote(n: int) -> None:
        nonlocal written
        written += n
        if progress is not None:
            progress("writing", written)

    incoming = Incoming(episodes=seen.episodes, studies=seen.studies, frames=seen.frames,
                        frame_png=lambda digest: (directory / "frames" / f"{digest}.png")
                        .read_bytes(), steps=steps,
                        step_rows=lambda: checked_steps(directory, manifest, seen))
    merge(store, incoming, report, wrote)
    return report
