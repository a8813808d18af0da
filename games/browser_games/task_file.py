"""A GameWorld task YAML (``catalog/tasks/<NN_name>/<NN_k>.yaml``) as a pydantic model.

GameWorld writes these files itself, so the model reads them as GameWorld does: text fields
may be written as numbers (``task_id: 1``), numbers as numeric text, keys we do not know are
ignored (a newer catalog still loads). What it refuses, :func:`problem_of` says naming the field
(``field 'max_steps' must be a positive whole number, got 2.5``); ``catalog.parse_task`` adds
the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from playbench.games.yamlfile import excerpt

DEFAULT_MAX_STEPS = 100


def _text(value: Any) -> Any:
    """A number written where text is meant is that text (GameWorld's ids are often numbers)."""
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("a number, not true or false")
    return value


Text = Annotated[str, BeforeValidator(_text), Field(strict=True)]
Number = Annotated[float, BeforeValidator(_not_bool), Field(allow_inf_nan=False)]
Flag = Annotated[bool, Field(strict=True)]


class EvaluatorConfig(BaseModel):
    """A task's ``evaluator_config``: where its score and its end are read in getState()."""

    model_config = ConfigDict(extra="ignore")

    score_field: Text
    end_field: Text = "terminal.isTerminal"
    terminal_status: Text = "success"
    metrics_fields: list[Text] = []


class TaskFile(BaseModel):
    """A task YAML's fields PlayBench uses."""

    model_config = ConfigDict(extra="ignore")

    task_id: Text
    game_id: Text
    task_target_score_field: Number
    task_start_score_field: Number = 0.0
    evaluator_config: EvaluatorConfig
    evaluator_id: Text = "game_api_metric"
    max_steps: Annotated[Number, Field(ge=1, multiple_of=1)] = DEFAULT_MAX_STEPS
    pause_during_inference: Flag = True
    continue_on_fail: Flag = True
    task_prompt: Text = ""


SAYS = {"float": "must be a number", "bool": "must be true or false", "str": "must be text",
        "dict": "must be a mapping", "model": "must be a mapping", "list": "must be a list",
        "max_steps": "must be a positive whole number"}
"""What a field of each kind must be (``max_steps`` said for itself)."""


def problem_of(data: Any) -> tuple[TaskFile | None, str | None]:
    """(the task, None) or (None, ``field 'x' ...``: the first field at fault)."""
    try:
        return TaskFile.model_validate(data), None
    except ValidationError as err:
        return None, describe(err, {"max_steps": SAYS["max_steps"]})


def describe(err: ValidationError, says: Mapping[str, str]) -> str:
    """The first problem of ``err`` as ``field 'a.b[2]' must be ..., got <excerpt>``.
    ``says`` holds what a field must be beyond its type (a range, a list of names), by the
    field's own name; it is said when the value is of the right type but refused."""
    e = err.errors(include_url=False)[0]
    loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in e["loc"])
    loc = loc.replace(".[", "[")
    name = next((str(p) for p in reversed(e["loc"]) if isinstance(p, str)), "file")
    value = e.get("input")
    if e["type"] == "missing" or (value is None and e["type"].endswith("_type")):
        return f"field {loc!r} is missing"
    if e["type"] == "finite_number":
        return f"field {loc!r} must be a finite number, got {excerpt(value)}"
    kind = e["type"]
    wrong_type = kind.endswith(("_type", "_parsing")) or (
        kind == "value_error" and isinstance(value, bool))  # true or false given for a number
    if name in says and (name == "max_steps" or not wrong_type):
        return f"field {loc!r} {says[name]}, got {excerpt(value)}"
    said = next((text for k, text in SAYS.items() if kind.startswith(k)), None)
    if said is None and (wrong_type or kind == "value_error"):
        said = SAYS["float"]
    said = said or f"is not valid ({e['msg']})"
    return f"field {loc!r} {said}, got {excerpt(value)}"
