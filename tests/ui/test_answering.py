"""The answer view's Qt-free model (``playbench.app.ui.models.answering``): the conversation laid
out as the model reads it, queue rows, which request is shown, and what may be sent."""

from __future__ import annotations

from playbench.app.harness.queue import PendingRequest, RequestImage, ToolSpec
from playbench.app.ui.models.answering import (
    TEXT,
    TOOL,
    choose_next,
    compose,
    conversation,
    form_for,
    queue_line,
    waited,
)

PICK = ToolSpec("pick", "Pick a card", {"type": "object", "required": ["card"],
                                        "properties": {"card": {"type": "integer"}}})


def chat() -> PendingRequest:
    call = {"id": "c1", "type": "function", "function": {"name": "pick",
                                                         "arguments": '{"card": 2}'}}
    return PendingRequest(harness="h", task_id="t", tools=(PICK,), images=(
        RequestImage(b"png-1", "image/png", message=1),
        RequestImage(b"png-2", "image/png", message=4)), messages=[
        {"role": "system", "content": "Rules."},
        {"role": "user", "content": [{"type": "text", "text": "Start."},
                                     {"type": "image_url", "image_url": {"url": "data:"}}]},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:"}}]}])


def test_the_conversation_leaves_the_system_prompt_apart_and_keeps_images_in_place():
    turns = conversation(chat())
    assert [t.role for t in turns] == ["user", "assistant", "tool", "user"]
    assert turns[0].text == "Start." and turns[0].images == (0,)
    assert turns[1].calls == ('pick {"card": 2}',) and turns[1].text == ""
    assert turns[2].note == "for call c1" and turns[2].text == "ok"
    assert turns[3].images == (1,) and turns[3].text == ""


def test_waiting_times_and_queue_rows_read_naturally():
    assert [waited(s) for s in (0, 8.9, 125, 3780)] == ["0 s", "8 s", "2 min 05 s",
                                                         "1 h 03 min"]
    r = chat()
    assert queue_line(r, r.arrived_monotonic + 61) == "h · task t\nwaiting 1 min 01 s"


def test_the_shown_request_stays_until_it_is_answered_then_the_oldest_follows():
    a, b = chat(), chat()
    assert choose_next([a, b], None) == a.id
    assert choose_next([a, b], b.id) == b.id
    assert choose_next([a], b.id) == a.id and choose_next([], a.id) is None


def test_only_a_complete_answer_is_sent():
    form = form_for(PICK)
    assert compose(TEXT, "  \n", form, {})[0] is None
    reply, problems = compose(TEXT, "card two", form, {})
    assert reply is not None and reply.text == "card two" and problems == []
    assert compose(TOOL, "", None, {}) == (None, ["Choose the tool to call."])
    assert compose(TOOL, "", form, {"card": ""}) == (None, ["card: required - fill it in"])
    reply, _ = compose(TOOL, "", form, {"card": "2"})
    assert reply is not None and reply.tool_call is not None
    assert (reply.tool_call.name, dict(reply.tool_call.arguments), reply.text) == (
        "pick", {"card": 2}, "")
