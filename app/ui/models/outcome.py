"""What the end-of-episode banner says, worked out without Qt: one sentence per way an episode
can end, for board play, web tasks and the model demo."""

from __future__ import annotations

from typing import Any

from playbench.app.ui.models.wording import count

END_TEXT = {
    "solved": "Solved",
    "budget": "Out of actions",
    "gave_up": "You gave up",
    "time": "Time is up",
    "repeated_actions": "Stopped: the same action too many times",
    "parse_failures": "Stopped: too many unreadable inputs",
}


def end_head(end_reason: str | None) -> str:
    """A few words for why a finished episode ended; a kind's own reason (football's
    ``ball_lost``) is shown as words ("Ball lost")."""
    if not end_reason:
        return "Finished"
    return END_TEXT.get(end_reason, end_reason.replace("_", " ").capitalize())


def _actions(n: int) -> str:
    return count(n, "action")


STUDY_PAUSED = ("Paused - every step and the time used are saved. \"Continue task\" (above, "
                "or in Studies) goes on from here.")


BLIND_END = "Task finished. Your steps are recorded; this study shows no scores."
"""Every surface's end text in a blind study: no outcome, no score."""


def board_end_text(result: Any, optimal: int | None, blind: bool, study: bool = False) -> str:
    """The Play tab's banner: ``optimal`` is the level's shortest solution when known;
    ``blind`` (a blind study) leaves the outcome out; ``study``: a study task, whose way
    back after a pause is its "Continue task" button, not Episodes."""
    if result.status == "interrupted":
        return STUDY_PAUSED if study else \
            "Interrupted - the episode is saved and can be resumed from Episodes."
    if result.status == "error":
        return f"The episode stopped with an error ({result.end_reason}); its steps are kept."
    if blind:
        return BLIND_END
    text = f"{end_head(result.end_reason)} after {_actions(len(result.steps))}"
    if result.end_reason == "solved" and optimal is not None:
        text += f" (optimal: {optimal})"
    return text + "."


def web_end_text(result: Any, *, blind: bool = False, study: bool = False) -> str:
    """The browser pane's banner: the answer given (if any) and the task's score (neither
    in a blind study)."""
    if result.status == "interrupted":
        return STUDY_PAUSED if study else \
            "Interrupted - the steps so far are saved (web episodes cannot be resumed)."
    if result.status == "error":
        return f"The episode stopped with an error ({result.end_reason}); its steps are kept."
    if blind:
        return BLIND_END
    actions = _actions(len(result.steps))
    last = result.steps[-1].action if result.steps else None
    if result.end_reason == "stopped" and last and last.startswith("stop ["):
        text = f"You answered “{last[6:-1]}” after {actions}."
    else:
        text = f"{end_head(result.end_reason)} after {actions}."
    score = result.scores.get("score")
    return text + (" Not scored (a part needs a judge model)." if score is None
                   else f" Score {score:g}" + (" - solved." if score == 1 else "."))
