"""Shared pieces of the studies, results and exports tests: level files, study files, the
``playbench`` command in a subprocess, and a scripted human annotator.

Annotators are the UI's own :class:`~playbench.app.players.human.HumanPlayer`, fed through the
games'
input maps (``playbench.app.players.board_input``): a policy decides which move a person makes,
``press`` turns it into the arrow key, the input map into the action and raw input, and the player's
queue into the decision - so a study is driven exactly the way the GUI drives it, through
``StudyQueue.play`` and the one episode loop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from playbench.app.core.events import Deciding
from playbench.app.core.player import PlayContext
from playbench.app.players.board_input import input_for
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.games import registry
from playbench.games.base import Level
from playbench.games.packs import load_file

GIVE_UP = "give up"


def write_pack(path: Path, game: str, count: int, seed: int, **options: Any) -> list[Level]:
    """Generate ``count`` levels into ``path`` (the game's default format) and read them back."""
    spec = registry.get(game)
    levels = spec.generate(count, seed, None, **options)
    path.write_text(spec.formats[spec.default_format].dump(levels), encoding="utf-8")
    return load_file(spec, path)


def level_files(directory: Path) -> dict[str, Path]:
    """A small Sokoban pack (6 levels) and a maze pack (4 levels) in ``directory``."""
    sokoban = directory / "rooms.xsb"
    maze = directory / "mazes.txt"
    if not sokoban.exists():
        write_pack(sokoban, "sokoban", 6, 5, width=7, height=7, boxes=2, min_optimal=3,
                   max_optimal=14)
    if not maze.exists():
        write_pack(maze, "maze", 4, 5, width=7, height=7, min_optimal=3)
    return {"sokoban": sokoban, "maze": maze}


def study_yaml(directory: Path, name: str = "pilot", **changes: Any) -> Path:
    """A valid study file beside the level files, with top-level fields changed."""
    level_files(directory)
    data: dict[str, Any] = {
        "name": name, "budget": 40, "order": "random", "seed": 11, "blind": False,
        "time_limit": 600,
        "practice": [{"game": "sokoban", "levels": "rooms.xsb:1"}],
        "tasks": [{"game": "sokoban", "levels": "rooms.xsb:2-4"},
                  {"game": "maze", "levels": "mazes.txt:1-2", "setting": "ingvp:text-multi"}],
    }
    data.update(changes)
    path = directory / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(args: list[str], *, db: str, cwd: Path, config: Path | None = None,
            timeout: float = 300) -> Result:
    """``python -m playbench ARGS`` against database ``db``."""
    env = dict(os.environ, PLAYBENCH_DB=db, SDL_VIDEODRIVER="dummy",
               PLAYBENCH_CONFIG_DIR=str(config or cwd / "config"))
    proc = subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


KEY_FOR = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}
"""The arrow key a person presses for each move letter of the direction games."""


def press(player: HumanPlayer, context: PlayContext, text: str) -> None:
    """The annotator's hand: the key for ``text`` goes through the game's input map (the one
    the play view uses), and the resulting input to the human player; ``give up`` is the
    give-up button."""
    if text == GIVE_UP:
        player.submit(HumanInput.give_up())
        return
    gesture = input_for(context.task.game).key(KEY_FOR[text], None)
    assert gesture is not None and gesture.text == text, (text, gesture)
    player.submit(HumanInput.move(gesture.text, gesture.raw))


Policy = Callable[[PlayContext], str]


def optimal(ctx: PlayContext) -> str:
    """The annotator who sees the solution: the solver's next move."""
    plan = ctx.oracle() or []
    return plan[0] if plan else GIVE_UP


def detour_then_optimal(detour: str, steps: int = 1) -> Policy:
    """Press ``detour`` for the first ``steps`` decisions, then play optimally."""
    def policy(ctx: PlayContext) -> str:
        return detour if ctx.step < steps else optimal(ctx)
    return policy


def give_up_after(n: int) -> Policy:
    def policy(ctx: PlayContext) -> str:
        return optimal(ctx) if ctx.step < n else GIVE_UP
    return policy


def input_layer(player: HumanPlayer, policy: Policy) -> Callable[[Any], None]:
    """An episode listener that, whenever the loop asks for a decision, presses the key the
    annotator would press - the role the play view's key handler has."""
    def listen(event: Any) -> None:
        if isinstance(event, Deciding):
            press(player, event.context, policy(event.context))
    return listen
