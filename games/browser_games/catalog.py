"""Reading a GameWorld-layout catalog: game YAMLs, task YAMLs and the game folders.

A catalog root is any directory laid out as GameWorld lays out its repository
(docs/reference/browser-games.md, "GameWorld's repository layout"):

- ``catalog/games/<NN_name>.yaml``: one game (rules text, roles, their controls);
- ``catalog/tasks/<NN_name>/<NN_k>.yaml``: that game's tasks (targets, evaluator config);
- ``games/benchmark/<NN_name>/index.html`` (+ ``game_api.js`` and assets): the game itself.

PlayBench's bundled games (``games/browser_games/bundled``) and a user's GameWorld checkout are
read by the same code. Keys we do not know are ignored (a newer catalog still loads); a key we
need that is missing or has the wrong type raises :class:`CatalogError` naming the file and the
field. Our one extension is an optional top-level ``demo_policy`` list of semantic control ids
(the scripted offline policy cycles through it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.games import yamlfile
from playbench.games.base import LevelError
from playbench.games.browser_games import task_file
from playbench.games.yamlfile import excerpt

DEFAULT_WIDTH = 1280
DEFAULT_HEIGHT = 720
DEFAULT_HOLD = 0.2
"""Seconds a key is held when the catalog names no duration (GameWorld's ``hold_duration``)."""
DEFAULT_MAX_STEPS = task_file.DEFAULT_MAX_STEPS
ACTIONS = ("press_key", "press_keys", "wait", "click", "double_click", "right_click",
           "type", "type_text", "scroll")
"""Binding actions a semantic control may name."""


class CatalogError(LevelError):
    """A catalog file is missing, unreadable or has a field of the wrong shape; the message
    names the file and the field."""


@dataclass(frozen=True)
class Binding:
    """What a semantic control does: press keys for ``duration`` seconds, wait, click (at
    ``point`` or at the cell the call names) or type text."""

    action: str
    keys: tuple[str, ...] = ()
    duration: float | None = None
    point: tuple[int, int] | None = None
    button: str = "left"
    cell_param: str | None = None
    """The argument naming a cell (``cell``) when the control takes one."""
    cells: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    text_param: str | None = None


@dataclass(frozen=True)
class SemanticControl:
    id: str
    description: str
    binding: Binding
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComputerUseControls:
    allowed_keys: tuple[str, ...]
    allow_clicks: bool
    hold_duration: float
    key_durations: Mapping[str, float] = field(default_factory=dict)

    def duration_of(self, keys: Sequence[str]) -> float:
        """How long a key combination is held: the longest per-key duration it names, else
        the role's hold duration."""
        known = [self.key_durations[k] for k in keys if k in self.key_durations]
        return max(known) if known else self.hold_duration


@dataclass(frozen=True)
class Role:
    name: str
    role_prompt: str
    controls_prompt: str
    computer_use: ComputerUseControls
    semantic: tuple[SemanticControl, ...]

    def control(self, control_id: str) -> SemanticControl | None:
        return next((c for c in self.semantic if c.id == control_id), None)


@dataclass(frozen=True)
class GameSpec:
    """One game YAML."""

    game_id: str
    rules: str
    roles: tuple[Role, ...]
    speed_multiplier: float = 1.0
    player_mode: str = "single"
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    url: str | None = None
    cell_bindings: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    demo_policy: tuple[str, ...] = ()
    path: Path | None = None

    @property
    def role(self) -> Role:
        """The first role (the single player of a single-player game)."""
        return self.roles[0]


@dataclass(frozen=True)
class TaskSpec:
    """One task YAML."""

    task_id: str
    game_id: str
    target: float
    start: float
    score_field: str
    evaluator_id: str = "game_api_metric"
    max_steps: int = DEFAULT_MAX_STEPS
    pause_during_inference: bool = True
    continue_on_fail: bool = True
    prompt: str = ""
    end_field: str = "terminal.isTerminal"
    terminal_status: str = "success"
    metrics_fields: tuple[str, ...] = ()
    path: Path | None = None


# ---- field readers: each names the file and the field it refuses ----

def _where(path: Path | None, name: str) -> str:
    return f"{path}: field {name!r}" if path is not None else f"field {name!r}"


def _str(data: Mapping[str, Any], name: str, path: Path | None, default: str | None = None
         ) -> str:
    value = data.get(name, default)
    if value is None:
        raise CatalogError(f"{_where(path, name)} is missing")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise CatalogError(f"{_where(path, name)} must be text, got {type(value).__name__}")
    return str(value)


def _num(data: Mapping[str, Any], name: str, path: Path | None,
         default: float | None = None) -> float:
    value = data.get(name, default)
    if value is None:
        raise CatalogError(f"{_where(path, name)} is missing")
    if isinstance(value, bool):
        raise CatalogError(f"{_where(path, name)} must be a number, got {excerpt(value)}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise CatalogError(f"{_where(path, name)} must be a number, got {excerpt(value)}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise CatalogError(f"{_where(path, name)} must be a finite number, got {excerpt(value)}")
    return number


def _bool(data: Mapping[str, Any], name: str, path: Path | None, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise CatalogError(f"{_where(path, name)} must be true or false, got {excerpt(value)}")
    return value


def _map(data: Mapping[str, Any], name: str, path: Path | None,
         required: bool = False) -> Mapping[str, Any]:
    value = data.get(name)
    if value is None:
        if required:
            raise CatalogError(f"{_where(path, name)} is missing")
        return {}
    if not isinstance(value, Mapping):
        raise CatalogError(f"{_where(path, name)} must be a mapping, got "
                           f"{type(value).__name__}")
    return value


def _list(data: Mapping[str, Any], name: str, path: Path | None) -> list[Any]:
    value = data.get(name)
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise CatalogError(f"{_where(path, name)} must be a list, got {type(value).__name__}")
    return list(value)


def _strs(data: Mapping[str, Any], name: str, path: Path | None) -> tuple[str, ...]:
    out = []
    for i, item in enumerate(_list(data, name, path)):
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise CatalogError(f"{_where(path, f'{name}[{i}]')} must be text, got {excerpt(item)}")
        out.append(str(item))
    return tuple(out)


def _points(data: Mapping[str, Any], name: str, path: Path | None
            ) -> dict[str, tuple[int, int]]:
    out = {}
    for cell, spot in _map(data, name, path).items():
        where = f"{name}.{cell}"
        if not isinstance(spot, Mapping):
            raise CatalogError(f"{_where(path, where)} must be a mapping with x and y")
        out[str(cell)] = (int(_num(spot, "x", path)), int(_num(spot, "y", path)))
    return out


def read_yaml(path: Path) -> Mapping[str, Any]:
    """One YAML file as a mapping, read within :mod:`playbench.games.yamlfile`'s limits;
    CatalogError names the file (and the line, for a syntax error)."""
    try:
        data = yamlfile.read_yaml(path)
    except yamlfile.YamlError as err:
        raise CatalogError(str(err)) from None
    return _top_mapping(data, path)


def parse_yaml(text: str, path: Path | None = None) -> Mapping[str, Any]:
    """YAML text that must hold a mapping at its top."""
    try:
        data = yamlfile.load_yaml(text, str(path or "YAML"))
    except yamlfile.YamlError as err:
        raise CatalogError(str(err)) from None
    return _top_mapping(data, path)


def _top_mapping(data: Any, path: Path | None) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise CatalogError(f"{path or 'YAML'}: must be a mapping of fields, got "
                           f"{type(data).__name__}")
    return data


def _binding(data: Mapping[str, Any], path: Path | None, where: str,
             shared_cells: Mapping[str, tuple[int, int]]) -> Binding:
    action = _str(data, "action", path, "press_key")
    if action not in ACTIONS:
        raise CatalogError(f"{_where(path, where + '.action')} must be one of "
                           f"{', '.join(ACTIONS)}, got {excerpt(action)}")
    keys: tuple[str, ...] = ()
    if "keys" in data:
        keys = _strs(data, "keys", path)
    elif data.get("key") is not None:
        keys = tuple(k for k in _str(data, "key", path).split("+") if k)
    if action in ("press_key", "press_keys") and not keys:
        raise CatalogError(f"{_where(path, where + '.key')} is missing (a press_key binding "
                           "names its key)")
    duration = _num(data, "duration", path) if data.get("duration") is not None else None
    if duration is not None and duration < 0:
        raise CatalogError(f"{_where(path, where + '.duration')} must not be negative")
    point = None
    if data.get("x") is not None or data.get("y") is not None:
        point = (int(_num(data, "x", path)), int(_num(data, "y", path)))
    cells = _points(data, "cell_bindings", path) or dict(shared_cells)
    cell_param = None
    if data.get("cell_param"):
        cp = data["cell_param"]
        cell_param = cp if isinstance(cp, str) else "cell"
    text_param = None
    if action in ("type", "type_text"):
        tp = data.get("text_param")
        text_param = tp if isinstance(tp, str) else "text"
    return Binding(action, keys, duration, point, _str(data, "button", path, "left"),
                   cell_param, cells, text_param)


def _role(data: Any, path: Path | None, index: int,
          shared_cells: Mapping[str, tuple[int, int]]) -> Role:
    where = f"game_roles[{index}]"
    if not isinstance(data, Mapping):
        raise CatalogError(f"{_where(path, where)} must be a mapping")
    prompt = _map(data, "prompt", path)
    cu = _map(data, "computer_use_controls", path)
    durations = {str(k): _num(cu["key_durations"], k, path)
                 for k in _map(cu, "key_durations", path)}
    controls = ComputerUseControls(_strs(cu, "allowed_keys", path),
                                   _bool(cu, "allow_clicks", path, True),
                                   _num(cu, "hold_duration", path, DEFAULT_HOLD), durations)
    semantic = []
    seen: set[str] = set()
    for i, item in enumerate(_list(data, "semantic_controls", path)):
        at = f"{where}.semantic_controls[{i}]"
        if not isinstance(item, Mapping):
            raise CatalogError(f"{_where(path, at)} must be a mapping")
        cid = _str(item, "id", path)
        if cid in seen:
            raise CatalogError(f"{_where(path, at + '.id')}: {excerpt(cid)} is defined twice")
        seen.add(cid)
        params = {str(k): (v if isinstance(v, Mapping) else {})
                  for k, v in _map(item, "parameters", path).items()}
        binding = _binding(_map(item, "binding", path, required=True), path,
                           f"{at}.binding", shared_cells)
        semantic.append(SemanticControl(cid, _str(item, "description", path, ""), binding,
                                        params, _strs(item, "required", path)))
    return Role(_str(data, "name", path, f"role{index}"),
                _str(prompt, "role_section", path, ""),
                _str(prompt, "computer_use_controls_section", path, ""),
                controls, tuple(semantic))


def parse_game(data: Mapping[str, Any], path: Path | None = None) -> GameSpec:
    """A game YAML's fields as a :class:`GameSpec` (unknown keys are ignored)."""
    cells = _points(data, "cell_bindings", path)
    roles = tuple(_role(r, path, i, cells)
                  for i, r in enumerate(_list(data, "game_roles", path)))
    if not roles:
        raise CatalogError(f"{_where(path, 'game_roles')} must list at least one role")
    spec = GameSpec(
        game_id=_str(data, "game_name", path), rules=_str(data, "game_rules", path, ""),
        roles=roles, speed_multiplier=_num(data, "speed_multiplier", path, 1.0),
        player_mode=_str(data, "player_mode", path, "single"),
        width=int(_num(data, "width", path, DEFAULT_WIDTH)),
        height=int(_num(data, "height", path, DEFAULT_HEIGHT)),
        url=_str(data, "url", path) if data.get("url") is not None else None,
        cell_bindings=cells, demo_policy=_strs(data, "demo_policy", path), path=path)
    if spec.speed_multiplier <= 0:
        raise CatalogError(f"{_where(path, 'speed_multiplier')} must be positive")
    if spec.width <= 0 or spec.height <= 0:
        raise CatalogError(f"{_where(path, 'width')}/height must be positive")
    unknown = [d for d in spec.demo_policy if spec.role.control(d) is None]
    if unknown:
        raise CatalogError(f"{_where(path, 'demo_policy')} names {excerpt(unknown[0])}, "
                           "which is not a semantic control of the first role")
    return spec


def parse_task(data: Mapping[str, Any], path: Path | None = None) -> TaskSpec:
    """A task YAML's fields as a :class:`TaskSpec`, held to
    :class:`~playbench.games.browser_games.task_file.TaskFile` (unknown keys are ignored)."""
    t, problem = task_file.problem_of(data)
    if t is None:
        raise CatalogError(f"{path}: {problem}" if path is not None else str(problem))
    ev = t.evaluator_config
    task = TaskSpec(
        task_id=t.task_id, game_id=t.game_id, target=t.task_target_score_field,
        start=t.task_start_score_field, score_field=ev.score_field,
        evaluator_id=t.evaluator_id, max_steps=int(t.max_steps),
        pause_during_inference=t.pause_during_inference,
        continue_on_fail=t.continue_on_fail, prompt=t.task_prompt, end_field=ev.end_field,
        terminal_status=ev.terminal_status, metrics_fields=tuple(ev.metrics_fields),
        path=path)
    if task.target == task.start:
        raise CatalogError(f"{_where(path, 'task_target_score_field')} must differ from "
                           f"task_start_score_field ({task.start:g})")
    return task


def lookup(state: Any, dotted: str) -> Any:
    """The value at a dotted path (``game_state.score``) in a getState() answer, or None."""
    value = state
    for part in dotted.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


@dataclass(frozen=True)
class Catalog:
    """A catalog root (see the module docstring)."""

    root: Path

    @property
    def games_dir(self) -> Path:
        return self.root / "catalog" / "games"

    def check(self) -> None:
        if not self.games_dir.is_dir():
            raise CatalogError(f"{self.root}: not a catalog root (no catalog/games directory; "
                               "expected GameWorld's layout: catalog/games/<NN_name>.yaml, "
                               "catalog/tasks/<NN_name>/<NN_k>.yaml, "
                               "games/benchmark/<NN_name>/index.html)")

    def game_ids(self) -> list[str]:
        self.check()
        return sorted(p.stem for p in self.games_dir.glob("*.yaml"))

    def game(self, game_id: str) -> GameSpec:
        self.check()
        path = self.games_dir / f"{game_id}.yaml"
        if not path.is_file():
            raise CatalogError(f"{self.root}: no game {excerpt(game_id)} (known: "
                               f"{', '.join(self.game_ids()) or 'none'})")
        spec = parse_game(read_yaml(path), path)
        if spec.game_id != game_id:
            raise CatalogError(f"{path}: field 'game_name' is {excerpt(spec.game_id)} but the file "
                               f"is named {game_id}.yaml")
        return spec

    def task_ids(self, game_id: str) -> list[str]:
        folder = self.root / "catalog" / "tasks" / game_id
        return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []

    def task(self, game_id: str, task_id: str) -> TaskSpec:
        path = self.root / "catalog" / "tasks" / game_id / f"{task_id}.yaml"
        if not path.is_file():
            raise CatalogError(f"{self.root}: no task {game_id}/{task_id} (known: "
                               f"{', '.join(self.task_ids(game_id)) or 'none'})")
        task = parse_task(read_yaml(path), path)
        if task.game_id != game_id:
            raise CatalogError(f"{path}: field 'game_id' is {excerpt(task.game_id)} but the "
                               f"file is under tasks/{game_id}")
        return task

    def game_dir(self, game_id: str) -> Path:
        """The folder served for a game (it holds ``index.html``)."""
        return self.root / "games" / "benchmark" / game_id

    def entry_page(self, spec: GameSpec) -> str:
        """The page to open, relative to the game folder (the YAML's ``url`` when it names
        a relative file, else ``index.html``)."""
        if spec.url and "://" not in spec.url:
            return spec.url.lstrip("/")
        return "index.html"
