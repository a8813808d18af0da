"""The Library's "You" column: which levels of the shown pack the current annotator has played
and solved, read from the database (``playbench.db.progress``) and said in words.

Qt-free: :func:`annotator_marks` is what the Library runs in the thread pool, :func:`mark_text`
what it puts in the cell and its tooltip.
"""

from __future__ import annotations

from playbench.app.ui.models.wording import count
from playbench.db.progress import LevelMark, level_marks
from playbench.db.store import Store

SOLVED = "✓"
PLAYED = "○"
# One character each: at 1024 px the Levels table has no room for words beside the title (a
# "✓ solved" column squeezed the titles to a letter a line); the tooltip says it in words.
SPOKEN = {SOLVED: "solved", PLAYED: "played, not solved", "": "not played"}
"""What a screen reader says for each mark."""


def annotator_marks(store: Store | None, annotator: str | None,
                    game: str | None) -> dict[str, LevelMark]:
    """Level content hash -> the annotator's plays of it; empty without a database, an
    annotator or a game (nothing is anybody's yet)."""
    if store is None or not annotator or not game:
        return {}
    return level_marks(store.db, "human", annotator, game)


def mark_text(mark: LevelMark | None) -> tuple[str, str]:
    """The cell's text and tooltip: ✓ (solved), ○ (played, not solved) or nothing, and the
    counts behind the mark ("You played this level 3 times, solved in 1 play.")."""
    if mark is None or mark.played == 0:
        return "", "You have not played this level."
    plays = "once" if mark.played == 1 else f"{mark.played} times"
    if mark.solved:
        solved = "solved" if mark.played == 1 else f"solved in {count(mark.solved, 'play')}"
        return SOLVED, f"You played this level {plays}, {solved}."
    return PLAYED, f"You played this level {plays}, not solved yet."
