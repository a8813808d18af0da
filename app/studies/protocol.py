"""A study's protocol as stored in ``studies.protocol``, and storing a checked study file.

The protocol names levels by game and content hash (never by a database id), so it means the
same thing in every database a study is exported to or merged into. Its fingerprint covers what
decides comparability (tasks, settings, budgets, time limits, order, blinding); two studies with
the same name and fingerprint are the same study (annotators who created it from the same file
on their own laptops).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.settings import Setting, get_setting
from playbench.app.core.task import Task as PlayTask
from playbench.app.studies.invites import invite_batch
from playbench.app.studies.quality import CheckRule, ExclusionRule
from playbench.app.studies.spec import StudySpec
from playbench.app.studies.texts import StudyTexts
from playbench.db.episodes import task_by_level, task_ids_by_level
from playbench.db.store import NotFound, Store
from playbench.db.studies import StudyInfo
from playbench.games.base import Level

PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class ProtocolTask:
    """One entry of a stored study: what to play, how, and whether it is scored."""

    key: str
    practice: bool
    game: str
    level_hash: str
    level_number: int
    level_title: str
    source: str
    setting: str
    rules: Mapping[str, str]
    budget: Mapping[str, Any]
    time_limit: float | None
    check: CheckRule | None = None
    """An attention (gold) task's pass rule; never shown to the annotator."""

    def to_dict(self) -> dict[str, Any]:
        out = {"key": self.key, "practice": self.practice, "game": self.game,
               "level_hash": self.level_hash, "level_number": self.level_number,
               "level_title": self.level_title, "source": self.source,
               "setting": self.setting, "rules": dict(self.rules), "budget": dict(self.budget),
               "time_limit": self.time_limit}
        if self.check is not None:  # absent otherwise: older studies keep their fingerprint
            out["check"] = self.check.record()
        return out

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ProtocolTask:
        return ProtocolTask(key=d["key"], practice=bool(d["practice"]), game=d["game"],
                            level_hash=d["level_hash"], level_number=int(d["level_number"]),
                            level_title=d.get("level_title", ""), source=d.get("source", ""),
                            setting=d["setting"], rules=dict(d.get("rules") or {}),
                            budget=dict(d["budget"]), time_limit=d.get("time_limit"),
                            check=None if d.get("check") is None else CheckRule.parse(d["check"]))

    @property
    def budget_value(self) -> Budget:
        return Budget.from_dict(self.budget)

    def setting_value(self) -> Setting:
        return get_setting(self.setting, self.game)

    def label(self) -> str:
        return f"{self.game} {self.level_number} ({self.setting})"


@dataclass(frozen=True)
class Protocol:
    """A stored study, typed."""

    id: int
    uid: str
    name: str
    description: str
    blind: bool
    order: str
    seed: int | None
    tasks: tuple[ProtocolTask, ...]
    exclusions: tuple[ExclusionRule, ...] = ()
    """Declared rules first, then post-hoc ones (``ExclusionRule.post_hoc``)."""
    sealed: bool = False
    """Blind with a researcher credential (``app.studies.credential``)."""
    roster: tuple[str, ...] = ()
    """Annotators allowed to take part (``app.studies.admission``); () for no list."""
    invites: bool = False
    """Whether taking part needs an invite code."""
    texts: StudyTexts = StudyTexts()
    """Instructions, consent text and the "seen before?" question, as stored at creation."""

    @property
    def scored(self) -> list[ProtocolTask]:
        return [t for t in self.tasks if not t.practice]

    @property
    def checks(self) -> list[ProtocolTask]:
        return [t for t in self.tasks if t.check is not None]

    @property
    def practice(self) -> list[ProtocolTask]:
        return [t for t in self.tasks if t.practice]

    def task(self, key: str) -> ProtocolTask:
        for t in self.tasks:
            if t.key == key:
                return t
        raise KeyError(key)


