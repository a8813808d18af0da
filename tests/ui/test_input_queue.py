"""The human-input queue (Qt-free): gestures become decisions one at a time, in order, each
when the loop asks for it - driven here through the real episode loop, a real Sokoban board
and the real :class:`HumanPlayer`, wired the way the play views wire it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.events import Deciding, Ended, EpisodeResult
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.app.ui.models.input_queue import InputQueue
from playbench.games.base import Level

# Player at 1, box at 4, goal at 6: four moves right solve it, the first two only walk.
CORRIDOR = "########\n#@  $ .#\n########"


@dataclass
class Desk:
    """One play view's worth of wiring: the queue, the player, the episode it feeds."""

    player: HumanPlayer
    episode: Episode | None = None
    handed: list[tuple[str, int]] = field(default_factory=list)
    """(input, steps applied when it was handed over)."""
    made: list[tuple[str, int]] = field(default_factory=list)
    """(gesture, steps applied when it was turned into an input)."""
    running: bool = True
    queue: InputQueue[HumanInput] = field(init=False)

    def __post_init__(self) -> None:
        self.queue = InputQueue(self._hand_over, lambda: self.running)

    def _hand_over(self, given: HumanInput) -> None:
        self.handed.append((given.text or given.kind, self.steps()))
        self.player.submit(given)

    def steps(self) -> int:
        return 0 if self.episode is None else len(self.episode.steps)

    def event(self, event: Any, episode: Episode) -> None:
        if episode is not self.episode:  # a replaced episode's last events
            return
        if isinstance(event, Deciding):
            self.queue.deciding()
        elif isinstance(event, Ended):
            self.running = False
            self.queue.ended()

    def move(self, text: str) -> Callable[[], list[HumanInput]]:
        def make() -> list[HumanInput]:
            self.made.append((text, self.steps()))
            return [HumanInput.move(text, f"key:{text}")]
        return make

    def undo(self) -> list[HumanInput]:
        self.made.append(("undo", self.steps()))
        return [HumanInput.undo()]

    def start(self, setting: str = "default") -> Episode:
        task = Task("sokoban", Level("sokoban", CORRIDOR), {}, "test")
        self.running = True
        self.queue.reset()
        ep = Episode(make_env(task), self.player, task, setting=get_setting(setting),
                     budget=Budget(max_actions=20), recorder=MemoryRecorder())
        ep.listeners.append(lambda event: self.event(event, ep))
        self.episode = ep
        return ep


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition`` holds (bounded, so a broken queue fails)."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never held")


def actions(result: EpisodeResult) -> list[str | None]:
    return [s.action for s in result.steps]


def test_gestures_play_in_order_each_against_the_state_the_one_before_left():
    async def main() -> tuple[Desk, EpisodeResult]:
        desk = Desk(HumanPlayer("ann"))
        ep = desk.start()
        for text in ("R", "L", "R", "R", "R", "R"):  # typed ahead, before the loop asks
            assert desk.queue.push(desk.move(text))
        assert desk.handed == [] and desk.made == []  # nothing goes before the first ask
        return desk, await ep.run()

    desk, result = asyncio.run(main())
    assert actions(result) == ["R", "L", "R", "R", "R", "R"]
    assert result.end_reason == "solved"
    # The n-th gesture became an input only after n steps were applied, and went at once.
    assert desk.made == [(t, i) for i, t in enumerate(["R", "L", "R", "R", "R", "R"])]
    assert [n for _, n in desk.handed] == list(range(6))


def test_input_during_a_step_waits_for_the_next_decision():
    async def main() -> tuple[Desk, EpisodeResult]:
        desk = Desk(HumanPlayer("ann"))
        ep = desk.start()
        run = asyncio.ensure_future(ep.run())
        await until(lambda: desk.player.waiting)
        assert not desk.queue.in_flight
        desk.queue.push(desk.move("R"))
        assert desk.queue.in_flight and desk.handed == [("R", 0)]
        desk.queue.push(desk.move("R"))  # arrives while the first step is being applied
        assert desk.handed == [("R", 0)] and desk.queue.waiting == 1
        await until(lambda: len(desk.handed) == 2)
        assert desk.handed[1] == ("R", 1)
        for _ in range(2):
            desk.queue.push(desk.move("R"))
        return desk, await run

    desk, result = asyncio.run(main())
    assert actions(result) == ["R"] * 4 and result.end_reason == "solved"
    assert [n for _, n in desk.handed] == [0, 1, 2, 3]
    assert not desk.queue.push(desk.move("R"))  # an ended episode takes nothing more


