"""The Maze as a task kind: arrows/WASD, one letter per move, no undo, and the shipped packs."""

from __future__ import annotations

from playbench.games.answers import LetterAnswers
from playbench.games.board_kind import BoardKind
from playbench.games.inputs import DirectionInput
from playbench.games.maze import SPEC
from playbench.games.maze.packs import PACKS
from playbench.games.plans import Plans

ANSWERS = LetterAnswers(SPEC.name, mover="the agent")

KIND = BoardKind(
    SPEC,
    # The legend: which colour is the person and which the way out (games/maze/render.py).
    help="Arrow keys or WASD move the agent. Legend: the red square is you (the agent), the "
         "green cell is the exit, black is wall and white is floor.",
    input_map=DirectionInput,
    answers=ANSWERS,
    plans=Plans(ANSWERS, letters=True),
    gym_actions=("L", "R", "U", "D"),
    gym_name="Maze",
    foreign_answer="Q",
    packs=PACKS,
    order=2,
    # ING-VP's published one-step Maze code stops at the exit, unlike its other games
    # (docs/fidelity.md, "ING-VP").
    compat_exceptions={"ingvp-code": {"stop_at_goal": True}},
)
