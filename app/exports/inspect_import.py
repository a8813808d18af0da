"""``playbench import`` of Inspect AI logs that PlayBench wrote (``export --format inspect``).

A log is read with inspect_ai's own reader (``read_eval_log``, attachments resolved). Only logs
whose ``eval.metadata["playbench"]`` says PlayBench wrote them are read: the samples' metadata
holds the episode and step objects of the JSONL export and the messages hold the frames, which
is what an import needs; a log from another tool lacks both and is refused by name.

The episodes are not written by a second importer: the logs are turned back into a JSONL export
in a temporary directory, which the JSONL importer (``playbench.app.exports.importer``) checks
line by line and merges in one transaction as it does any export. A problem it finds is told with
the log and the sample it came from instead of the temporary file's line.

Limits (the logs are input from someone else): a ``.eval`` file (a zip archive) may unpack to
at most :data:`MAX_LOG_BYTES`, and a ``.json`` log may be at most as large, checked before
inspect_ai reads it; everything a sample holds is then held to the JSONL import's rules.
"""

from __future__ import annotations

import json
import re
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from playbench.app import __version__
from playbench.app.exports.importer import ImportReport, check_bundle, import_bundle
from playbench.app.exports.inspect_log import FORMAT, SCHEMA_VERSION
from playbench.app.exports.inspect_messages import frames_of
from playbench.app.exports.jsonl import FORMAT as JSONL_FORMAT
from playbench.app.exports.jsonl import SCHEMA_VERSION as JSONL_SCHEMA
from playbench.app.exports.jsonl import dump
from playbench.app.exports.lines import ImportProblem
from playbench.db.store import Store

MAX_LOG_BYTES = 512 * 1024 ** 2
"""The most a log may hold unpacked: inspect_ai reads a log whole into memory."""
SUFFIXES = (".eval", ".json")
_LINE = re.compile(r"^(episodes|steps|studies)\.jsonl:(\d+)(.*)$", re.DOTALL)
_HEAD = 4096


def is_inspect_log(path: Path) -> bool:
    """Whether ``path`` looks like an Inspect log: a ``.eval`` zip archive, or a ``.json``
    object whose first key is Inspect's ``version`` (its logs start ``{"version": 2, ...``)."""
    if not path.is_file() or path.suffix not in SUFFIXES:
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(_HEAD)
    except OSError:
        return False
    if path.suffix == ".eval":
        return head.startswith(b"PK")
    return re.match(rb'^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"', head) is not None


def inspect_logs(path: Path) -> list[Path]:
    """The Inspect logs ``path`` names: the file itself, or the logs in a directory that is not
    a JSONL export (no ``manifest.json``); empty when it holds none."""
    if path.is_file():
        return [path] if is_inspect_log(path) else []
    if not path.is_dir() or (path / "manifest.json").exists():
        return []
    return sorted(p for p in path.iterdir() if is_inspect_log(p))


@dataclass
class _Origin:
    """Which log and sample each line of the rebuilt export came from."""

    episodes: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    studies: list[str] = field(default_factory=list)

    def where(self, problem: ImportProblem) -> ImportProblem:
        """``problem`` told with the log and sample instead of the temporary file's line."""
        m = _LINE.match(str(problem))
        if not m:
            return problem
        lines = {"episodes": self.episodes, "steps": self.steps, "studies": self.studies}
        held = lines[m.group(1)]
        n = int(m.group(2))
        return ImportProblem(f"{held[n - 1]}{m.group(3)}") if 0 < n <= len(held) else problem


def _check_size(path: Path) -> None:
    if path.suffix == ".eval":
        try:
            with zipfile.ZipFile(path) as z:
                size = sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError) as err:
            raise ImportProblem(f"{path.name}: not a readable .eval archive ({err})") from None
    else:
        size = path.stat().st_size
    if size > MAX_LOG_BYTES:
        raise ImportProblem(f"{path.name}: holds {size:,} bytes unpacked; PlayBench reads logs "
                            f"of at most {MAX_LOG_BYTES:,}")


