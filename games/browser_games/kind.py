"""Browser games as a task kind: GameWorld's protocol over catalogs of HTML/JS games.

One :data:`KIND` (registered as ``browser-games``) tells the app: the settings (semantic
controls or computer-use actions as tool calls, each paused between actions or in real time,
all with GameWorld's 100-action budget), where tasks come from (the bundled catalog, or any
GameWorld-layout catalog through the ``--catalog DIR`` source option), the environment
(:mod:`.env`), the answer format for tool calls, the prompts (``prompts/``, replaceable
Jinja2 templates), what a person's keys and clicks mean (:mod:`.inputs`), and the offline
endpoint's demo moves (random, or the game YAML's ``demo_policy``). Facts:
docs/reference/browser-games.md.

Importing this module loads no browser code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.browser_games import controls as ctl
from playbench.games.browser_games.catalog import Catalog, CatalogError
from playbench.games.browser_games.modes import MODES, mode_of
from playbench.games.browser_games.tasks import (
    BUNDLED,
    KIND_NAME,
    bundled_root,
    load_levels,
    task_ref,
)
from playbench.games.kind import Capabilities, EnvServices, Source, SourceOption, SourcePicker
from playbench.games.packs import select as select_range
from playbench.games.packs import split_source
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Invalid, Setting, Task

if TYPE_CHECKING:
    from playbench.games.browser_games.inputs import PersonInput
    from playbench.games.capabilities import DemoMoves, LoadsWith, PersonInputs, ResultGroups
    from playbench.games.env import Env
    from playbench.games.kind import TaskKind

GAMEWORLD_BUDGET = Budget(max_actions=100)
"""GameWorld's ``max_steps: 100``: people and models get 100 actions, an invalid one counts
(docs/reference/browser-games.md)."""

SETTINGS: dict[str, Setting] = {
    name: Setting(name, "image", history=True, description=text, budget=GAMEWORLD_BUDGET)
    for name, (_, _, text) in MODES.items()}

ENV_OPTIONS = ("browser", "memory", "load_timeout_ms", "action_timeout_ms", "frame_format")
"""Keys of :attr:`EnvServices.extra` the environment takes: a shared browser, the number of
earlier rounds re-sent to a model, page timeouts, the screenshot format (png or jpeg)."""

POLICIES = ("random", "scripted", "oracle")
"""Policies a browser game answers itself; ``oracle`` plays the script (there is no solver)."""


class BrowserGameAnswers:
    """Tool calls for browser games. The tools offered depend on the task's game, so the
    environment puts them in each observation (``info["tool_specs"]``); this object reads a
    call back as an action text whichever game it is (the environment checks it)."""

    def move_value(self, move: str) -> Any:
        return move

    def plan_value(self, moves: Sequence[str]) -> Any:
        return list(moves)

    def single_texts(self, value: Any) -> list[str] | Invalid:
        if isinstance(value, str) and value.strip():
            return [value.strip()]
        return Invalid("malformed", "an action is one text")

    def plan_texts(self, value: Any) -> list[str] | Invalid:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return [v.strip() for v in value]
        return Invalid("malformed", "a plan is a list of action texts")

    def tool_specs(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The computer-use tools (the same for every game); semantic tools come with each
        observation."""
        role = _GENERIC_ROLE
        return ctl.tool_specs(role, ctl.COMPUTER_USE)

    def tool_to_text(self, name: str, args: Mapping[str, Any]) -> str | Invalid:
        if not name:
            return Invalid("malformed", "a tool call without a name")
        return ctl.tool_to_text(name, args)

    def text_to_tool(self, move: str) -> tuple[str, dict[str, Any]]:
        return ctl.text_to_tool(move)


def _generic_role() -> Any:
    from playbench.games.browser_games.catalog import ComputerUseControls, Role
    keys = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space", "Enter")
    return Role("player", "", "", ComputerUseControls(keys, True, 0.2), ())


