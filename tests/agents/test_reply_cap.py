"""Issue 13 item 8 (replies): a model's runaway reply is stored cut to REPLY_LIMIT bytes with a
note saying so, on every step, in a real SQLite file; a normal reply is stored whole."""

from __future__ import annotations

from playbench.app.agents.client import ModelReply
from playbench.app.agents.player import REPLY_LIMIT, ModelPlayer, cap_reply
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import make_protocols
from playbench.app.agents.protocols.base import Reply
from playbench.app.core.budget import Budget
from playbench.app.core.play import play
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import Usage
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.sokoban.generator import generate


class BabblingServer:
    """A completer that answers every prompt with one move and then ``size`` bytes of talk."""

    def __init__(self, size: int) -> None:
        self.size = size

    async def complete(self, prompt, headers=None, on_text=None) -> ModelReply:
        text = '{"action": "U"}\n' + "é" * (self.size // 2)
        return ModelReply(Reply(text), Usage(requests=1), "stop", (), "babbler")


def play_with(store: Store, completer) -> int:
    import asyncio
    profile = ModelProfile(name="babbler", base_url="http://127.0.0.1:9/v1", model="none")
    player = ModelPlayer(profile, completer, make_protocols(), lambda frame: "data:,")
    task = Task("sokoban", generate(1, seed=4, width=8, height=8, boxes=2)[0], {}, "test")
    result = asyncio.run(play(task, player, setting=get_setting("ingvp:text-multi", "sokoban"),
                              budget=Budget(max_actions=3), recorder=DbRecorder(store),
                              render=False))
    return result.episode_id


def test_a_10_mb_reply_is_stored_cut_on_every_step(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'cap.sqlite3'}"))
    babbler = BabblingServer(10 * 1024 * 1024)
    episode = play_with(store, babbler)
    whole = len(('{"action": "U"}\n' + "é" * (babbler.size // 2)).encode("utf-8"))
    steps = store.steps(episode)
    assert steps
    for step in steps:
        stored = step.raw.encode("utf-8")
        assert REPLY_LIMIT <= len(stored) < REPLY_LIMIT + 200
        assert f"[reply cut by PlayBench: {REPLY_LIMIT} of {whole} bytes stored; " \
            "sha256 " in step.raw[-200:]
        assert step.info["reply_cut"] == {"stored_bytes": REPLY_LIMIT,
                                          "reply_bytes": whole}
    store.db.dispose()


def test_a_normal_reply_is_stored_whole(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'whole.sqlite3'}"))
    episode = play_with(store, BabblingServer(2000))
    for step in store.steps(episode):
        assert step.raw == '{"action": "U"}\n' + "é" * 1000
        assert "reply_cut" not in (step.info or {})
    store.db.dispose()


def test_a_cut_never_splits_a_character():
    text, size = cap_reply("ab" + "€" * 10, limit=5)
    assert size == 32 and text.startswith("ab€\n[reply cut")
