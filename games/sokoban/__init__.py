"""Sokoban: push every box onto a target (ING-VP and MageBench, see puzzles.md)."""

from typing import Any

from playbench.games.base import GameSpec, Level
from playbench.games.sokoban.generator import generate
from playbench.games.sokoban.magebench_files import READER as MAGEBENCH_FILES
from playbench.games.sokoban.render import make_renderer
from playbench.games.sokoban.rules import SokobanRules, parse_board, solution_reward
from playbench.games.sokoban.solver import solve
from playbench.games.sokoban.xsb import INGVP, XSB


def describe(level: Level) -> dict[str, Any]:
    """Size and box count for level listings."""
    state = parse_board(level.text)
    return {"size": f"{state.board.width}x{state.board.height}", "boxes": len(state.boxes)}


def r_best(rules: SokobanRules, level: Level) -> float | None:
    """MageBench's R_best: stored with the level (``rbest``) or the reward of an optimal plan."""
    stored = level.meta.get("rbest")
    if stored is not None:
        return float(stored)
    state = rules.start(level)
    plan = solve(rules, state, None)
    return None if plan is None else solution_reward(state, plan)


SPEC = GameSpec(
    name="sokoban",
    title="Sokoban",
    make_rules=lambda options: SokobanRules(),
    make_renderer=make_renderer,
    solve=solve,
    formats={"xsb": XSB, "ingvp": INGVP},
    generate=generate,
    completion_unit=12.5,
    move_help=("U, D, L, R (or Up, Down, Left, Right): move the worker; walking into a box "
               "pushes it."),
    default_format="xsb",
    describe=describe,
    r_best=r_best,
    readers=(MAGEBENCH_FILES,),
)