_GENERIC_ROLE = _generic_role()


class BrowserGamesKind:
    """The ``browser-games`` task kind (see the module docstring)."""

    name = KIND_NAME
    title = "Browser games"
    help = ("GameWorld-style browser games: press the game's keys or click; each action runs "
            "for its bound duration, 100 actions per task")
    capabilities = Capabilities(
        library_columns=("Target",),
        source_picker=SourcePicker(
            "Add catalog folder…", "Add a GameWorld-layout catalog", folder=True, files=False,
            tooltip="A GameWorld-layout catalog: catalog/games/*.yaml, "
                    "catalog/tasks/<game>/*.yaml and games/<...>/ pages"),
        order=60,
        protocol_family="tools",
        prompt_dir=Path(__file__).parent / "prompts",
        library_help=("<b>Playing it yourself</b> opens it in Play, on the game pane: the game "
                      "runs in Chromium and your key presses and clicks become the actions a "
                      "model sends (the game's semantic controls, or <i>press_key</i> / "
                      "<i>click</i> under computer-use), each run for the duration the game binds "
                      "to it and counted against the same budget (GameWorld's 100). Holding a key "
                      "is one action.<br><br><b>A model or scripted player</b> opens in Models > "
                      "Model demo.<br><br>Settings: <i>tools:semantic</i> and "
                      "<i>tools:computer-use</i> pause the game between actions (the same clock "
                      "for everyone); the <i>-rt</i> ones play in real time."),
        play_place="the game pane (Play)",
        source_options=(SourceOption(
            "catalog", "DIR", "a GameWorld-layout catalog root to take browser-game tasks from "
                              "(default: the bundled games)"),),
        results_note=("browser-games: a row per GameWorld game beside the overall row; "
                      "accuracy is GameWorld's success rate (SR), completion its progress (PG), "
                      "both averaged over tasks."))
    """What the Library's task panel says about playing a game; every setting is played by the
    tool-calling protocol (GameWorld's one call per step); ``--catalog DIR`` takes tasks from
    another catalog (:meth:`load_with`); Results' note under the table
    (``games.kind.results_note``)."""
    view = "game"
    """Played in the browser pane with a game's HUD (the pane turns keys and clicks into
    actions through :meth:`person_input`)."""
    replay = ReplaySpec(
        clocked_settings=frozenset(n for n, (_, realtime, _) in MODES.items() if realtime),
        reason=("the real-time settings run the game on the wall clock while the player "
                "thinks, so the same actions do not lead to the same game; the paused ones "
                "step the game's own clock and replay exactly"))
    """Paused settings step the page's clock (``inject/control.js``) and seed its random
    numbers, so the same seed and actions give the same states; real-time ones cannot."""
    undo = False
    rule_options: tuple[RuleOption, ...] = ()
    answers = BrowserGameAnswers()
    gym_actions = None

    def result_group(self, level: Level) -> str | None:
        """The GameWorld game a task belongs to: Results show SR and PG per game and overall,
        as GameWorld reports them (``games.kind.result_group``)."""
        try:
            return task_ref(level).game_id
        except LevelError:
            return None

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def sources(self) -> list[Source]:
        try:
            count = len(load_levels("all"))
        except CatalogError:
            count = 0
        return [Source(BUNDLED, "Bundled browser games", count)] if count else []

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        """``all``/``bundled``, ``GAME``, ``GAME/TASK`` (comma-separated), or a catalog root's
        path, each with an optional ``:RANGE`` over the listing's numbers."""
        return self.load_with(source, fmt=fmt, options={})

    def load_with(self, source: str, *, fmt: str | None = None,
                  options: Mapping[str, str]) -> list[Level]:
        """As :meth:`load`, from the catalog ``options["catalog"]`` names (if any)."""
        unknown = sorted(set(options) - {o.name for o in self.capabilities.source_options})
        if unknown:
            raise CatalogError(f"browser-games takes no source option {unknown[0]!r} "
                               "(valid: catalog)")
        root = Path(options["catalog"]).expanduser() if options.get("catalog") else None
        if root is not None and not root.is_dir():
            raise CatalogError(f"--catalog {root}: not a directory")
        head, range_text = split_source(source)
        levels = load_levels(head, root)
        return select_range(levels, range_text, head)

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        from playbench.games.browser_games.env import BrowserGameEnv, EnvConfig
        extra = (services or EnvServices()).extra
        config = EnvConfig(**{k: extra[k] for k in ENV_OPTIONS[1:] if k in extra})
        return BrowserGameEnv(browser=extra.get("browser"), config=config, render=render)

    def input_map(self) -> None:
        """People act in the browser pane (see :meth:`person_input`), not on a board."""
        return None

    def person_input(self, level: Level, setting: str = "default") -> PersonInput:
        """What a person's keys and clicks mean for one task in one setting."""
        from playbench.games.browser_games.inputs import PersonInput
        ref = task_ref(level)
        spec = Catalog(ref.root).game(ref.game_id)
        interface, _ = mode_of(setting)
        return PersonInput(ctl.Controls(spec.role, interface, spec.width, spec.height))

    def split_plan(self, text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip()]

    def join_plan(self, texts: Sequence[str]) -> str:
        return "\n".join(texts)

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """No picture: a game is drawn only once a browser runs it."""
        return None

    def check_level(self, level: Level) -> None:
        ref = task_ref(level)
        catalog = Catalog(ref.root)
        catalog.game(ref.game_id)
        catalog.task(ref.game_id, ref.task_id)

    def library_values(self, level: Level) -> tuple[str, ...]:
        """The task's target score under :attr:`library_columns` ("-" without one)."""
        target = level.meta.get("target")
        return (f"{target:g}" if isinstance(target, (int, float)) else "-",)

    def describe(self, level: Level) -> Mapping[str, Any]:
        meta = level.meta
        try:
            ref = task_ref(level)
        except Exception:
            return {"task": level.title}
        return {"game": ref.game_id, "task": ref.task_id, "target": meta.get("target"),
                "prompt": meta.get("prompt", ""),
                "catalog": "bundled" if ref.catalog == BUNDLED else ref.catalog}

    def demo_moves(self, level_text: str, setting: str, steps: Sequence[str | None],
                   policy: str, rng: random.Random) -> list[str] | None:
        """The offline endpoint's next action for a task (``serve-model``): ``random`` picks
        from the interface's vocabulary; ``scripted`` cycles the game YAML's ``demo_policy``
        (semantic ids; under computer-use their first key). None for another policy."""
        if policy not in POLICIES:
            return None
        ref = task_ref(Level(KIND_NAME, level_text))
        spec = Catalog(ref.root).game(ref.game_id)
        interface, _ = mode_of(setting)
        controls = ctl.Controls(spec.role, interface, spec.width, spec.height)
        vocab = controls.vocabulary()
        if policy == "random" or not spec.demo_policy:  # no script: random play
            return [rng.choice(vocab)] if vocab else []
        control_id = spec.demo_policy[len(steps) % len(spec.demo_policy)]
        if interface == ctl.SEMANTIC:
            return [control_id]
        control = spec.role.control(control_id)
        keys = control.binding.keys if control is not None else ()
        return [f"press_keys {'+'.join(keys)}" if keys else f"wait "
                f"{spec.role.computer_use.hold_duration:g}"]


KIND = BrowserGamesKind()

if TYPE_CHECKING:  # mypy holds the kind to the protocols it means to implement
    _kind: TaskKind = KIND
    _demomoves: DemoMoves = KIND
    _loadswith: LoadsWith = KIND
    _resultgroups: ResultGroups = KIND
    _personinputs: PersonInputs = KIND

__all__ = ["KIND", "BrowserGamesKind", "SETTINGS", "GAMEWORLD_BUDGET", "mode_of",
           "bundled_root"]
