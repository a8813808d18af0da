"""The data-release folder beside a study report (``DIR/data/``): the JSONL export of the
episodes the scores come from, the report's tables as CSV, and the study's protocol.

The release is meant to be published, so the stored protocol goes out without the two
things in it that grant access: a sealed study's credential verifier (an offline guess at
the passphrase could be checked against it) and the invite codes themselves (an unused one
would still admit its holder); it says instead that the study was sealed and how many codes
were made and used.
"""

from __future__ import annotations

import copy
import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from playbench.app.exports.csv import write_leaderboard
from playbench.app.exports.jsonl import export_jsonl
from playbench.app.exports.report.checklist import Item
from playbench.app.exports.report.facts import ReportFacts
from playbench.db.store import Store


def redacted(protocol: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol without its credential verifier and invite code values."""
    out = copy.deepcopy(dict(protocol))
    if out.pop("researcher", None) is not None:
        out["sealed"] = True
    codes = out.pop("invite_codes", None)
    if codes:
        out["invite_codes_made"] = len(codes)
        out["invite_codes_used"] = sum(1 for c in codes if c.get("used_by"))
    return out


def _csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow(["" if v is None else v for v in row])


def _redact_studies(jsonl: Path) -> None:
    """Rewrite ``studies.jsonl`` of an export with each protocol redacted."""
    path = jsonl / "studies.jsonl"
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        obj["protocol"] = redacted(obj.get("protocol") or {})
        lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def write_release(store: Store, facts: ReportFacts, items: Sequence[Item], out: Path
                  ) -> dict[str, int]:
    """Write the release into ``out`` (a new folder); returns what it holds."""
    out.mkdir(parents=True)
    ids = [e.id for e in facts.included]
    if ids:  # the exporter reads an empty list as "every episode of the database"
        export_jsonl(store, out / "episodes", ids)
        _redact_studies(out / "episodes")
    (out / "protocol.json").write_text(
        json.dumps(redacted(facts.protocol), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8")
    with open(out / "scores.csv", "w", encoding="utf-8", newline="") as f:
        write_leaderboard(facts.board, f)
    _csv(out / "people.csv",
         ["person", "joined", "consented", "consent_text_matches", "instructions_match",
          "seen_before", "tasks_done", "checks_passed", "checks_failed", "active_seconds",
          "median_task_seconds", "finished", "excluded_by"],
         [[p.name, p.joined, p.consented, p.consent_matches, p.instructions_match,
           p.seen_before, p.tasks_done, p.checks_passed, p.checks_failed,
           round(p.active_seconds, 3), p.median_task_seconds, p.finished,
           "; ".join(p.excluded_by)] for p in facts.people])
    _csv(out / "task_times.csv",
         ["participant", "task", "role", "status", "actions", "active_seconds",
          "wall_seconds"],
         [[t.participant, t.task, t.role, t.status, t.actions, round(t.active_seconds, 3),
           None if t.wall_seconds is None else round(t.wall_seconds, 3)] for t in facts.times])
    _csv(out / "budgets.csv",
         ["participant", "episodes", "max_actions", "seconds", "action_seconds",
          "mean_actions", "mean_active_seconds"],
         [[b.who, b.episodes, b.max_actions, b.seconds, b.action_seconds, b.mean_actions,
           None if b.mean_active_seconds is None else round(b.mean_active_seconds, 3)]
          for b in facts.budgets])
    _csv(out / "checklist.csv", ["item", "status", "text"],
         [[i.topic, i.status, i.text] for i in items])
    _csv(out / "deviations.csv", ["deviation"], [[d] for d in facts.deviations])
    return {"episodes": len(ids), "people": len(facts.people), "scores": len(facts.board.rows)}
