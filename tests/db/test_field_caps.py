"""Stored fields of a step are capped (issue 27): a 50 MB action, reply and invalid reason, and
an info holding 5 MB of blocked URLs and 5 MB of notes, are each stored within FIELD_LIMIT (+
room for the note) in a real SQLite file, end with a note giving the original size and SHA-256,
and ``info["cut"]`` names every field that was cut; a normal step is stored as recorded."""

from __future__ import annotations

import hashlib
import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.core.recorder import DbRecorder, EpisodeStart
from playbench.db.caps import (
    FIELD_LIMIT,
    INFO_LIMIT,
    NOTE_ROOM,
    cap_step_row,
    cut_text,
    fit_info,
)
from playbench.db.engine import open_database
from playbench.db.steps import StepRecord
from playbench.db.store import Store

MB50 = 50 * 1024 * 1024


def start() -> EpisodeStart:
    return EpisodeStart(
        game="sokoban", level_hash="caps", level_text="#####", level_number=1, level_title="",
        level_source="test", level_meta={}, participant_kind="script", participant_name="caps",
        participant_details={}, setting="default", player="script:caps", budget={}, rules={},
        seed=0, owner=f"pid:{os.getpid()}", start_state="")


def record(index: int, **fields) -> StepRecord:
    values = dict(index=index, decision=index, action="U", raw="U", valid=True,
                  invalid_kind=None, invalid_reason=None, changed=True, reward=0.0,
                  state_hash="s", info={})
    values.update(fields)
    return StepRecord(**values)


async def test_every_column_of_a_huge_step_is_stored_within_the_cap(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'caps.sqlite3'}"))
    recorder = DbRecorder(store)
    action = "```html\n" + "é" * (MB50 // 2) + "\n```"
    blocked = [{"url": f"http://127.0.0.1:9/{i:08d}" + "x" * 500, "type": "image",
                "page": "http://127.0.0.1:8/", "via": "route"} for i in range(MB50 // 6000)]
    huge = record(0, action=action, raw="R" * MB50, valid=False, invalid_kind="illegal",
                  invalid_reason="bad: " + "y" * MB50,
                  info={"blocked": blocked, "notes": "z" * (MB50 // 10), "aes": 0.5})
    small = record(1, info={"blocked": blocked[:3], "aes": 1.0})
    episode = await recorder.begin(start(), None)
    await recorder.step(episode, huge, None)
    await recorder.step(episode, small, None)
    with store.db.engine.connect() as conn:
        sizes = conn.exec_driver_sql(
            "SELECT length(CAST(action AS BLOB)), length(CAST(raw AS BLOB)), "
            "length(CAST(invalid_reason AS BLOB)), length(CAST(info AS BLOB)) FROM steps "
            "ORDER BY \"index\"").all()
    *texts, info_size = sizes[0]
    assert all(size <= FIELD_LIMIT + NOTE_ROOM for size in texts), sizes[0]
    assert info_size <= INFO_LIMIT + NOTE_ROOM, sizes[0]
    first, second = store.steps(episode)
    cut = first.info["cut"]
    assert set(cut) == {"action", "raw", "invalid_reason", "info"}
    digest = hashlib.sha256(action.encode()).hexdigest()
    assert cut["action"]["bytes"] == len(action.encode()) and cut["action"]["sha256"] == digest
    assert first.action.endswith(f"of {len(action.encode())} bytes stored; sha256 {digest}]")
    assert first.action.startswith(action[:1000])
    assert first.info["aes"] == 0.5  # small entries survive whole
    assert set(cut["info"]["entries"]) == {"blocked", "notes"}
    assert first.info["blocked"][:10] == blocked[:10]
    assert "cut by PlayBench" in first.info["blocked"][-1]
    assert second.record == small  # a normal step is stored exactly as recorded
    store.db.dispose()


@given(st.text(max_size=300), st.integers(min_value=0, max_value=200))
def test_a_cut_keeps_a_whole_character_prefix_within_the_limit(text, limit):
    stored, cut = cut_text(text, limit, "reply")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= limit:
        assert stored == text and cut is None
        return
    assert cut is not None and cut["bytes"] == size and cut["stored_bytes"] <= limit
    head = stored[:stored.rindex("\n[reply cut by PlayBench")]
    assert text.startswith(head) and len(head.encode("utf-8", "surrogatepass")) <= limit
    assert limit - len(head.encode("utf-8", "surrogatepass")) < 4  # at most one character short


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.text(max_size=5), st.one_of(
    st.integers(), st.text(max_size=50), st.lists(st.text(max_size=20), max_size=20)),
    max_size=8), st.integers(min_value=1, max_value=4))
def test_any_info_is_held_to_the_cap(info, scale):
    big = {**info, "big": ["q" * 1000] * (INFO_LIMIT * scale // 1000)}
    stored, cut = fit_info(big)
    assert (cut is None) == (len(json.dumps(big).encode()) <= INFO_LIMIT + NOTE_ROOM)
    assert len(json.dumps(stored).encode()) <= INFO_LIMIT + NOTE_ROOM
    row = cap_step_row(record(0, info=big).__dict__ | {"info": big})
    assert len(json.dumps(row["info"]).encode()) <= INFO_LIMIT + NOTE_ROOM
