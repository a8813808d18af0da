"""The shapes of study and sweep files (YAML) as pydantic models, and their problems in our words.

A file is read in two steps: these models hold each field to its type and range (strict: ``yes``
is not true, ``"5"`` is not a number), then ``app.studies.spec`` and ``app.studies.sweepfile``
check what a shape cannot say (a level pack exists, a setting is known, a budget adds up).
A researcher fixes a whole file in one go, so every problem is collected: each top-level field
and each task entry is validated on its own (:func:`validate_fields`), and a bad one never hides
the others. Problems name the field (``tasks[2].setting``) and say what it must be, with a short
excerpt of what was given. The formats are documented in docs/studies.md and docs/sweeps.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from playbench.games.yamlfile import excerpt

MAX_SECONDS = 24 * 3600.0
"""Longest per-task time limit accepted (a day); longer ones are almost surely a typo."""
MAX_DESCRIBED = 20_000
"""Characters allowed in each of the organizer's description texts."""
SCRIPTED = ("solver", "random", "random-legal", "idle")
"""Scripted players a sweep may name besides ``model:NAME``."""


@dataclass(frozen=True)
class FieldProblem:
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"


@dataclass
class Problems:
    """Collects the problems of one file while it is read; ``base`` is the file's folder
    (relative level and text files are found beside it)."""

    base: Path
    problems: list[FieldProblem] = field(default_factory=list)

    def add(self, where: str, reason: str) -> None:
        self.problems.append(FieldProblem(where, reason))


Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS)]
Budget = int | dict[str, Any]
"""A number of actions, or a mapping of budget fields (each checked by ``Budget.from_dict``)."""


class FileModel(BaseModel):
    """A mapping of a study or sweep file. ``SAYS`` holds, per field, what it must be as the
    researcher reads it (``"must be true or false"``, ``"is required (e.g. sokoban)"``); a
    ``"must ..."`` reason is followed by an excerpt of the value given."""

    model_config = ConfigDict(strict=True, extra="forbid", arbitrary_types_allowed=True)
    SAYS: ClassVar[dict[str, str]] = {}


class StudyTaskEntry(FileModel):
    """One entry of a study's ``tasks`` or ``practice`` list."""

    game: str
    levels: str | int = Field(description="PACK_OR_FILE[:RANGE]")
    setting: str = "default"
    time_limit: Seconds | None = None
    rules: dict[Any, Any] | None = None
    level_format: str | None = None
    check: Any = None
    """Parsed by ``app.studies.quality.CheckRule``."""

    SAYS = {"game": "is required (e.g. sokoban)",
            "levels": "is required: PACK_OR_FILE[:RANGE]",
            "setting": "must be a setting name",
            "time_limit": f"must be a number of seconds above 0 and at most {MAX_SECONDS:g}",
            "rules": "must be a mapping NAME: VALUE",
            "level_format": "must be a format name"}


class StudyFile(FileModel):
    """A study file's top level (docs/studies.md)."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    description: str | None = None
    blind: bool = False
    order: Literal["fixed", "random"] = "fixed"
    seed: Annotated[int, Field(ge=0)] | None = None
    budget: Budget | None = None
    time_limit: Seconds | None = None
    practice: list[Any] | None = None
    tasks: Annotated[list[Any], Field(min_length=1)]
    exclusions: list[Any] | None = None
    annotators: Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]],
                          Field(min_length=1)] | None = None
    invites: Annotated[int, Field(ge=1, le=10_000)] | None = None
    instructions: Any = None
    consent: Any = None
    ask_seen_before: Any = None
    """The three texts above are read by ``app.studies.texts`` (text or ``{file: NAME.md}``)."""
    population: Annotated[str, Field(max_length=MAX_DESCRIBED)] | None = None
    sampling: Annotated[str, Field(max_length=MAX_DESCRIBED)] | None = None
    compensation: Annotated[str, Field(max_length=MAX_DESCRIBED)] | None = None

    SAYS = {"name": "is required (a short name for the study)",
            "name/string_too_long": "must be at most 200 characters, without spaces around it",
            "description": "must be text",
            "budget": "must be a number of actions or a mapping of budget fields",
            "time_limit": StudyTaskEntry.SAYS["time_limit"],
            "order": "must be one of fixed, random",
            "seed": "must be a whole number >= 0",
            "blind": "must be true or false",
            "practice": "must be a list of tasks",
            "tasks": "at least one task is needed",
            "exclusions": "must be a list of rules such as \"failed_checks >= 1\"",
            "annotators": "must be a list of annotator names (pseudonyms)",
            "annotators[]": "must be a name without spaces around it",
            "invites": "must be a number of codes from 1 to 10000",
            **{k: "must be text describing the study, at most "
                  f"{MAX_DESCRIBED} characters" for k in ("population", "sampling",
                                                          "compensation")}}


class SweepTaskEntry(FileModel):
    """One entry of a sweep's ``tasks`` list."""

    game: str
    levels: str | int = Field(description="PACK_OR_FILE[:RANGE]")
    setting: str | None = None
    settings: str | Annotated[list[str], Field(min_length=1)] | None = None
    rules: dict[Any, Any] | None = None
    level_format: str | None = None

    SAYS = {**{k: v for k, v in StudyTaskEntry.SAYS.items() if k != "time_limit"},
            "settings": "must be a list of setting names"}