def test_a_new_episode_drops_what_was_queued_for_the_old_one():
    async def main() -> tuple[Desk, EpisodeResult, EpisodeResult]:
        desk = Desk(HumanPlayer("ann"))
        old = desk.start()
        run = asyncio.ensure_future(old.run())
        await until(lambda: desk.player.waiting)
        desk.queue.push(desk.move("R"))
        for text in ("L", "L", "L"):  # queued behind the step in flight
            desk.queue.push(desk.move(text))
        assert desk.queue.waiting == 3

        desk.player = HumanPlayer("ann")  # the view makes a new session and player
        new = desk.start()
        assert desk.queue.waiting == 0 and desk.queue.in_flight
        run.cancel()  # the old episode stops (recorded interrupted); its events are ignored
        interrupted = await asyncio.gather(run, return_exceptions=True)
        assert isinstance(interrupted[0], asyncio.CancelledError)
        made_before = list(desk.made)
        for _ in range(4):
            desk.queue.push(desk.move("R"))
        result = await new.run()
        return desk, result, made_before

    desk, result, made_before = asyncio.run(main())
    assert actions(result) == ["R"] * 4 and result.end_reason == "solved"
    assert all(t == "R" for t, _ in desk.made)  # the old episode's "L"s never became inputs
    assert len(desk.made) == len(made_before) + 4


def test_give_up_jumps_the_queue_and_closes_it():
    async def main() -> tuple[Desk, EpisodeResult]:
        desk = Desk(HumanPlayer("ann"))
        ep = desk.start()
        run = asyncio.ensure_future(ep.run())
        await until(lambda: desk.player.waiting)
        desk.queue.push(desk.move("R"))           # in flight
        for _ in range(3):
            desk.queue.push(desk.move("R"))       # waiting behind it
        assert desk.queue.give_up(HumanInput.give_up())
        assert desk.queue.waiting == 0
        assert [t for t, _ in desk.handed] == ["R", "give_up"]  # at once, during the step
        assert not desk.queue.push(desk.move("R"))               # nothing after giving up
        assert not desk.queue.give_up(HumanInput.give_up())
        return desk, await run

    desk, result = asyncio.run(main())
    assert result.end_reason == "gave_up"
    assert actions(result) == ["R"]  # the moves queued behind the step were never played


def test_undo_waits_its_turn_and_takes_back_the_move_just_before_it():
    async def main() -> tuple[Desk, EpisodeResult]:
        desk = Desk(HumanPlayer("ann"))
        ep = desk.start("ingvp:image-multi-history")
        desk.queue.push(desk.move("R"))
        desk.queue.push(desk.move("R"))
        desk.queue.push(desk.undo)   # typed ahead: it must undo the second R, not the first
        for _ in range(3):
            desk.queue.push(desk.move("R"))
        return desk, await ep.run()

    desk, result = asyncio.run(main())
    assert actions(result) == ["R", "R", "undo 1", "R", "R", "R"]
    assert result.end_reason == "solved"
    assert ("undo", 2) in desk.made


def test_inputs_a_gesture_yields_play_in_order_and_flushed_inputs_go_first():
    handed: list[str] = []
    queue: InputQueue[str] = InputQueue(handed.append, lambda: True)
    queue.reset()
    queue.push(lambda: ["type [5] [hi]", "click [7]"])  # one gesture, two actions
    queue.push(lambda: ["scroll [down]"])
    for _ in range(2):
        queue.deciding()
    queue.push_front(["type [9] [flushed]"])  # the page changed under a pending text
    for _ in range(3):
        queue.deciding()
    assert handed == ["type [5] [hi]", "click [7]", "type [9] [flushed]", "scroll [down]"]
    assert queue.waiting == 0 and not queue.in_flight
