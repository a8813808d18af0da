"""Lights Out on a button pad: the same game as :mod:`pb_lightsout.kind`, played by a person on a
surface this package brings itself (:mod:`pb_lightsout.pad_surface`) instead of PlayBench's board.

It exists to prove the surface seam: the kind names its surface (``view = "lightpad"``), the
surface is registered under ``playbench.surfaces`` beside the kind under ``playbench.tasks``, and
PlayBench's window shows it without a line of PlayBench naming either.
"""

from __future__ import annotations

from dataclasses import replace

from pb_lightsout.answers import LightsAnswers, LightsPlans
from pb_lightsout.formats import BLOCKS
from pb_lightsout.inputs import LightsInput
from pb_lightsout.kind import PACKAGE_DIR, PROMPT_DIR
from pb_lightsout.spec import SPEC
from playbench.games.base import Level, LevelFormat
from playbench.games.board_kind import BoardKind

NAME = "lightpad"
SURFACE_NAME = "lightpad"

LEVEL_DIR = PACKAGE_DIR / "pad_levels"

def _load(text: str, source: str = "<text>") -> list[Level]:
    """Lights Out's level file, read as levels of this kind."""
    return [replace(level, game=NAME) for level in BLOCKS.load(text, source)]


PAD_FORMAT = LevelFormat(BLOCKS.name, BLOCKS.suffixes, _load, BLOCKS.dump, BLOCKS.sniff)

PAD_SPEC = replace(SPEC, name=NAME, title="Lights Out (button pad)",
                   formats={PAD_FORMAT.name: PAD_FORMAT})


class PadKind(BoardKind):
    """A board kind whose person-play surface is the button pad."""

    view = SURFACE_NAME


ANSWERS = LightsAnswers()

KIND = PadKind(
    PAD_SPEC,
    help="Press a button to press that cell.",
    input_map=LightsInput,
    answers=ANSWERS,
    plans=LightsPlans(ANSWERS),
    foreign_answer="L",
    pack_dir=LEVEL_DIR,
    prompt_dir=PROMPT_DIR,
)

__all__ = ["KIND", "LEVEL_DIR", "NAME", "PAD_SPEC", "SURFACE_NAME"]
