"""A model endpoint that repeats the key in a successful answer (``HostileUpstream``) behind
the ordinary model client: ``playbench models test``, ``run`` and the JSONL and chat exports
show and store the answer with the key masked - as the error paths always did."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playbench.app.agents.redact import MASK
from tests.external.test_key_echo import KEY, HostileUpstream


@pytest.fixture
def hostile() -> Iterator[HostileUpstream]:
    upstream = HostileUpstream()
    yield upstream
    upstream.close()


def test_a_model_answer_echoing_the_key_is_masked_everywhere(cli, db_url, tmp_path, hostile):
    from playbench.app.agents.profiles import ModelProfile, ProfileStore
    from playbench.games import registry
    from tests.agents.helpers import _generated

    level = tmp_path / "maze.txt"
    level.write_text(registry.get("maze").formats["pack"].dump(list(_generated("maze", 1, 7))))
    cli.env["PB_ECHOED_KEY"] = KEY
    ProfileStore(cli.cwd / "config").save(ModelProfile(
        "echo", hostile.url, "echo-200", api_key="env:PB_ECHOED_KEY", max_retries=0))
    printed = []
    for args in (["models", "test", "echo"],
                 ["run", "--game", "maze", "--levels", f"{level}:1", "--player", "model:echo",
                  "--setting", "ingvp:text-one", "--decisions", "2", "--no-progress"],
                 ["export", "--format", "jsonl", "--out", str(tmp_path / "jsonl")],
                 ["export", "--format", "chat", "--out", str(tmp_path / "chat")]):
        result = cli("-v", *args)
        assert result.code == 0, (args, result.err)
        printed.append(result.out + result.err)
    assert hostile.keys and set(hostile.keys) == {KEY}
    assert MASK in printed[0]  # models test shows the answer, masked
    outputs = "\n".join(printed)
    assert KEY not in outputs
    files = [p for p in tmp_path.rglob("*") if p.is_file() and "config" not in p.parts]
    leaked = [str(p) for p in files if KEY.encode() in p.read_bytes()]
    assert not leaked
    from playbench.db.engine import open_database
    from playbench.db.store import Store

    store = Store(open_database(db_url))
    try:
        steps = [s for row in store.episodes() for s in store.steps(row.episode.id)]
    finally:
        store.db.dispose()
    assert steps and all(MASK in s.raw for s in steps)
