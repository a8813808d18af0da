"""Questions asked before a gesture ends the task being played (Qt-free: the Play and browser
views show them through ``playbench.app.ui.confirm``; these functions decide whether and what to
ask).

Giving up, "Answer and finish" and an empty answer sent with Enter each end the episode for
good, and a stray click or key press used to do it unasked. The rule here: a gesture that
ends the task is confirmed first, except an answer typed and sent with Enter, which is a
deliberate act of its own.
"""

from __future__ import annotations

from playbench.app.ui.models.guards import Question
from playbench.app.ui.models.wording import count, verb


def give_up_question(steps: int) -> Question:
    """The question before giving up after ``steps`` recorded steps."""
    done = f"The {count(steps, 'step')} so far {verb(steps)} kept" if steps else (
        "Nothing has been played yet")
    return Question(
        "Give up this task?",
        f"Giving up ends the task now and records it as given up. {done}; the task "
        "cannot be continued afterwards.",
        "Give up")


def answer_question(answer: str, pressed_button: bool) -> Question | None:
    """The question before sending ``answer`` as the final ``stop [answer]`` (None: send it
    without asking). ``pressed_button`` tells "Answer and finish" from Enter in the box."""
    text = answer.strip()
    if text and not pressed_button:
        return None
    if not text:
        return Question(
            "Finish with an empty answer?",
            "The answer box is empty. Finishing now sends stop [] and ends the task; it is "
            "scored with no answer. Only do this if the task asks for no answer.",
            "Finish with no answer")
    return Question(
        "Answer and finish?",
        f"This sends stop [{text}] and ends the task; no more actions can be taken "
        "afterwards.",
        "Answer and finish")