def read_log(path: Path) -> EvalLog:
    """A log written by PlayBench, read by inspect_ai; :class:`ImportProblem` for a log that is
    too large, unreadable, from another tool or from a newer PlayBench."""
    _check_size(path)
    try:
        log = read_eval_log(str(path), resolve_attachments=True)
    except Exception as err:  # inspect_ai's own refusal, whatever its type
        why = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
        raise ImportProblem(f"{path.name}: inspect_ai cannot read it ({why})") from None
    meta = (log.eval.metadata or {}).get("playbench")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ImportProblem(f"{path.name}: an Inspect log PlayBench did not write (its "
                            "eval.metadata has no 'playbench' header); only logs from "
                            "'playbench export --format inspect' can be imported")
    version = meta.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportProblem(f"{path.name}: eval.metadata.playbench.schema_version must be a "
                            "whole number")
    if version > SCHEMA_VERSION:
        raise ImportProblem(f"{path.name}: written by a newer PlayBench (schema {version}, this "
                            f"one reads {SCHEMA_VERSION}); upgrade PlayBench")
    return log


def _sample_parts(name: str, sample: Any) -> tuple[dict, list, str]:
    where = f"{name}: sample {sample.id} epoch {sample.epoch}"
    kept = (sample.metadata or {}).get("playbench")
    if not isinstance(kept, dict) or not isinstance(kept.get("episode"), dict) \
            or not isinstance(kept.get("steps"), list):
        raise ImportProblem(f"{where}: its metadata has no PlayBench episode and steps (a sample "
                            "added by another tool?)")
    return kept["episode"], kept["steps"], where


def rebuild_export(logs: list[Path], directory: Path) -> _Origin:
    """Write the JSONL export the logs hold into ``directory``; returns where each line came
    from. Only the logs' structure is checked here; the lines are checked by the importer."""
    origin = _Origin()
    frames = directory / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    studies: dict[str, dict] = {}
    counts = {"episodes": 0, "steps": 0}
    written: set[str] = set()
    with open(directory / "episodes.jsonl", "w", encoding="utf-8") as ef, \
            open(directory / "steps.jsonl", "w", encoding="utf-8") as sf:
        for path in logs:
            log = read_log(path)
            study = (log.eval.metadata or {})["playbench"].get("study")
            if isinstance(study, dict) and isinstance(study.get("id"), str) \
                    and study["id"] not in studies:
                studies[study["id"]] = study
                origin.studies.append(f"{path.name}: eval.metadata.playbench.study")
            for sample in log.samples or []:
                episode, steps, where = _sample_parts(path.name, sample)
                ef.write(_line(episode, where))
                origin.episodes.append(where)
                counts["episodes"] += 1
                for i, step in enumerate(steps):
                    sf.write(_line(step, f"{where}: steps[{i}]"))
                    origin.steps.append(f"{where}: steps[{i}]")
                counts["steps"] += len(steps)
                for digest, png in frames_of(sample.messages).items():
                    if digest not in written and re.fullmatch(r"[0-9a-f]{64}", digest):
                        (frames / f"{digest}.png").write_bytes(png)
                        written.add(digest)
    with open(directory / "studies.jsonl", "w", encoding="utf-8") as f:
        for study in studies.values():
            f.write(_line(study, "study"))
    manifest = {"format": JSONL_FORMAT, "schema_version": JSONL_SCHEMA,
                "playbench": __version__, **counts, "frames": len(written),
                "studies": len(studies)}
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return origin


def _line(obj: Any, where: str) -> str:
    if not isinstance(obj, dict):
        raise ImportProblem(f"{where}: expected an object")
    try:
        return dump(obj) + "\n"
    except (TypeError, ValueError) as err:
        raise ImportProblem(f"{where}: cannot be written as JSON ({err})") from None


def check_inspect(store: Store, logs: list[Path]) -> tuple[int, int, int, int]:
    """Check the logs as an import would, writing nothing; returns (episodes, steps, frames,
    studies)."""
    with tempfile.TemporaryDirectory(prefix="playbench-inspect-") as tmp:
        origin = rebuild_export(logs, Path(tmp))
        try:
            seen = check_bundle(store, Path(tmp))
        except ImportProblem as err:
            raise origin.where(err) from None
    return (len(seen.episodes), sum(seen.step_counts.values()), len(seen.frames),
            len(seen.studies))


def import_inspect(store: Store, logs: list[Path],
                   progress: Callable[[str, int], None] | None = None) -> ImportReport:
    """Merge the episodes of PlayBench's Inspect logs into ``store`` as the JSONL import does
    (all or nothing; episodes already here are skipped or extended)."""
    with tempfile.TemporaryDirectory(prefix="playbench-inspect-") as tmp:
        origin = rebuild_export(logs, Path(tmp))
        try:
            return import_bundle(store, Path(tmp), progress=progress)
        except ImportProblem as err:
            raise origin.where(err) from None
