"""What playing a recorded episode again can rebuild, declared by each task kind as data.

Two operations re-play a record through the loop (``playbench.app.core``): *verification*
(``playbench replay --verify``) plays the recorded actions into a fresh environment with the
episode's task and seed and compares every step's validity, state hash and the scores; *resume*
(``playbench run --resume``) does the same to rebuild the state of an interrupted episode and
then plays on. Both only hold when the environment is a function of (task, seed, actions).
A kind says how far that is true in its :class:`ReplaySpec` (``TaskKind.replay``), so the app
never guesses: the CLI and the UI refuse a resume the kind cannot honour, with the kind's own
reason, and ``playbench games`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReplaySpec:
    """How a kind's recorded episodes can be played again (see the module docstring).

    The defaults describe a kind whose environment depends only on its task, seed and
    actions, without drawing anything: every board game."""

    resumable: bool = True
    """An interrupted episode can continue after its recorded steps (a fresh environment
    replays them, each checked against its recorded state hash)."""
    renders: bool = False
    """Replaying needs the environment's rendering: a step's validity or the scores come from
    what the page draws (CSS repair's SSIM and element look-ups). A kind without it is
    replayed without frames, which is cheaper and gives the same states."""
    clocked_settings: frozenset[str] = frozenset()
    """Settings played against the wall clock (a browser game in real time): what the same
    actions lead to depends on when they were sent, so such episodes are not resumed, and a
    verification compares only what the actions alone decide (that each recorded action reads
    and is accepted as before), not states or scores."""
    reason: str = ""
    """One sentence for people: why the kind's episodes cannot be resumed, or which of its
    settings cannot and why. Required when either is the case."""

    def __post_init__(self) -> None:
        if (not self.resumable or self.clocked_settings) and not self.reason.strip():
            raise ValueError("a ReplaySpec that limits resume or verification must say why "
                             "(reason)")

    def clocked(self, setting: str) -> bool:
        """Whether ``setting`` (a compatibility variant ``NAME+compat=...`` as its base
        ``NAME``) is played against the wall clock."""
        return setting.split("+", 1)[0] in self.clocked_settings

    def resumes(self, setting: str) -> bool:
        """Whether an episode played in ``setting`` can be resumed."""
        return self.resumable and not self.clocked(setting)

    def exact(self, setting: str) -> bool:
        """Whether verifying an episode played in ``setting`` compares states and scores
        (False for a clocked setting, where only the actions are compared)."""
        return not self.clocked(setting)

    def summary(self) -> str:
        """What ``playbench games`` prints about resume and verification."""
        if not self.resumable:
            return f"resume: no - {self.reason}"
        if self.clocked_settings:
            names = ", ".join(sorted(self.clocked_settings))
            return f"resume: yes, except {names} - {self.reason}"
        return "resume: yes" + (f" - {self.reason}" if self.reason else "")


RESUMABLE = ReplaySpec()
"""The spec of a kind that a replay rebuilds exactly (the default)."""
