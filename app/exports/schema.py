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


Whole = Annotated[int, Field(ge=0, le=WHOLE)]
Measure = Annotated[float, Field(ge=0, le=MAX_NUMBER, allow_inf_nan=False)]
Signed = Annotated[float, Field(ge=-MAX_NUMBER, le=MAX_NUMBER, allow_inf_nan=False)]
Time = Annotated[str, AfterValidator(_iso_time), Field(description="ISO 8601 time (UTC)")]
FrameName = Annotated[str, Field(pattern=FRAME_PATTERN)]
Schema = Annotated[int, Field(ge=1, description="the schema version, repeated per line"),
                   AfterValidator(_not_newer)]
Text36 = Annotated[str, Field(max_length=36)]
Text40 = Annotated[str, Field(max_length=40)]
Text64 = Annotated[str, Field(max_length=64)]
Text80 = Annotated[str, Field(max_length=80)]
Text100 = Annotated[str, Field(max_length=100)]
Text200 = Annotated[str, Field(max_length=200)]
Text300 = Annotated[str, Field(max_length=300)]
Text500 = Annotated[str, Field(max_length=500)]
"""Text of at most so many characters: its column's size."""
Uid = Annotated[str, Field(min_length=1, max_length=36)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
ScoreName = Annotated[str, Field(max_length=80)]
Free = Annotated[dict[str, Any], AfterValidator(_finite)]
"""A free-form JSON object (its keys and values are the recorder's or a kind's own)."""


class Line(BaseModel):
    """A line of an export: strict JSON types (a bool is never a number, a number never text);
    fields a reader does not know are ignored, so a later version may add some."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class Participant(Line):
    kind: Literal["human", "model", "script"]
    name: Name = Field(description="the participant's name (annotator pseudonym, model "
                                   "profile, script)")

    @model_validator(mode="before")
    @classmethod
    def _kind_and_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and (data.get("kind") not in KINDS or not isinstance(
                data.get("name"), str) or not data["name"]):
            raise problem(f"participant must have a kind ({', '.join(KINDS)}) and a name")
        return data


class Level(Line):
    id: int | None = Field(None, description="the task's id in the database it came from")
    hash: Text64 = Field(description="SHA-256 of game and level text")
    text: str = Field(description="the canonical start position")
    number: Whole = Field(description="the level's number in its source")
    title: Text300 | None = Field(None, description="the level's title")
    source: Text500 | None = Field(None, description="the pack or file it came from")
    meta: Free | None = Field(None, description="e.g. optimal, rbest")


class EpisodeLine(Line):
    """One line of episodes.jsonl: an episode, its task, participant and scores."""

    schema_: Schema = Field(1, alias="schema")
    id: Uid = Field(description="the episode's UUID (stable across databases)")
    local_id: int | None = Field(None, description="its id in the database it came from")
    participant: Participant
    participant_details: Free | None = Field(
        None, description="what is recorded about the participant (a model profile without "
        "secrets)")
    player: Text200 | None = Field(None, description="how the player was asked for: solver, "
                                                     "random, replay:12, model:NAME, human")
    game: Text40 = Field(description="the task kind: sokoban, maze, ...")
    level: Level
    setting: Text80 = Field(description="the play setting, e.g. default, ingvp:image-multi")
    budget: Free = Field(description="max_actions, max_decisions, seconds, ...")
    rules: Free = Field(description="rule options in force")
    seed: int = Field(ge=-WHOLE - 1, le=WHOLE, description="the episode seed (32-bit)")
    status: Literal["running", "done", "interrupted", "error"]
    end_reason: Text300 | None = Field(None, description="solved, budget, time, gave_up, ...")
    scores: dict[ScoreName, Signed | None] = Field(
        description="metric name to value (null when it does not apply)")
    n_steps: Whole = Field(description="steps recorded")
    start_state: Text64 | None = Field(None, description="hash of the start state")
    start_frame: FrameName | None = Field(None, description="file in frames/ of the first "
                                                            "observation")
    started: Time
    ended: Time | None = None
    study: Text36 | None = Field(None, description="the id of its study in studies.jsonl")
    practice: bool | None = Field(None, description="a study's practice task")
    owner: Text200 | None = Field(None, description="the process that recorded it (host:pid:start)")
    meta: Free | None = Field(None, description="run facts, e.g. study_task, repeat")


class Tokens(Line):
    prompt: Whole
    completion: Whole


class StepLine(Line):
    """One line of steps.jsonl: one action attempt of an episode, in order."""

    episode: str = Field(description="the episode's id (UUID)")
    index: Whole = Field(description="0-based step number")
    decision: Whole = Field(description="0-based decision (model call, human submission)")
    action: str | None = Field(None, description="canonical action text; null when nothing "
                                                 "readable was sent")
    raw: str = Field(description="what the player sent: a key or click, or the model's reply")
    valid: bool = Field(description="whether the action was applied")
    invalid_kind: Text40 | None = Field(None, description="no_action, malformed, "
                                                          "not_in_vocabulary, illegal, "
                                                          "not_allowed, timeout")
    invalid_reason: str | None = Field(None, description="the reason shown to the player")
    changed: bool = Field(description="whether the state changed")
    reward: Signed = Field(description="the game's step reward")
    state_hash: Text64 = Field(description="hash of the state after the step")
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
    """One line of studies.jsonl: a study and its members' recorded task orders."""

    schema_: Schema = Field(1, alias="schema")
    id: Text36 = Field(description="the study's UUID")
    name: Text200 = Field(description="the study's name")
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
    """The manifest.json of an export: its format, version and counts."""

    format: Literal["playbench-trajectories"]
    schema_version: Schema = Field(description="the format's version; a reader refuses one it "
                                               "does not know")
    playbench: Text100 | None = Field(None, description="the PlayBench version that wrote it")
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


FILES: dict[str, type[Line]] = {"manifest.json": Manifest, "episodes.jsonl": EpisodeLine,
                                "steps.jsonl": StepLine, "studies.jsonl": StudyLine}
"""Each file of an export and the model of its lines (of the whole file, for the manifest)."""


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every file of an export, keyed by file name, as
    ``playbench export --schema`` prints it and docs/export-format.md carries it."""
    return {"format": FORMAT, "schema_version": SCHEMA_VERSION,
            "files": {name: model.model_json_schema(by_alias=True)
                      for name, model in FILES.items()}}