class SweepFile(FileModel):
    """A sweep file's top level (docs/sweeps.md)."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    description: Any = None
    participants: str | Annotated[list[Any], Field(min_length=1)]
    """Each ``model:NAME`` or a scripted player's name (checked by ``app.studies.sweepfile``)."""
    tasks: Annotated[list[Any], Field(min_length=1)]
    repeats: Annotated[int, Field(ge=1)] = 1
    budget: Budget | None = None
    seed: Annotated[int, Field(ge=0)] = 0

    SAYS = {"name": "is required (a short name for the sweep)",
            "participants": "a list of players is needed (model:NAME or "
                            f"{', '.join(SCRIPTED)})",
            "tasks": "a list of at least one task is needed",
            "repeats": "must be a whole number >= 1",
            "budget": StudyFile.SAYS["budget"],
            "seed": "must be a whole number >= 0"}


_ADAPTERS: dict[tuple[type[FileModel], str], TypeAdapter[Any]] = {}


def _adapter(model: type[FileModel], name: str) -> TypeAdapter[Any]:
    """A validator of one field of ``model`` alone, built once (models are fixed, so the cache
    only ever holds one per field)."""
    key = (model, name)
    if key not in _ADAPTERS:
        info = model.model_fields[name]
        shape: Any = (Annotated[info.annotation, *info.metadata] if info.metadata
                      else info.annotation)
        _ADAPTERS[key] = TypeAdapter(shape, config=ConfigDict(strict=True))
    return _ADAPTERS[key]


def field_order(model: type[FileModel], problem: FieldProblem) -> int:
    """Where a problem's top-level field comes in ``model`` (unknown fields first), so that a
    file's problems are listed in the order of its fields whichever check found them."""
    top = problem.field.split(".", 1)[0].split("[", 1)[0]
    names = list(model.model_fields)
    return names.index(top) if top in names else -1


def validate_fields(model: type[FileModel], data: Mapping[Any, Any], where: str,
                    problems: Problems) -> dict[str, Any]:
    """The fields of ``data`` that fit ``model``, each validated on its own, so that every bad
    field is reported (to ``problems``, under ``where``, e.g. ``tasks[1]``): unknown fields,
    missing ones and values of the wrong shape. An optional field that is absent or does not
    fit gets its default; a required one that does not is left out of the result."""
    prefix = f"{where}." if where else ""
    known = list(model.model_fields)
    for key in data:
        if key not in model.model_fields:
            problems.add(f"{prefix}{key}", f"unknown field (known: {', '.join(known)})")
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if name not in data or data[name] is None and not info.is_required():
            if info.is_required():
                problems.add(f"{prefix}{name}", model.SAYS.get(name, "is required"))
            else:
                out[name] = info.get_default(call_default_factory=True)
            continue
        try:
            out[name] = _adapter(model, name).validate_python(data[name])
        except ValidationError as err:
            problems.add(*_say(model, prefix, name, data[name], err))
            if not info.is_required():
                out[name] = info.get_default(call_default_factory=True)
    return out


def _say(model: type[FileModel], prefix: str, name: str, value: Any,
         err: ValidationError) -> tuple[str, str]:
    """(field, reason) of the first error of one field's validation."""
    first = err.errors(include_url=False)[0]
    items = [p for p in first["loc"] if isinstance(p, int)]  # (a union's branch names aside)
    at = f"{prefix}{name}"
    says = model.SAYS.get(f"{name}/{first['type']}", model.SAYS.get(name))
    if items and f"{name}[]" in model.SAYS:  # an item of a list
        at, says, value = f"{at}[{items[0]}]", model.SAYS[f"{name}[]"], first.get("input")
    if says is None:
        return at, first["msg"]
    if not says.startswith("must"):
        return at, says
    return at, f"{says}, got {excerpt(value)}"
