"""The JSONL trajectory export's lines as pydantic models: the one definition of the format.

The exporter writes its lines with these models' fields, in their order; the importer holds every
line to them; docs/export-format.md carries their JSON Schema, printed by
``playbench export --schema`` (a test fails when the document and the models disagree). Field
descriptions are the documentation's own words.

The constraints are the database's: counted numbers fit a 32-bit column, measured numbers are
finite and at most :data:`MAX_NUMBER`, text fits its column (docs/security.md, "Imports"). An
export comes from another machine, so a refusal names the field it concerns
(:func:`describe` turns pydantic's error into our sentence).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

SCHEMA_VERSION = 1
FORMAT = "playbench-trajectories"
WHOLE = 2 ** 31 - 1
"""The largest whole number a counted field (index, tokens, steps, level number) may hold: the
columns are 32-bit integers on PostgreSQL."""
BIG = 2 ** 63 - 1
"""The largest 64-bit signed number (manifest counts, a study member's seed)."""
MAX_NUMBER = 1e15
"""The largest magnitude of a measured number (reward, milliseconds, cost, score)."""
KINDS = ("human", "model", "script")
STATUSES = ("running", "done", "interrupted", "error")
FRAME_PATTERN = r"^[0-9a-f]{64}\.png$"
"""A frame's file name under ``frames/``: its SHA-256 and ``.png`` (nothing that leaves the
directory)."""
PLAYBENCH = "playbench"
"""The error type of a refusal written in our own words (its message is used as it is)."""


def problem(text: str) -> PydanticCustomError:
    """A refusal whose message is ``text`` as written (braces in it are not a template)."""
    return PydanticCustomError(PLAYBENCH, "{text}", {"text": text})


def _iso_time(value: str, info: ValidationInfo) -> str:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise problem(f"{info.field_name}: {value[:60]!r} is not an ISO 8601 time") from None
    return value


NOT_FINITE = "a number in it is not finite"
"""The refusal of a free-form object holding a number too big for a float (``1e999`` read as
infinity); the reader then says which literal it was."""


def _finite(value: dict[str, Any]) -> dict[str, Any]:
    """A free-form object (info, meta, budget) holds only finite numbers."""
    if value and not _all_finite(value):
        raise problem(NOT_FINITE)
    return value


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return value - value == 0.0  # false for inf and nan
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


def _not_newer(value: int) -> int:
    if value > SCHEMA_VERSION:
        raise problem(f"schema version {value} is newer than this PlayBench reads "
                      f"({SCHEMA_VERSION}); upgrade PlayBench")
    return value


def _text(longest: int, description: str, shortest: int = 0) -> Any:
    return Annotated[str, Field(min_length=shortest, max_length=longest,
                                description=description)]


Whole = Annotated[int, Field(ge=0, le=WHOLE)]
Measure = Annotated[float, Field(ge=0, le=MAX_NUMBER, allow_inf_nan=False)]
Signed = Annotated[float, Field(ge=-MAX_NUMBER, le=MAX_NUMBER, allow_inf_nan=False)]
Time = Annotated[str, AfterValidator(_iso_time), Field(description="ISO 8601 time (UTC)")]
FrameName = Annotated[str, Field(pattern=FRAME_PATTERN)]
Schema = Annotated[int, Field(ge=1, description="the schema version, repeated per line"),
                   AfterValidator(_not_newer)]
ScoreName = Annotated[str, Field(max_length=80)]
Free = Annotated[dict[str, Any], AfterValidator(_finite)]
"""A free-form JSON object (its keys and values are the recorder's or a kind's own)."""


class Line(BaseModel):
    """A line of an export: strict JSON types (a bool is never a number, a number never text);
    fields a reader does not know are ignored, so a later version may add some."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class Participant(Line):
    kind: Literal["human", "model", "script"]
    name: _text(200, "the participant's name (annotator pseudonym, model profile, script)", 1)

    @model_validator(mode="before")
    @classmethod
    def _kind_and_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and (data.get("kind") not in KINDS or not isinstance(
                data.get("name"), str) or not data["name"]):
            raise problem(f"participant must have a kind ({', '.join(KINDS)}) and a name")
        return data


class Level(Line):
    id: int | None = Field(None, description="the task's id in the database it came from")
    hash: _text(64, "SHA-256 of game and level text")
    text: str = Field(description="the canonical start position")
    number: Whole = Field(description="the level's number in its source")
    title: _text(300, "the level's title") | None = None
    source: _text(500, "the pack or file it came from") | None = None
    meta: Free | None = Field(None, description="e.g. optimal, rbest")


class EpisodeLine(Line):
    """One line of ``episodes.jsonl``."""

    schema_: Schema = Field(1, alias="schema")
    id: _text(36, "the episode's UUID (stable across databases)", 1)
    local_id: int | None = Field(None, description="its id in the database it came from")
    participant: Participant
    participant_details: Free | None = Field(
        None, description="what is recorded about the participant (a model profile without "
        "secrets)")
    player: _text(200, "how the player was asked for: solver, random, replay:12, model:NAME, "
                       "human") | None = None
    game: _text(40, "the task kind: sokoban, maze, ...")
    level: Level
    setting: _text(80, "the play setting, e.g. default, ingvp:image-multi")
    budget: Free = Field(description="max_actions, max_decisions, seconds, ...")
    rules: Free = Field(description="rule options in force")
    seed: int = Field(ge=-WHOLE - 1, le=WHOLE, description="the episode seed (32-bit)")
    status: Literal["running", "done", "interrupted", "error"]
    end_reason: _text(300, "solved, budget, time, gave_up, ...") | None = None
    scores: dict[ScoreName, Signed | None] = Field(
        description="metric name to value (null when it does not apply)")
    n_steps: Whole = Field(description="steps recorded")
    start_state: _text(64, "hash of the start state") | None = None
    start_frame: FrameName | None = Field(None, description="file in frames/ of the first "
                                                            "observation")
    started: Time
    ended: Time | None = None
    study: _text(36, "the id of its study in studies.jsonl") | None = None
    practice: bool | None = Field(None, description="a study's practice task")
    owner: _text(200, "the process that recorded it (host:pid:start)") | None = None
    meta: Free | None = Field(None, description="run facts, e.g. study_task, repeat")


class Tokens(Line):
    prompt: Whole
    completion: Whole


class StepLine(Line):
    """One line of ``steps.jsonl``."""

    episode: str = Field(description="the episode's id (UUID)")
    index: Whole = Field(description="0-based step number")
    decision: Whole = Field(description="0-based decision (model call, human submission)")
    action: _text(2000, "canonical action text; null when nothing readable was sent") | None
    raw: str = Field(description="what the player sent: a key or click, or the model's reply")
    valid: bool = Field(description="whether the action was applied")
    invalid_kind: _text(40, "no_action, malformed, not_in_vocabulary, illegal, not_allowed, "
                            "timeout") | None = None
    invalid_reason: str | None = Field(None, description="the reason shown to the player")
    changed: bool = Field(description="whether the state changed")
    reward: Signed = Field(description="the game's step reward")
    state_hash: _text(64, "hash of the state after the step")
    frame: FrameName | None = Field(None, description="file in frames/ of the observation after "
                                                      "the step")
    think_ms: Measure = Field(description="time from observation to decision")
    tokens: Tokens = Field(description="prompt and completion tokens (model players)")
    cost: Measure = Field(description="money spent on the decision, in the profile's currency")
    latency_ms: Measure | None = Field(None, description="the model endpoint's answer time")
    info: Free = Field(description="extra facts (e.g. a model's separate reasoning)")


class Member(Line):
    participant: Participant
    seed: int = Field(ge=-BIG - 1, le=BIG)
    task_order: list[str] = Field(description="the member's recorded task keys, in order")
    joined: Time | None = None


class StudyLine(Line):
    """One line of ``studies.jsonl``."""

    schema_: Schema = Field(1, alias="schema")
    id: _text(36, "the study's UUID")
    name: _text(200, "the study's name")
    protocol: Free = Field(description="the stored protocol (docs/studies.md)")
    created: Time | None = None
    members: list[Member]

    @field_validator("protocol")
    @classmethod
    def _has_tasks(cls, protocol: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(protocol.get("tasks"), list):
            raise problem("protocol has no task list")
        return protocol


class Manifest(Line):
    """``manifest.json``."""

    format: Literal["playbench-trajectories"]
    schema_version: Schema
    playbench: _text(100, "the PlayBench version that wrote it") | None = None
    episodes: int = Field(ge=0, le=BIG)
    steps: int = Field(ge=0, le=BIG)
    frames: int = Field(ge=0, le=BIG)
    studies: int = Field(ge=0, le=BIG)

    @model_validator(mode="before")
    @classmethod
    def _format_first(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise problem(f"format is not {FORMAT!r}")
        return data
