"""SQLAlchemy 2 models: who played what, every step, the frames seen, the scores.

Rows that travel between databases (exports, merges of annotators' laptops) carry a ``uid``
(UUID text) besides the integer key, so an import can recognise what it already holds.
Frames are content-addressed: a frame shown a thousand times is stored once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

import sqlalchemy as sa
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    # Named constraints let later migrations alter SQLite tables (batch mode needs names).
    metadata = MetaData(naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}
    # Every model maps one Table; saying so lets Core statements on ``Model.__table__``
    # type-check.
    __table__: ClassVar[sa.Table]


class Participant(Base):
    """A player: a human annotator (pseudonym), a model profile, or a script."""

    __tablename__ = "participants"
    __table_args__ = (UniqueConstraint("kind", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(36), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # human | model | script
    name: Mapped[str] = mapped_column(String(200))
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class Task(Base):
    """A level of a game, identified by its content hash (the same board is the same task)."""

    __tablename__ = "tasks"
    __table_args__ = (UniqueConstraint("game", "level_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    level_hash: Mapped[str] = mapped_column(String(64))
    level_text: Mapped[str] = mapped_column(Text)
    level_number: Mapped[int] = mapped_column(Integer, default=1)
    title: Mapped[str] = mapped_column(String(300), default="")
    source: Mapped[str] = mapped_column(String(500), default="")
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)


class Study(Base):
    """A named protocol: task list, budget, order and blinding (see the studies feature)."""

    __tablename__ = "studies"

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(36), unique=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    protocol: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    archived: Mapped[datetime | None] = mapped_column(default=None)
    """When the study was archived (it leaves the Studies list; nothing is deleted)."""


class Frame(Base):
    """A PNG image stored once, keyed by the hash of its pixels."""

    __tablename__ = "frames"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    png: Mapped[bytes] = mapped_column(LargeBinary)


class Episode(Base):
    """One play of one task by one participant under one setting and budget."""

    __tablename__ = "episodes"
    __table_args__ = (
        Index("ix_episodes_task", "task_id"),
        Index("ix_episodes_status", "status"),
        Index("ix_episodes_participant", "participant_id"),
        Index("ix_episodes_study", "study_id", "practice"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(36), unique=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))
    task_id: Mapped[int] = mapped_column(ForeignKey("tasks.id"))
    study_id: Mapped[int | None] = mapped_column(ForeignKey("studies.id"), default=None)
    setting: Mapped[str] = mapped_column(String(80), default="")
    player: Mapped[str] = mapped_column(String(200), default="")
    budget: Mapped[dict[str, Any]] = mapped_column(default=dict)
    rules: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="running")
    end_reason: Mapped[str | None] = mapped_column(String(300), default=None)
    n_steps: Mapped[int] = mapped_column(Integer, default=0)
    owner: Mapped[str] = mapped_column(String(200), default="")
    start_frame: Mapped[str | None] = mapped_column(ForeignKey("frames.hash"), default=None)
    start_state: Mapped[str] = mapped_column(String(64), default="")
    started: Mapped[datetime] = mapped_column(default=utcnow)
    ended: Mapped[datetime | None] = mapped_column(default=None)
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())
    """A study's practice task: recorded like any play, left out of results."""
    pending_step: Mapped[int | None] = mapped_column(Integer, default=None)
    """Step count when ``pending_ms`` was saved: whose decision the time belongs to."""
    pending_ms: Mapped[float | None] = mapped_column(Float, default=None)
    """Think time of the decision in flight (saved on pause and every half second), so a
    resumed episode's clock continues where it stopped."""


class StudyMember(Base):
    """An annotator (or model) taking part in a study, with the seed their task order was
    drawn from and the order itself, recorded when they first open their queue."""

    __tablename__ = "study_members"
    __table_args__ = (UniqueConstraint("study_id", "participant_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    task_order: Mapped[list[str]] = mapped_column(JSON, default=list)
    """Task keys in the order this member is given them (practice first)."""
    joined: Mapped[datetime] = mapped_column(default=utcnow)
    consented: Mapped[datetime | None] = mapped_column(default=None)
    """When the member accepted the study's consent text (NULL: not yet, or none asked)."""
    consent_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    instructions_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    """SHA-256 of the consent and instructions texts as shown when the member accepted."""
    seen_before: Mapped[bool | None] = mapped_column(Boolean, default=None)
    """The answer to the study's "seen these tasks before?" question (NULL: not asked)."""


class Step(Base):
    """One action attempt, valid or not, with what the player sent and what it did."""

    __tablename__ = "steps"
    __table_args__ = (UniqueConstraint("episode_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    episode_id: Mapped[int] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    decision: Mapped[int] = mapped_column(Integer)
    action: Mapped[str | None] = mapped_column(Text, default=None)
    raw: Mapped[str] = mapped_column(Text, default="")
    valid: Mapped[bool] = mapped_column(Boolean)
    invalid_kind: Mapped[str | None] = mapped_column(String(40), default=None)
    invalid_reason: Mapped[str | None] = mapped_column(Text, default=None)
    changed: Mapped[bool] = mapped_column(Boolean)
    reward: Mapped[float] = mapped_column(Float, default=0.0)
    state_hash: Mapped[str] = mapped_column(String(64), default="")
    frame: Mapped[str | None] = mapped_column(ForeignKey("frames.hash"), default=None)
    think_ms: Mapped[float] = mapped_column(Float, default=0.0)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost: Mapped[float] = mapped_column(Float, default=0.0)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    created: Mapped[datetime] = mapped_column(default=utcnow)
    info: Mapped[dict[str, Any]] = mapped_column(default=dict)


class Score(Base):
    """One metric of one episode (NULL when the metric does not apply, e.g. steps/optimal
    of an unsolved level)."""

    __tablename__ = "scores"
    __table_args__ = (UniqueConstraint("episode_id", "name"),
                      Index("ix_scores_name", "name", "episode_id", "value"))

    id: Mapped[int] = mapped_column(primary_key=True)
    episode_id: Mapped[int] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(80))
    value: Mapped[float | None] = mapped_column(Float, default=None)
