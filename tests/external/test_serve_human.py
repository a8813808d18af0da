"""serve-human end to end: the example harness (official openai client, real HTTP) against the
endpoint, a scripted person answering on the queue, everything recorded in a real SQLite file."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import openai
import pytest

from playbench.app.harness.queue import PendingRequest, Reply, ToolCall
from tests.external.helpers import answering, running

ROOT = Path(__file__).resolve().parents[2]


def load_harness():
    spec = importlib.util.spec_from_file_location("example_harness",
                                                  ROOT / "docs/examples/harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["example_harness"] = module
    spec.loader.exec_module(module)
    return module


HARNESS = load_harness()


def colour_of(request: PendingRequest) -> str:
    """What a person sees: the middle pixel of the picture, named."""
    rgb = request.images[-1].rgb()
    middle = tuple(int(v) for v in rgb[rgb.shape[0] // 2, rgb.shape[1] // 2])
    return min(HARNESS.COLOURS, key=lambda c: sum(abs(a - b) for a, b in
                                                   zip(HARNESS.COLOURS[c], middle, strict=True)))


def person(request: PendingRequest) -> Reply:
    if request.tools:
        return Reply(tool_call=ToolCall("answer", {"colour": colour_of(request), "sure": True}))
    return Reply(f"a plain {len(request.messages)}-message chat")


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("colour", ["blue", "yellow"])
def test_example_harness_answered_by_a_person_is_recorded(db_url, stream, colour):
    with running(db_url) as srv, answering(srv.queue, person) as seen:
        outcome = HARNESS.run(srv.url, colour=colour, stream=stream, task=f"t-{colour}")
        srv.wait_idle()
        store = srv.store
        assert outcome.guess == colour and outcome.correct
        assert outcome.remark == "a plain 5-message chat"
        episode_id = outcome.report["episode"]
        assert srv.hub.episodes == [episode_id]
        row = store.episode(episode_id)
        steps = store.steps(episode_id)
    assert [r.harness for r in seen] == ["example-harness"] * 2
    assert row.episode.status == "done" and row.episode.end_reason == "harness_ended"
    assert row.participant.kind == "human" and row.participant.name == "tester"
    assert json.loads(row.task.level_text) == {"harness": "example-harness",
                                               "task": f"t-{colour}"}
    assert row.episode.meta["via"] == "serve-human"
    assert {k: row.scores[k] for k in ("score", "solved")} == {"score": 1.0, "solved": 1.0}
    assert len(steps) == 2 and all(s.valid for s in steps)
    first, second = steps
    assert first.action == f'answer {{"colour": "{colour}", "sure": true}}'
    request = first.info["request"]
    assert request["stream"] is stream
    assert [t["name"] for t in request["tools"]] == ["answer"]
    assert request["tools"][0]["parameters"]["required"] == ["colour"]
    image_part = request["messages"][1]["content"][1]
    assert image_part["type"] == "image" and len(image_part["sha256"]) == 64
    assert "base64" not in json.dumps(request)  # pictures are frames, not text in the step
    assert first.info["reply"]["tool_call"]["arguments"]["colour"] == colour
    assert first.info["answer_ms"] >= 0 and first.think_ms > 0
    assert first.prompt_tokens > 85 and first.completion_tokens > 0
    assert second.action == "a plain 5-message chat"
    assert second.info["request"]["messages"][-2]["role"] == "tool"
    # the picture the person saw is the episode's start frame, stored once
    # each picture part names the frame it is stored as
    assert first.info["image_frames"] == [row.episode.start_frame]
    png = store.frame_png(row.episode.start_frame)
    from io import BytesIO

    from PIL import Image
    picture = np.asarray(Image.open(BytesIO(png)).convert("RGB"))
    assert tuple(picture[48, 48]) == HARNESS.COLOURS[colour]


def test_a_wrong_answer_is_scored_as_the_harness_reports(db_url):
    def wrong(request: PendingRequest) -> Reply:
        return Reply("green") if request.tools else Reply("ok")

    with running(db_url) as srv, answering(srv.queue, wrong):
        outcome = HARNESS.run(srv.url, colour="red")
        srv.wait_idle()
        row = srv.store.episode(outcome.report["episode"])
        steps = srv.store.steps(outcome.report["episode"])
    assert not outcome.correct and outcome.guess == "green"
    assert {k: row.scores[k] for k in ("score", "solved")} == {"score": 0.0, "solved": 0.0}
    assert steps[0].action == "green" and steps[0].info["reply"] == {"tool_call": None,
                                                                     "text": None}


def test_models_lists_the_human_model(db_url):
    with running(db_url) as srv:
        client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0)
        assert [m.id for m in client.models.list()] == ["playbench-human"]
