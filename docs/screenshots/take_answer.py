"""Screenshots of the outside-harness views, taken from the real app window under Xvfb (a
sibling of ``take.py``).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/take_answer.py

It starts the app on a scratch database, starts serve-human from Models > "Answer a harness",
and lets two harnesses call it from their own threads with the official openai client, as
separate programs would: a Sokoban agent (a system prompt, an earlier tool call and its result,
the board as a picture, three tools) and the example harness of docs/examples/harness.py. With
both waiting, the person has chosen the ``move`` tool and filled part of its form:
answer-harness.png. Then Models > Model demo's recording proxy, in front of the built-in demo
profile, records the example harness's calls: proxy-demo.png.
"""

from __future__ import annotations

import base64
import contextlib
import io
import socket
import sys
import threading
from typing import Any

from shots import ROOT, prepare, run_tour, settle, shoot, until

SCRATCH = prepare("playbench-answer-shots-", {"annotator": "ann-07"})

MOVE = {"type": "function", "function": {
    "name": "move", "description": "Push or walk one or more squares in a direction.",
    "parameters": {"type": "object", "required": ["direction"], "properties": {
        "direction": {"type": "string", "enum": ["up", "down", "left", "right"],
                      "description": "where the player walks"},
        "steps": {"type": "integer", "minimum": 1, "maximum": 9,
                  "description": "how many squares (default 1)"},
        "note": {"type": "string", "description": "why, in a few words"}}}}}
UNDO = {"type": "function", "function": {
    "name": "undo", "description": "Take back the last move.",
    "parameters": {"type": "object", "properties": {}}}}
RESTART = {"type": "function", "function": {
    "name": "restart", "description": "Start the level again.",
    "parameters": {"type": "object", "properties": {
        "confirm": {"type": "boolean"}}, "required": ["confirm"]}}}


def board_png() -> str:
    """A Sokoban level as the agent's screenshot: the renderer's frame, enlarged."""
    from PIL import Image

    from playbench.games import registry
    from playbench.games.base import BoardEnv
    from playbench.games.packs import resolve
    spec = registry.get("sokoban")
    env = BoardEnv(spec)
    env.reset(resolve(spec, "ingvp:7").levels[0])
    frame = Image.fromarray(env.render())
    big = frame.resize((frame.width * 3, frame.height * 3), Image.Resampling.NEAREST)
    buf = io.BytesIO()
    big.save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def sokoban_agent(url: str) -> None:
    """One model call of a Sokoban agent (its second: the first move is already made)."""
    from openai import OpenAI
    client = OpenAI(base_url=url, api_key="none", max_retries=0, timeout=600,
                    default_headers={"X-PlayBench-Harness": "sokoban-agent",
                                     "X-PlayBench-Task": "ingvp-level-7"})
    picture = board_png()
    call = {"id": "call_1", "type": "function",
            "function": {"name": "move", "arguments": '{"direction": "down"}'}}
    messages = [
        {"role": "system", "content": "You are playing Sokoban. Push every box onto a target "
                                      "square. Walls are dark; targets are marked. Use the "
                                      "tools to move; one tool call per turn."},
        {"role": "user", "content": "The level starts. Make your first move."},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "moved down; no box pushed"},
        {"role": "user", "content": [
            {"type": "text", "text": "Here is the board now. What is your next move?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{picture}"}}]},
    ]
    with contextlib.suppress(Exception):  # the person answers it, or the app closes
        client.chat.completions.create(model="any", messages=messages,
                                       tools=[MOVE, UNDO, RESTART])


def example_harness(url: str) -> None:
    sys.path.insert(0, str(ROOT / "docs" / "examples"))
    import harness
    with contextlib.suppress(Exception):  # the person answers it, or the app closes
        harness.run(url, colour="blue", timeout=600)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def in_thread(fn: Any, *args: Any) -> threading.Thread:
    t = threading.Thread(target=fn, args=args, daemon=True)
    t.start()
    return t


async def tour(window: Any) -> None:
    from PySide6.QtWidgets import QComboBox

    view = window.models.answer
    window.show_page(view)
    if not port_free(view.port.value()):
        view.port.setValue(0)  # the machine runs serve-human already: any free port
    view.start_endpoint()
    await until(lambda: bool(view.url.text()))
    url = view.url.text()
    in_thread(sokoban_agent, url)
    await until(lambda: view.list.count() == 1)
    await settle(1.5)  # the second harness calls a little later: it queues behind
    in_thread(example_harness, url)
    await until(lambda: view.list.count() == 2)
    await until(lambda: bool(view.request_pane.thumbs)
                and view.request_pane.thumbs[0].image is not None)
    compose = view.compose
    compose.modes.setCurrentIndex(1)
    compose.tool.setCurrentIndex(compose.tool.findText("move"))
    editors = compose.form_view.editors
    direction = editors["direction"]
    assert isinstance(direction, QComboBox)
    direction.setCurrentIndex(direction.findText("left"))
    editors["steps"].setText("2")
    await settle(4.2)  # a few seconds of waiting and think time on the clocks
    view._tick()
    await settle(0.4)
    shoot(window, "answer-harness")

    # Answer both harnesses' calls so their episodes are recorded, then stop the endpoint.
    compose.submit()
    for text in ("blue", "a plain picture"):
        await until(lambda: view.compose.request is not None and not view.compose.request.done)
        compose.modes.setCurrentIndex(0)
        compose.text.setPlainText(text)
        compose.submit()
    view.stop_endpoint()
    await until(lambda: view.endpoint is None)

    # The recording proxy in Models > Model demo, in front of the demo profile.
    demo, panel = window.demo, window.models.proxy
    window.show_page(demo)
    panel.profile.setCurrentIndex(panel.profile.findData("demo"))
    panel.start()
    await until(lambda: bool(panel.url.text()))
    harness = in_thread(example_harness, panel.url.text())
    await until(lambda: not harness.is_alive() and panel.feed.exchanges >= 2)
    await settle(0.8)
    shoot(window, "proxy-demo")
    panel.stop()
    await until(lambda: panel.endpoint is None)


def main() -> int:
    return run_tour(tour)


if __name__ == "__main__":
    sys.exit(main())
