"""Football as a task kind: MageBench's third environment on Google Research Football.

A board-view kind (the Play view shows GRF's rendered frame and takes keys) whose rules run
GRF in an engine process (:mod:`playbench.games.football.engine`). Google Research Football is an
optional extra: without it this module still loads, the kind lists its scenarios, and
:meth:`FootballKind.unavailable` says what is missing and how to enable it (the Library and the
CLI show that line instead of starting an episode).

Setting: MageBench's Online setting only (docs/reference/football.md, MageBench E.3: a global
plan is meaningless among 21 AI players); ``default`` shows the same frame and asks with the
same prompt, with the history the loop gives a setting without ``history``.
Budget: 400 actions - every action plays at least one of the scenario's 400 frames, so the game
itself (a goal, a lost ball or the last frame) ends every episode first. MageBench plays the mini
set 10 times per level: ``playbench run --game football --levels magebench-mini --repeat 10``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image

from playbench.games.base import GameSpec, Level, LevelFormat
from playbench.games.board_kind import BoardKind
from playbench.games.env import BoardTaskEnv
from playbench.games.football import game, scenarios
from playbench.games.football.engine import QUIET_WIDTH, unavailable_reason
from playbench.games.football.magebench_files import READER as MAGEBENCH_FILES
from playbench.games.football.render import FRAME_WIDTH, FootballRenderer, sketch
from playbench.games.kind import EnvServices, Gesture, SourcePicker
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Action, Budget, Observation, Setting, Task, Transition

if TYPE_CHECKING:
    from playbench.games.capabilities import DemoPolicies, LevelFiles, Previews, Unavailable
    from playbench.games.kind import TaskKind

HERE = Path(__file__).parent
BUDGET = Budget(max_actions=400)
"""One action plays at least one frame of at most 400 (docs/reference/football.md)."""

SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("default", "image", budget=BUDGET,
            description="GRF's frame; one action per decision (MageBench's prompt shows frames "
                        "only)"),
    Setting("magebench:online", "image", history=True, budget=BUDGET,
            description="MageBench Online: one action per call, recent actions and frames"),
)}

KEYS: dict[str, str] = {
    "Left": "action_left", "Right": "action_right", "Up": "action_top", "Down": "action_bottom",
    "A": "action_left", "D": "action_right", "W": "action_top", "S": "action_bottom",
    "Q": "action_top_left", "E": "action_top_right", "Z": "action_bottom_left",
    "C": "action_bottom_right", "7": "action_top_left", "9": "action_top_right",
    "1": "action_bottom_left", "3": "action_bottom_right",
    "Space": "action_short_pass", "L": "action_long_pass", "H": "action_high_pass",
    "F": "action_shot", "B": "action_sprint", "X": "action_release_sprint",
    "G": "action_dribble", "V": "action_release_dribble", "R": "action_release_direction",
    "I": "action_idle",
}
"""A person's keys (the names the desktop view passes): every key names one of the actions a
model sends (:data:`game.ACTIONS`), and every action has a key."""
HELP = ("Arrows/WASD run (Q E Z C diagonally), Space short pass, L long pass, H high pass, "
        "F shoot, B sprint / X stop sprinting, G dribble / V stop, R release the direction, "
        "I idle. One key is one decision; the game waits for it.")


class FootballInput:
    """Keys to football actions (the :class:`playbench.games.kind.InputMap` of this kind)."""

    selected: Any = None
    uses_digits = False

    def key(self, name: str, state: Any) -> Gesture | None:
        action = KEYS.get(name) or KEYS.get(name.upper())
        return Gesture(action, f"key:{name}") if action else None

    def press(self, target: Any, state: Any) -> Gesture | None:
        return None

    def release(self, target: Any, state: Any) -> Gesture | None:
        return None

    def digit(self, d: int, state: Any) -> Gesture | None:
        return self.key(str(d), state)

    def clear(self) -> None:
        return None


class FootballAnswers:
    """Actions inside model answers: the action ID as a JSON string (ING-VP style answers and
    tool calls use the same IDs)."""

    def move_value(self, move: str) -> Any:
        return move

    def plan_value(self, moves: Sequence[str]) -> Any:
        return list(moves)

    def single_texts(self, value: Any) -> list[str] | Any:
        from playbench.games.types import Invalid
        if isinstance(value, str):
            return [value]
        return Invalid("malformed", "expected one action ID as a string")

    def plan_texts(self, value: Any) -> list[str] | Any:
        from playbench.games.types import Invalid
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        return Invalid("malformed", "expected a list of action IDs")

    def tool_specs(self) -> list[tuple[str, str, dict[str, Any]]]:
        return [("act", "Take one football action.",
                 {"type": "object", "properties": {"action": {"type": "string",
                                                              "enum": list(game.ACTIONS)}},
                  "required": ["action"]})]

    def tool_to_text(self, name: str, args: Mapping[str, Any]) -> str | Any:
        from playbench.games.types import Invalid
        if name != "act" or not isinstance(args.get("action"), str):
            return Invalid("malformed", "call act with an action")
        return str(args["action"])

    def text_to_tool(self, move: str) -> tuple[str, dict[str, Any]]:
        return "act", {"action": move}


def _describe(level: Level) -> Mapping[str, Any]:
    s = scenarios.scenario_of(level)
    return {"zone": s.zone, "category": s.category,
            "ball": f"({s.ball[0]:.2f}, {s.ball[1]:.2f})"}


def _no_solver(rules: Any, state: Any, limit: Any) -> None:
    """No optimal plan exists for a game played against 21 AI players."""
    return None


def _generate(**_: Any) -> list[Level]:
    return [scenarios.level(s, i) for i, s in enumerate(scenarios.generate(), start=1)]


FORMAT = LevelFormat("football", (".football",), scenarios.load, scenarios.dump, scenarios.sniff)

SPEC = GameSpec(
    name=scenarios.GAME,
    title="Football",
    make_rules=lambda options: game.FootballRules(options),
    make_renderer=lambda rules, options: FootballRenderer(rules, options),  # type: ignore[arg-type]
    solve=_no_solver,
    formats={"football": FORMAT},
    generate=_generate,
    completion_unit=0.0,
    move_help="one action ID: " + ", ".join(game.ACTIONS),
    default_format="football",
    describe=_describe,
    readers=(MAGEBENCH_FILES,),
)


class FootballTaskEnv(BoardTaskEnv):
    """The football rules behind the loop: the episode's seed is GRF's engine seed, the game's
    own end (goal, lost ball, last frame) ends the episode, and the score is MageBench's."""

    def __init__(self, render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> None:
        super().__init__(SPEC, {}, render_options, render)
        # the frame size is decided once, before the engine starts (a change restarts it)
        asked = int((render_options or {}).get("width", 0) or 0)
        self.rules.engine.width = (asked or FRAME_WIDTH) if render else QUIET_WIDTH

    @property
    def rules(self) -> game.FootballRules:
        rules: game.FootballRules = self.board.rules  # type: ignore[assignment]
        return rules

    def _observe(self) -> Observation:
        state: game.MatchState = self.board.state
        frame = self.board.render() if self.render_frames else None
        info: dict[str, Any] = {"solved": state.end == "goal", "frames": state.frames}
        if state.done and state.end != "goal":
            info["end_reason"] = state.end
        return Observation(frame, self.board.text(), tuple(self.board.legal_actions()), info)

    # The engine answers over a pipe and takes from milliseconds (a frame) to seconds (its
    # start, a replay); the calls run in a worker thread so the app's event loop - and the
    # window a person plays in - keeps going meanwhile. The loop makes one call at a time.

    async def reset(self, task: Task, seed: int) -> Observation:
        return await asyncio.to_thread(self._reset, task, seed)

    def _reset(self, task: Task, seed: int) -> Observation:
        self.task = task
        self.board.reset(task.level)
        self.board.state = self.rules.reach(self.rules.with_seed(self.board.state, seed))
        return self._observe()

    async def step(self, action: Action) -> Transition:
        return await asyncio.to_thread(self._step, action)

    def _step(self, action: Action) -> Transition:
        out = self.board.step(action.move)
        state: game.MatchState = self.board.state
        return Transition(self._observe(), out.valid, out.changed, out.reward, state.done,
                          out.reason, invalid_kind=None if out.valid else "illegal")

    async def restore(self, snapshot: Any) -> Observation:
        def go() -> Observation:
            self.board.restore(snapshot)
            return self._observe()
        return await asyncio.to_thread(go)

    def state_hash(self) -> str:
        """The decisions and where they led (ball, players, frames): a replay that drifts from
        the record shows up here."""
        import hashlib
        import json
        state: game.MatchState = self.board.state
        raw = state.raw or {}
        facts = {k: raw.get(k) for k in ("ball", "left_team", "right_team", "score",
                                         "ball_owned_team", "ball_owned_player")}
        blob = json.dumps([state.seed, list(state.decisions), state.frames, facts],
                          sort_keys=True)
        return hashlib.sha256(state.level_text.encode() + blob.encode()).hexdigest()[:16]

    def oracle(self) -> list[str] | None:
        return None

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        return dict(game.score(self.board.state))

    async def close(self) -> None:
        self.rules.engine.close()


class FootballKind(BoardKind):
    """The ``football`` task kind (see the module docstring)."""

    replay = ReplaySpec()
    """GRF is deterministic under its seed: the same decisions give the same game."""

    def __init__(self) -> None:
        super().__init__(SPEC, help=HELP, input_map=FootballInput, answers=FootballAnswers(),
                         gym_actions=None, foreign_answer=42, order=9,
                         pack_dir=HERE / "scenarios", prompt_dir=HERE / "prompts")
        # Models play every football setting with MageBench's prompt (the only one it has);
        # the Library adds our scenario files and MageBench's published ones.
        self.capabilities = replace(
            self.capabilities, protocol_family="magebench", source_picker=SourcePicker(
                "Add scenario file…", "Add football scenarios",
                file_filter="Football scenarios (*.football *.py *.json);;All (*)",
                tooltip="A .football file, a MageBench scenario builder "
                        "(resources/Football/R1_P_1.py; read as data, never run) or a MageBench "
                        "list (Football_all.json, Football_mini.json)"))

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def demo_policies(self) -> dict[str, Any]:
        """Offline players for ``serve-model --policy football:NAME`` (random, scripted)."""
        from playbench.games.football.policies import demo_policies
        return demo_policies()

    def unavailable(self) -> str | None:
        """None when football can be played here, else why not and how to enable it."""
        return unavailable_reason()

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> FootballTaskEnv:
        return FootballTaskEnv(dict(render_options or {}), render)

    def preview(self, level: Level) -> np.ndarray | None:
        """The Library's start picture: the scenario sketched (starting GRF for a preview
        would take seconds per level)."""
        try:
            return sketch(scenarios.scenario_of(level), 480)
        except ValueError:
            return None

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """The scenario sketched from above (no engine needed)."""
        try:
            img = Image.fromarray(sketch(scenarios.scenario_of(level), max(size, 40)))
        except ValueError:
            return None
        img.thumbnail((size, size), Image.Resampling.LANCZOS)
        return np.ascontiguousarray(np.asarray(img, dtype=np.uint8))


KIND = FootballKind()

if TYPE_CHECKING:  # mypy holds the kind to the protocols it means to implement
    _kind: TaskKind = KIND
    _demopolicies: DemoPolicies = KIND
    _previews: Previews = KIND
    _unavailable: Unavailable = KIND
    _levelfiles: LevelFiles = KIND

__all__ = ["KIND", "FootballKind", "FootballTaskEnv", "SPEC", "SETTINGS", "KEYS"]
