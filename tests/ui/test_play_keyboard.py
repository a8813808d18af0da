"""Playing with the keyboard in the real window: every key that names an action is a recorded
step in the model's vocabulary; illegal ones count like a model's; other keys are ignored."""

from __future__ import annotations

from PySide6.QtCore import Qt

from playbench.app.core.budget import Budget
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.types import Decision
from tests.ui.conftest import ANNOTATOR
from tests.ui.helpers import ARROW_OF, WASD_OF, key, start_level, wait_end, wait_ready, wait_steps


def test_sokoban_level_played_to_the_goal_with_keys(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    hud = window.play_place.view("board").hud
    assert hud.feedback.text() == "Your move."  # the first observation is in
    solution = session.task.level.meta["solution"]
    board = window.play_place.view("board").board
    for i, move in enumerate(solution):
        key(qtbot, board, (ARROW_OF if i % 2 else WASD_OF)[move])
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    view = window.play_place.view("board")
    assert view.banner.isVisible() and "Solved" in view.banner_text.text()

    store = window.state.store
    row = store.episode(session.episode_id)
    assert (row.episode.status, row.episode.end_reason) == ("done", "solved")
    assert (row.participant.kind, row.participant.name) == ("human", ANNOTATOR)
    assert row.episode.meta["annotator"] == ANNOTATOR
    steps = store.steps(session.episode_id)
    assert [s.action for s in steps] == list(solution)
    assert [s.index for s in steps] == list(range(len(solution)))
    assert all(s.valid for s in steps)
    assert steps[0].raw == f"key:{WASD_OF[solution[0]]}"
    assert steps[1].raw == f"key:{ARROW_OF[solution[1]]}"
    assert all(s.think_ms >= 0 for s in steps) and all(s.frame for s in steps)
    assert row.scores["solved"] == 1.0


def _blocked_move(session) -> str:
    legal = set(session.env.legal_actions())
    return next(m for m in "UDLR" if m not in legal)


class FixedModel:
    kind, name, spec = "model", "fixed", "fixed"

    def __init__(self, move):
        self.move = move

    def details(self):
        return {}

    async def act(self, observation, context):
        return Decision.act(context.parse(self.move))


def test_an_illegal_key_is_recorded_and_counted_like_a_models_invalid_action(
        make_window, qtbot, aloop):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1, max_actions=20)
    blocked = _blocked_move(session)
    before = window.play_place.view("board").hud.actions_left.text()
    assert before == "20"
    key(qtbot, window.play_place.view("board").board, ARROW_OF[blocked])
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    step = window.state.store.steps(session.episode_id)[0]
    assert (step.action, step.valid, step.invalid_kind) == (blocked, False, "illegal")
    assert step.raw == f"key:{ARROW_OF[blocked]}"
    assert window.play_place.view("board").hud.actions_left.text() == "19"
    assert step.invalid_reason in window.play_place.view("board").hud.feedback.text()

    # The same action from a model, through the same loop and budget, gives the same step.
    async def model_step():
        task = session.task
        rec = MemoryRecorder()
        ep = Episode(make_env(task), FixedModel(blocked), task,
                     setting=get_setting("default"), budget=Budget(max_actions=1),
                     recorder=rec)
        await ep.run()
        return rec.episodes[1].steps[0], ep.use.actions_left()
    task = aloop.create_task(model_step())
    qtbot.waitUntil(task.done, timeout=10000)
    model, left = task.result()
    assert (model.action, model.valid, model.invalid_kind, model.invalid_reason) == \
        (step.action, step.valid, step.invalid_kind, step.invalid_reason)
    assert left == 0  # the model's one action was used up by the invalid step, too


def test_unmapped_keys_are_ignored(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    board = window.play_place.view("board").board
    for name in ("X", "Q", "F1", "Space", "Escape", "5", "Tab"):
        key(qtbot, board, name)
    board.setFocus()
    move = session.task.level.meta["solution"][0]
    key(qtbot, board, ARROW_OF[move])
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    steps = window.state.store.steps(session.episode_id)
    assert [(s.action, s.raw) for s in steps] == [(move, f"key:{ARROW_OF[move]}")]


def test_maze_with_wasd_and_a_typed_action(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "maze", "ingvp", 2)
    solution = session.task.level.meta["solution"]
    for move in solution[:-1]:
        key(qtbot, window.play_place.view("board").board, WASD_OF[move])
    wait_steps(qtbot, session, len(solution) - 1)
    wait_ready(qtbot, session)
    typed = window.play_place.view("board").typed
    typed.setText({"U": "up", "D": "down", "L": "left", "R": "right"}[solution[-1]])
    key(qtbot, typed, "Return")
    wait_end(qtbot, session)
    steps = window.state.store.steps(session.episode_id)
    assert session.result.end_reason == "solved"
    assert [s.action for s in steps] == list(solution)
    assert steps[-1].raw.startswith("typed:")


def test_the_hud_says_starting_until_the_first_observation(make_window, qtbot):
    """A slow game (football's engine takes seconds to start) must not invite a move
    before there is a board to move on."""
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    hud = window.play_place.view("board").hud
    observation, session.observation = session.observation, None  # as before Started
    hud.attach(session, "help")
    assert hud.feedback.text() == "Starting…"
    hud.refresh()
    assert hud.feedback.text() == "Starting…"
    session.observation = observation
    hud.refresh()
    assert hud.feedback.text() == "Your move."


def test_ctrl_q_closes_the_window_and_saves_the_running_episode(make_window, qtbot):
    """Ctrl+Q is not a game key: it closes the app as its close button does, and the
    episode under way is recorded as interrupted with the steps it had."""
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    board = window.play_place.view("board").board
    key(qtbot, board, ARROW_OF[session.task.level.meta["solution"][0]])
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    store = window.state.store
    with qtbot.waitSignal(window.closed, timeout=20000):
        key(qtbot, board, "Q", Qt.KeyboardModifier.ControlModifier)
    row = store.episode(session.episode_id)
    assert row.episode.status == "interrupted" and len(store.steps(session.episode_id)) == 1
