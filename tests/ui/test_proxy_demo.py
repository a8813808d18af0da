"""The recording proxy in the model demo view: started from the view in front of a model
profile, the example harness (official openai client, real HTTP, its own thread) calls through
it, and each exchange appears in the transcript as it is recorded - the request when it
arrives, the reply and the HTTP status once the step is committed - with the request's picture
on the board; the cards match the steps in the database."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.test_answer_harness import HarnessThread


def test_the_proxys_exchanges_show_live_in_the_demo_view(make_window, qtbot):
    window = make_window()
    panel = window.models.proxy
    demo = window.demo
    window.show_page(demo)
    panel.profile.setCurrentIndex(panel.profile.findData("demo"))
    seen: list[tuple[int, bool, int]] = []
    """(card, done, steps recorded so far) after each event the view handled."""
    original = panel._event

    def watch(event):
        original(event)
        for key, card in demo.transcript.cards.items():
            state = (key, card.done)
            if not seen or seen[-1][:2] != state:
                seen.append((*state, panel.feed.exchanges))
    panel._event = watch
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(panel.url.text()), timeout=15000)
    url = panel.url.text()
    assert url.startswith("http://127.0.0.1:") and "waiting for a harness" in demo.title.text()

    harness = HarnessThread(url, "red", "t-proxy")
    harness.start()
    qtbot.waitUntil(lambda: not harness.is_alive(), timeout=30000)
    endpoint = panel.endpoint
    qtbot.waitUntil(lambda: bool(endpoint.episodes) and panel.feed.exchanges >= 1,
                    timeout=20000)
    episode_id = endpoint.episodes[0]
    store = window.state.store
    steps = store.steps(episode_id)
    qtbot.waitUntil(lambda: len(store.steps(episode_id)) == panel.feed.exchanges,
                    timeout=20000)
    steps = store.steps(episode_id)
    cards = demo.transcript.cards
    assert len(cards) == len(steps) >= 1
    first = cards[0]
    assert first.done and "example-harness · task t-proxy" in first.head.text()
    body = first.body.text()
    assert "What colour is the square in the middle?" in body and "1 image" in body
    assert "tools: answer" in body
    assert f"HTTP {steps[0].info['http_status']} passed back" in body
    assert demo.board.image is not None  # the request's picture
    # Live: each card was shown waiting before its exchange was recorded, then completed.
    assert (0, False, 0) in seen and (0, True, 1) in seen
    assert seen.index((0, False, 0)) < seen.index((0, True, 1))
    row = store.episode(episode_id)
    assert row.episode.meta["via"] == "proxy" and row.participant.kind == "model"

    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.endpoint is None and panel.start_button.isEnabled(),
                    timeout=15000)
    assert panel.url.text() == ""