def protocol_dict(spec: StudySpec, researcher: Mapping[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The JSON stored in ``studies.protocol`` for a checked study file; ``researcher`` is
    a credential verifier that seals a blind study (kept out of the fingerprint: two copies
    of one study may have different credentials)."""
    tasks = [ProtocolTask(
        key=t.key, practice=t.practice, game=t.task.game, level_hash=t.task.level_hash,
        level_number=t.task.level.number, level_title=t.task.level.title,
        source=t.task.source, setting=t.setting, rules=dict(t.task.options),
        budget=t.budget.to_dict(), time_limit=t.time_limit, check=t.check).to_dict()
        for t in spec.tasks]
    data = {"version": PROTOCOL_VERSION, "description": spec.description, "blind": spec.blind,
            "order": spec.order, "seed": spec.seed, "budget": dict(spec.budget),
            "time_limit": spec.time_limit, "tasks": tasks, "file": spec.source_text}
    data.update(spec.described)  # population, sampling, compensation: not in the fingerprint
    if spec.exclusions:
        data["exclusions"] = [r.text() for r in spec.exclusions]
    if researcher is not None:
        data["researcher"] = dict(researcher)
    if spec.roster:
        data["annotators"] = list(spec.roster)
    if spec.texts.instructions:
        data["instructions"] = spec.texts.instructions
    if spec.texts.consent:
        data["consent"] = spec.texts.consent
    if spec.texts.ask_seen_before:
        data["ask_seen_before"] = True
    if spec.invites:
        data["invite_codes"] = [{"code": c, "used_by": None, "used_at": None}
                                for c in invite_batch(spec.invites)]
    data["fingerprint"] = fingerprint(data)
    return data


def fingerprint(protocol: Mapping[str, Any]) -> str:
    """Hash of what makes two studies comparable (not the description or file text)."""
    keys = ("key", "practice", "game", "level_hash", "setting", "rules", "budget",
            "time_limit")
    core: dict[str, Any] = {
        "blind": protocol.get("blind"), "order": protocol.get("order"),
        "seed": protocol.get("seed"),
        "tasks": [{k: t.get(k) for k in keys + (("check",) if "check" in t else ())}
                  for t in protocol.get("tasks", [])]}
    # Each only when given, so that older studies keep their fingerprint. The instructions
    # and consent texts count: people who read other instructions played another protocol.
    for optional in ("exclusions", "annotators", "instructions", "consent",
                     "ask_seen_before"):
        if protocol.get(optional):
            core[optional] = protocol[optional]
    text = json.dumps(core, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def create_study(store: Store, spec: StudySpec,
                 researcher: Mapping[str, Any] | None = None) -> Protocol:
    """Store a checked study and its levels (one transaction) and return it typed;
    ``researcher`` (a credential verifier) seals a blind study."""
    if researcher is not None and not spec.blind:
        raise ValueError("only a blind study takes a researcher credential (set blind: true)")
    tasks = [{"game": t.task.game, "level_hash": t.task.level_hash,
              "level_text": t.task.level.text, "number": t.task.level.number,
              "title": t.task.level.title, "source": t.task.source,
              "meta": dict(t.task.level.meta)} for t in spec.tasks]
    store.create_study(spec.name, protocol_dict(spec, researcher), tasks)
    return load_protocol(store, spec.name)


def load_protocol(store: Store, name: str) -> Protocol:
    """The study called ``name``; raises ``playbench.db.store.NotFound`` naming the known ones."""
    return protocol_of(store.study(name))


def protocol_of(row: StudyInfo) -> Protocol:
    p = row.protocol or {}
    return Protocol(id=row.id, uid=row.uid, name=row.name,
                    description=p.get("description", ""), blind=bool(p.get("blind", False)),
                    order=p.get("order", "fixed"), seed=p.get("seed"),
                    tasks=tuple(ProtocolTask.from_dict(t) for t in p.get("tasks", [])),
                    exclusions=tuple(
                        [ExclusionRule.parse(r) for r in p.get("exclusions", [])]
                        + [ExclusionRule.parse(r["rule"], post_hoc=True, added=r.get("added", ""))
                           for r in p.get("post_hoc_exclusions", [])]),
                    sealed=bool(p.get("blind") and p.get("researcher")),
                    roster=tuple(p.get("annotators") or ()),
                    invites=bool(p.get("invite_codes")),
                    texts=StudyTexts(str(p.get("instructions") or ""),
                                     str(p.get("consent") or ""),
                                     bool(p.get("ask_seen_before"))))


def play_task(store: Store, entry: ProtocolTask) -> PlayTask:
    """The playable task of a protocol entry, rebuilt from the stored level."""
    row = task_by_level(store.db, entry.game, entry.level_hash)
    if row is None:
        raise NotFound(f"study task {entry.key}: level {entry.level_hash[:12]} of "
                       f"{entry.game} is not in this database")
    level = Level(row.game, row.level_text, row.level_number, row.title, dict(row.meta or {}))
    return PlayTask(row.game, level, dict(entry.rules), row.source)


def task_ids(store: Store, protocol: Protocol) -> dict[str, int]:
    """Task key -> tasks.id in this database (levels missing here are left out)."""
    found = task_ids_by_level(store.db, (t.level_hash for t in protocol.tasks))
    return {t.key: found[(t.game, t.level_hash)] for t in protocol.tasks
            if (t.game, t.level_hash) in found}
