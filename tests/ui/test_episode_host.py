"""The one episode host every play surface runs a person's episode on (no Qt here): a real
SQLite file, a real board episode, a surface that only records what it is asked to draw."""

from __future__ import annotations

import asyncio

from playbench.app.core.budget import Budget
from playbench.app.core.events import Ended, Started, Stepped
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.app.ui.models.app_state import Jobs
from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.base import Level

ROOM = "#####\n#@$.#\n#####"   # one push right solves it


class Recorder:
    """A surface that records the host's calls and hands inputs to the player."""

    def __init__(self, host: EpisodeHost) -> None:
        self.host = host
        self.calls: list[tuple[str, object]] = []
        self.active = False

    def show_session(self, session, host) -> None:
        self.calls.append(("show", session))
        self.active = True

    def on_event(self, event) -> None:
        self.calls.append(("event", event))

    def set_active(self, on: bool) -> None:
        self.active = on

    def hand_over(self, given) -> None:
        self.calls.append(("hand_over", given.text))
        self.host.submit(given)

    def events(self, session=None):
        return [e for what, e in self.calls if what == "event"
                and (session is None or e.episode_id == session.episode_id)]


def session_on(store: Store, room: str = ROOM) -> PlaySession:
    task = Task("sokoban", Level("sokoban", room, number=1), {}, "test")
    return PlaySession(store, task, get_setting("default", "sokoban"), Budget(max_actions=10),
                       HumanPlayer("ann-1"))


async def until(check, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def make_host(errors: list) -> tuple[EpisodeHost, Recorder]:
    host = EpisodeHost(Jobs(), errors.append)
    surface = Recorder(host)
    host.attach(surface)
    return host, surface


def test_gestures_play_in_order_one_decision_at_a_time_and_are_recorded(db_url):
    async def main():
        store = Store(open_database(db_url))
        errors: list = []
        host, surface = make_host(errors)
        session = session_on(store)
        host.begin(session)
        assert surface.calls[0] == ("show", session) and host.busy
        # queued before the loop asked: nothing is handed over until it does
        host.push(lambda: [HumanInput.move("L", "key:Left")])   # illegal: the wall
        host.push(lambda: [HumanInput.move("R", "key:Right")])  # solves
        assert not [c for c in surface.calls if c[0] == "hand_over"]
        await host.task
        assert [c[1] for c in surface.calls if c[0] == "hand_over"] == ["L", "R"]
        kinds = [type(e) for e in surface.events()]
        assert kinds[0] is Started and kinds[-1] is Ended and kinds.count(Stepped) == 2
        assert not surface.active and not host.busy and not host.accepting()
        steps = store.steps(session.episode_id)
        assert [(s.action, s.valid, s.raw) for s in steps] == [
            ("L", False, "key:Left"), ("R", True, "key:Right")]
        assert session.result.end_reason == "solved" and errors == []
    asyncio.run(main())


def test_give_up_is_asked_first_and_jumps_the_queue(db_url):
    async def main():
        store = Store(open_database(db_url))
        host, surface = make_host([])
        assert host.give_up_question() is None  # nothing runs: nothing to ask
        session = session_on(store)
        host.begin(session)
        await until(lambda: session.player.waiting)
        question = host.give_up_question()
        assert question is not None and "Nothing has been played yet" in question.text
        host.push(lambda: [HumanInput.move("L", "key:Left")])
        await until(lambda: len(session.steps) == 1)
        assert "The 1 step" in host.give_up_question().text
        host.give_up()
        await host.task
        assert session.result.end_reason == "gave_up"
        assert [s.action for s in store.steps(session.episode_id)] == ["L"]
    asyncio.run(main())


def test_a_replaced_sessions_last_events_never_reach_the_surface(db_url):
    async def main():
        store = Store(open_database(db_url))
        host, surface = make_host([])
        first = session_on(store)
        host.begin(first)
        await until(lambda: first.player.waiting)
        first_task = host.task
        assert host.replace_question("a new level") is not None
        host.stop()  # its end (interrupted) is recorded after the next one began
        second = session_on(store)
        host.begin(second)
        await asyncio.wait([first_task])
        await until(lambda: first.result is not None)
        assert first.result.status == "interrupted"
        assert not [e for e in surface.events(first) if isinstance(e, Ended)]
        await until(lambda: second.player.waiting)
        host.push(lambda: [HumanInput.move("R", "key:Right")])
        await host.task
        assert second.result.end_reason == "solved"
    asyncio.run(main())


def test_stop_then_waits_for_the_recorded_end(db_url):
    async def main():
        store = Store(open_database(db_url))
        host, _surface = make_host([])
        session = session_on(store)
        host.begin(session)
        await until(lambda: session.player.waiting)
        seen: list = []
        host.stop_then(lambda: seen.append(store.episode(session.episode_id).episode.status))
        await until(lambda: seen)
        assert seen == ["interrupted"]
        host.stop_then(lambda: seen.append("at once"))  # nothing runs: straight away
        assert seen[-1] == "at once"
        assert host.pause_study() is False  # not a study task: nothing to pause
    asyncio.run(main())


def test_the_way_on_is_the_studys_then_else_the_next_level():
    started: list = []
    host, _surface = make_host([])
    assert not host.can_go_next()
    levels = (Level("sokoban", ROOM, number=1), Level("sokoban", ROOM, number=2))
    request = StartRequest(PackRef("sokoban", "two rooms", "rooms.xsb", False), levels, 0,
                           "human", "default", Budget(max_actions=10))
    host.request = request
    assert host.can_go_next()
    host.go_next(started.append)
    assert [r.index for r in started] == [1]
    host.request = started[0]  # the last level: no way on
    assert not host.can_go_next()
    went: list = []
    host.then = ("Next task", lambda: went.append(True))
    assert host.next_text == "Next task" and host.can_go_next()
    host.go_next(started.append)
    assert went == [True]
