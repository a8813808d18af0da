"""What a step stores of a request is bounded: a huge text is cut with a note of its size and
digest, the oldest turns of an oversized conversation become one placeholder, a picture of too
many pixels keeps its digest but is not decoded or stored as a frame - and the database file
grows by about a megabyte, not by the request's size."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

from PIL import Image

from playbench.app.harness.queue import Reply
from playbench.app.harness.stored import REQUEST_LIMIT, TEXT_LIMIT
from tests.external.helpers import answering, running
from tests.external.test_malformed import post


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_a_huge_request_is_stored_within_the_caps(db_url):
    huge = "é" * (1024 * 1024)  # 2 MiB of UTF-8 in one message
    older = [{"role": "user" if n % 2 == 0 else "assistant", "content": f"{n % 10}" * 60_000}
             for n in range(40)]  # each under the text cap, 2.4 MB together
    picture = png(5000, 4000)  # 20 million pixels in a small file
    body = {"model": "m", "messages": [
        *older,
        {"role": "user", "content": [
            {"type": "text", "text": huge},
            {"type": "image_url",
             "image_url": {"url": "data:image/png;base64," + base64.b64encode(picture).decode()}},
        ]}]}
    raw = json.dumps(body).encode()
    database = Path(db_url.removeprefix("sqlite:///"))
    with running(db_url) as srv, answering(srv.queue, lambda _r: Reply("seen")):
        status, answer = post(srv.url, raw, {"X-PlayBench-End": "1"})
        srv.wait_idle()
        (step,) = srv.store.steps(srv.hub.episodes[0])
        row = srv.store.episode(srv.hub.episodes[0])
    assert status == 200 and answer["choices"][0]["message"]["content"] == "seen"
    assert len(raw) > 4 * 1024 * 1024
    request = step.info["request"]
    stored = json.dumps(request, ensure_ascii=False).encode()
    assert len(stored) <= REQUEST_LIMIT + 64 * 1024
    last = request["messages"][-1]["content"]
    assert last[0]["text"].startswith("é" * 1000)
    whole = huge.encode()
    note = f"of {len(whole)} bytes stored; sha256 {hashlib.sha256(whole).hexdigest()}"
    assert note in last[0]["text"] and len(last[0]["text"].encode()) < TEXT_LIMIT + 200
    assert last[1]["sha256"] == hashlib.sha256(picture).hexdigest()  # named, not stored
    first = request["messages"][0]
    assert first["cut_by_playbench"].endswith(f"over {REQUEST_LIMIT} bytes")
    assert first["messages"] >= 1 and request["cut"]["messages"] == first["messages"]
    assert request["cut"]["texts"] >= 1
    assert row.episode.start_frame is None and step.frame is None  # too many pixels to decode
    files = sum(p.stat().st_size for p in database.parent.glob(database.name + "*"))
    assert files < 4 * 1024 * 1024, files
