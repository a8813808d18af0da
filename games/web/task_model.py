"""The shape of a web task object (VWA's fields and PlayBench's ``playbench`` block) as a
pydantic model.

The model says only what type each of the task's own fields has; what the evaluation fields
mean (evaluator names, check keys, helper calls, files that must exist) is checked by
:mod:`playbench.games.web.checks`, and which fields must be present there too (VWA counts an
empty value as missing). Every VWA field keeps the meaning VWA gives it: fields PlayBench only
carries (``intent_template``, ``comments`` ...) take any value, and keys neither VWA nor
PlayBench knows are kept, as VWA's own files hold some (``checks`` warns about them).

:func:`shape_problems` turns the model's refusals into PlayBench's messages, one per field,
worded as the hand-written checks this model replaced worded them (``web check`` prints them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

PLAYBENCH_FIELD = "playbench"
"""The one field of its own PlayBench reads in a task object (VWA's tools ignore it)."""

Text = Annotated[str, Field(strict=True)]
Whole = Annotated[int, Field(strict=True)]
"""A whole number written as one (``3``, not ``3.0``, ``"3"`` or ``true``)."""


def _has_position(value: dict[str, Any]) -> dict[str, Any]:
    """VWA hands ``geolocation`` to the browser as is, which needs both coordinates."""
    if not {"latitude", "longitude"} <= set(value):
        raise ValueError("latitude and longitude are both needed")
    return value


class PlayBenchBlock(BaseModel):
    """The ``playbench`` block: actions that solve the task (``reference``), actions that
    must score 0 (``wrong``) and the viewport ``[width, height]`` the task is played in."""

    model_config = ConfigDict(extra="allow")

    reference: list[Text] = []
    wrong: list[Text] = []
    viewport: Annotated[list[Annotated[Whole, Field(ge=200, le=8000)]],
                        Field(min_length=2, max_length=2)] | None = None


class TaskShape(BaseModel):
    """One task object of a web task file (VWA's format, docs/reference/web.md)."""

    model_config = ConfigDict(extra="allow")

    # The default is never read: a missing task_id is reported as missing by the checks.
    task_id: Whole = 0
    geolocation: Annotated[dict[str, Any], AfterValidator(_has_position)] | None = None
    viewport_size: dict[Literal["width", "height"],
                        Annotated[Whole, Field(ge=100, le=8000)]] | None = None
    image: Text | Annotated[list[Any], Field(strict=True)] | None = None
    eval: Annotated[dict[str, Any], Field(strict=True)] | None = None
    playbench: PlayBenchBlock | None = None
    # VWA's other fields (tasks.KNOWN_FIELDS) are carried as written by extra="allow".


SAYS = {
    "geolocation": "must be null or an object with latitude and longitude",
    "viewport_size": 'must be {"width": W, "height": H} in pixels (100..8000)',
    "image": "must be null, a path or URL, or a list of them",
    "eval": "must be an object",
    PLAYBENCH_FIELD: "must be an object",
    f"{PLAYBENCH_FIELD}.reference": "must be a list of action texts",
    f"{PLAYBENCH_FIELD}.wrong": "must be a list of action texts",
    f"{PLAYBENCH_FIELD}.viewport": "must be [width, height] in pixels (200..8000)",
}
"""What each field must be, by the name problems are reported under."""


def _field_of(loc: tuple[int | str, ...]) -> str:
    """The name a refusal at ``loc`` is reported under: the task field, or for the PlayBench
    block the block's own field (a wrong item of ``reference`` is ``playbench.reference``)."""
    top = str(loc[0])
    if top == PLAYBENCH_FIELD and len(loc) > 1 and isinstance(loc[1], str) \
            and f"{top}.{loc[1]}" in SAYS:
        return f"{top}.{loc[1]}"
    return top


def shape_problems(config: Mapping[str, Any]) -> dict[str, str]:
    """What is wrong with the types of ``config``'s fields: field name -> message, one per
    field, in the model's field order. Empty when the task has the shape VWA reads."""
    try:
        TaskShape.model_validate(config)
    except ValidationError as err:
        out: dict[str, str] = {}
        for e in err.errors(include_url=False):
            field = _field_of(e["loc"])
            if field == "task_id":
                out.setdefault(field, f"must be a whole number, got {config.get('task_id')!r}")
            else:
                out.setdefault(field, SAYS.get(field, f"is not valid ({e['msg']})"))
        return out
    return {}


def playbench_block(config: Mapping[str, Any]) -> PlayBenchBlock | None:
    """The task's PlayBench block when it has a usable one, else None (no block, or one of the
    wrong shape, which :func:`shape_problems` reports)."""
    raw = config.get(PLAYBENCH_FIELD)
    if raw is None:
        return None
    try:
        return PlayBenchBlock.model_validate(raw)
    except ValidationError:
        return None


__all__ = ["PLAYBENCH_FIELD", "PlayBenchBlock", "TaskShape", "playbench_block", "shape_problems"]
