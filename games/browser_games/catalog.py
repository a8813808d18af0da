"""Reading a GameWorld-layout catalog: game YAMLs, task YAMLs and the game folders.

A catalog root is any directory laid out as GameWorld lays out its repository
(docs/reference/browser-games.md, "GameWorld's repository layout"):

- ``catalog/games/<NN_name>.yaml``: one game (rules text, roles, their controls);
- ``catalog/tasks/<NN_name>/<NN_k>.yaml``: that game's tasks (targets, evaluator config);
- ``games/benchmark/<NN_name>/index.html`` (+ ``game_api.js`` and assets): the game itself.

PlayBench's bundled games (``games/browser_games/bundled``) and a user's GameWorld checkout are
read by the same code. Keys we do not know are ignored (a newer catalog still loads); a key we
need that is missing or has the wrong type raises :class:`CatalogError` naming the file and
the field by its whole path (the files' shapes are pydantic models: ``game_file`` and
``task_file``). Our one extension is an optional top-level ``demo_policy`` list of semantic
control ids (the scripted offline policy cycles through it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.games import yamlfile
from playbench.games.base import LevelError
from playbench.games.browser_games import game_file, task_file
from playbench.games.yamlfile import excerpt

DEFAULT_WIDTH = game_file.DEFAULT_WIDTH
DEFAULT_HEIGHT = game_file.DEFAULT_HEIGHT
DEFAULT_HOLD = game_file.DEFAULT_HOLD
DEFAULT_MAX_STEPS = task_file.DEFAULT_MAX_STEPS
ACTIONS = game_file.ACTIONS


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


def _where(path: Path | None, name: str) -> str:
    return f"{path}: field {name!r}" if path is not None else f"field {name!r}"


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


def _binding(b: game_file.BindingFile, path: Path | None, where: str,
             shared_cells: Mapping[str, tuple[int, int]]) -> Binding:
    keys: tuple[str, ...] = ()
    if b.keys is not None:
        keys = tuple(b.keys)
    elif b.key is not None:
        keys = tuple(k for k in b.key.split("+") if k)
    if b.action in ("press_key", "press_keys") and not keys:
        raise CatalogError(f"{_where(path, where + '.key')} is missing (a press_key binding "
                           "names its key)")
    point = None
    if b.x is not None or b.y is not None:
        if b.x is None or b.y is None:
            missing = "x" if b.x is None else "y"
            raise CatalogError(f"{_where(path, f'{where}.{missing}')} is missing")
        point = (int(b.x), int(b.y))
    cells = _points(b.cell_bindings) or dict(shared_cells)
    cell_param = None
    if b.cell_param:
        cell_param = b.cell_param if isinstance(b.cell_param, str) else "cell"
    text_param = None
    if b.action in ("type", "type_text"):
        text_param = b.text_param if isinstance(b.text_param, str) else "text"
    return Binding(b.action, keys, b.duration, point, b.button, cell_param, cells, text_param)


def _points(spots: Mapping[str, game_file.Spot]) -> dict[str, tuple[int, int]]:
    return {cell: (int(spot.x), int(spot.y)) for cell, spot in spots.items()}


def _role(r: game_file.RoleFile, path: Path | None, index: int,
          shared_cells: Mapping[str, tuple[int, int]]) -> Role:
    where = f"game_roles[{index}]"
    cu = r.computer_use_controls
    controls = ComputerUseControls(tuple(cu.allowed_keys), cu.allow_clicks, cu.hold_duration,
                                   dict(cu.key_durations))
    semantic = []
    seen: set[str] = set()
    for i, item in enumerate(r.semantic_controls):
        at = f"{where}.semantic_controls[{i}]"
        if item.id in seen:
            raise CatalogError(f"{_where(path, at + '.id')}: {excerpt(item.id)} is defined "
                               "twice")
        seen.add(item.id)
        binding = _binding(item.binding, path, f"{at}.binding", shared_cells)
        semantic.append(SemanticControl(item.id, item.description, binding,
                                        dict(item.parameters), tuple(item.required)))
    return Role(r.name if r.name is not None else f"role{index}", r.prompt.role_section,
                r.prompt.computer_use_controls_section, controls, tuple(semantic))


def parse_game(data: Mapping[str, Any], path: Path | None = None) -> GameSpec:
    """A game YAML's fields as a :class:`GameSpec`, held to
    :class:`~playbench.games.browser_games.game_file.GameFile` (unknown keys are ignored)."""
    g, problem = game_file.problem_of(data)
    if g is None:
        raise CatalogError(f"{path}: {problem}" if path is not None else str(problem))
    cells = _points(g.cell_bindings)
    roles = tuple(_role(r, path, i, cells) for i, r in enumerate(g.game_roles))
    spec = GameSpec(
        game_id=g.game_name, rules=g.game_rules, roles=roles,
        speed_multiplier=g.speed_multiplier, player_mode=g.player_mode, width=int(g.width),
        height=int(g.height), url=g.url, cell_bindings=cells,
        demo_policy=tuple(g.demo_policy), path=path)
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
