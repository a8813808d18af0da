"""A GameWorld game YAML (``catalog/games/<NN_name>.yaml``) as a pydantic model.

Read as :mod:`~playbench.games.browser_games.task_file` reads a task: GameWorld writes these
files, so text may be written as a number, a number as numeric text, and keys we do not know
are ignored (a newer catalog still loads); a mapping or list left empty (``null``) is empty.
Mapping keys written as numbers (a key ``1`` in ``key_durations``) are text too.
What the model refuses, :func:`problem_of` says naming the field by its whole path
(``game_roles[0].semantic_controls[2].binding.duration``); ``catalog.parse_game`` adds the
file and checks what one field cannot say alone (ids defined once, a ``press_key`` binding
names its key, ``demo_policy`` names controls of the first role).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
)

from playbench.games.browser_games.task_file import Flag, Number, Text, describe

DEFAULT_WIDTH = 1280
DEFAULT_HEIGHT = 720
DEFAULT_HOLD = 0.2
"""Seconds a key is held when the catalog names no duration (GameWorld's ``hold_duration``)."""
ACTIONS = ("press_key", "press_keys", "wait", "click", "double_click", "right_click",
           "type", "type_text", "scroll")
"""Binding actions a semantic control may name."""


def _empty_as(kind: type) -> BeforeValidator:
    """``null`` read as an empty ``kind`` (GameWorld leaves empty sections as ``null``)."""
    return BeforeValidator(lambda value: kind() if value is None else value)


def _known_action(value: str) -> str:
    if value not in ACTIONS:
        raise ValueError(f"must be one of {', '.join(ACTIONS)}")
    return value


def _loose_mapping(value: Any) -> Any:
    """A parameter's description: a mapping, anything else read as an empty one (GameWorld's
    files hold free-form text there at times)."""
    return value if isinstance(value, Mapping) else {}


Texts = Annotated[list[Text], _empty_as(list)]
Positive = Annotated[Number, Field(gt=0)]


class Spot(BaseModel):
    """A point on the page (``cell_bindings`` entries)."""

    model_config = ConfigDict(extra="ignore")

    x: Number
    y: Number


Spots = Annotated[dict[Text, Spot], _empty_as(dict)]


class BindingFile(BaseModel):
    """What a semantic control does (``binding``)."""

    model_config = ConfigDict(extra="ignore")

    action: Annotated[Text, AfterValidator(_known_action),
                      BeforeValidator(lambda v: "press_key" if v is None else v)] = "press_key"
    keys: Texts | None = None
    key: Text | None = None
    duration: Annotated[Number, Field(ge=0)] | None = None
    x: Number | None = None
    y: Number | None = None
    button: Text = "left"
    cell_bindings: Spots = {}
    cell_param: Any = None
    text_param: Any = None


class SemanticControlFile(BaseModel):
    """One entry of a role's ``semantic_controls``."""

    model_config = ConfigDict(extra="ignore")

    id: Text
    description: Text = ""
    binding: BindingFile
    parameters: Annotated[dict[Text, Annotated[dict[str, Any],
                                              BeforeValidator(_loose_mapping)]],
                          _empty_as(dict)] = {}
    required: Texts = []


class ComputerUseFile(BaseModel):
    """A role's ``computer_use_controls``."""

    model_config = ConfigDict(extra="ignore")

    allowed_keys: Texts = []
    allow_clicks: Flag = True
    hold_duration: Number = DEFAULT_HOLD
    key_durations: Annotated[dict[Text, Number], _empty_as(dict)] = {}


class PromptFile(BaseModel):
    """A role's ``prompt`` sections."""

    model_config = ConfigDict(extra="ignore")

    role_section: Text = ""
    computer_use_controls_section: Text = ""


class RoleFile(BaseModel):
    """One entry of ``game_roles``."""

    model_config = ConfigDict(extra="ignore")

    name: Text | None = None
    prompt: Annotated[PromptFile, _empty_as(dict)] = PromptFile()
    computer_use_controls: Annotated[ComputerUseFile, _empty_as(dict)] = ComputerUseFile()
    semantic_controls: Annotated[list[SemanticControlFile], _empty_as(list)] = []


class GameFile(BaseModel):
    """A game YAML's fields PlayBench uses."""

    model_config = ConfigDict(extra="ignore")

    game_name: Text
    game_rules: Text = ""
    game_roles: Annotated[list[RoleFile], _empty_as(list), Field(min_length=1)]
    speed_multiplier: Positive = 1.0
    player_mode: Text = "single"
    width: Annotated[Number, Field(ge=1)] = DEFAULT_WIDTH
    height: Annotated[Number, Field(ge=1)] = DEFAULT_HEIGHT
    url: Text | None = None
    cell_bindings: Spots = {}
    demo_policy: Texts = []


SAYS = {"game_roles": "must list at least one role", "speed_multiplier": "must be positive",
        "width": "must be positive", "height": "must be positive",
        "duration": "must not be negative", "action": f"must be one of {', '.join(ACTIONS)}"}
"""What these fields must be beyond their type, said for each (a range, a list of names)."""


def problem_of(data: Any) -> tuple[GameFile | None, str | None]:
    """(the game, None) or (None, ``field 'x' ...``: the first field at fault)."""
    try:
        return GameFile.model_validate(data), None
    except ValidationError as err:
        return None, describe(err, SAYS)
