"""The pending-request queue: oldest first, answers and abandons from any thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from playbench.app.harness.queue import (
    ABANDONED,
    ANSWERED,
    PendingRequest,
    Reply,
    RequestQueue,
    ToolCall,
    ToolSpec,
)


def _request(n: int, clock_values: list[float]) -> PendingRequest:
    return PendingRequest(harness=f"h{n}", task_id=f"t{n}",
                          messages=[{"role": "user", "content": f"question {n}"}],
                          tools=[ToolSpec("move", "", {"type": "object"})],
                          clock=lambda: clock_values[n])


def test_oldest_first_whatever_the_order_of_put() -> None:
    times = [3.0, 1.0, 2.0]
    queue = RequestQueue()
    for n in (0, 1, 2):
        queue.put(_request(n, times))
    assert [r.harness for r in queue.pending()] == ["h1", "h2", "h0"]
    queue.oldest().answer(Reply("x"))  # type: ignore[union-attr]
    assert [r.harness for r in queue.pending()] == ["h2", "h0"]


def test_answer_from_another_thread_wakes_the_loop() -> None:
    queue = RequestQueue()
    request = _request(0, [0.0])

    async def main() -> Reply | None:
        queue.put(request)
        worker = threading.Thread(target=lambda: queue.take(5).answer(  # type: ignore[union-attr]
            Reply(tool_call=ToolCall("move", {"dir": "up"}))))
        worker.start()
        reply = await request.wait()
        worker.join()
        return reply

    reply = asyncio.run(main())
    assert reply is not None and reply.tool_call is not None
    assert reply.canonical() == 'move {"dir": "up"}'
    assert request.state == ANSWERED and len(queue) == 0
    assert request.answer(Reply("late")) is False


def test_abandoned_request_leaves_the_queue_and_cannot_be_answered() -> None:
    queue = RequestQueue()
    seen: list[int] = []
    queue.subscribe(lambda: seen.append(len(queue)))
    request = _request(0, [0.0])
    queue.put(request)
    assert request.abandon("harness disconnected")
    assert request.state == ABANDONED and request.result(0) is None
    assert not request.answer(Reply("too late"))
    assert seen == [1, 0]


def test_tool_not_offered_is_refused() -> None:
    request = _request(0, [0.0])
    with pytest.raises(ValueError, match="not offered"):
        request.answer(Reply(tool_call=ToolCall("jump")))
    assert not request.done


async def test_next_waits_for_a_request() -> None:
    queue = RequestQueue()
    waiter = asyncio.ensure_future(queue.next())
    await asyncio.sleep(0)
    assert not waiter.done()
    request = _request(0, [0.0])
    threading.Thread(target=queue.put, args=(request,)).start()
    assert await asyncio.wait_for(waiter, 5) is request
