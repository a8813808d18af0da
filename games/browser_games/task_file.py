"""A GameWorld task YAML (``catalog/tasks/<NN_name>/<NN_k>.yaml``) as a pydantic model.

GameWorld writes these files itself, so the model reads them as GameWorld does: text fields
may be written as numbers (``task_id: 1``), numbers as numeric text, keys we do not know are
ignored (a newer catalog still loads). What it refuses, :func:`problem_of` says naming the field
(``field 'max_steps' must be a positive whole number, got 2.5``); ``catalog.parse_task`` adds
the file.
"""

from __future__ import annotations

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
        e = err.errors(include_url=False)[0]
    loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in e["loc"])
    loc = loc.replace(".[", "[")
    name = str(e["loc"][-1]) if e["loc"] else "file"
    value = e.get("input")
    if e["type"] == "missing" or (value is None and e["type"].endswith("_type")):
        return None, f"field {loc!r} is missing"
    if name == "max_steps":
        return None, f"field {loc!r} {SAYS['max_steps']}, got {excerpt(value)}"
    if e["type"] == "finite_number":
        return None, f"field {loc!r} must be a finite number, got {excerpt(value)}"
    kind = next((k for k in SAYS if e["type"].startswith(k)), None)
    if kind is None and e["type"] in ("value_error", "float_parsing"):
        kind = "float"
    says = SAYS.get(kind or "", f"is not valid ({e['msg']})")
    return None, f"field {loc!r} {says}, got {excerpt(value)}"
