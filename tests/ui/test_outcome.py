"""The end-of-episode sentences (Qt-free): what a person is told when an episode ends."""

from __future__ import annotations

from types import SimpleNamespace as NS

from playbench.app.ui.models.outcome import board_end_text, web_end_text


def result(status="done", end_reason="solved", actions=("R", "R"), **scores):
    return NS(status=status, end_reason=end_reason, scores=scores,
              steps=[NS(action=a) for a in actions])


def test_board_text_names_the_outcome_actions_and_the_optimum():
    text = board_end_text(result(actions=("R",) * 9), optimal=8, blind=False)
    assert text.startswith("Solved") and "9 actions" in text and "optimal: 8" in text
    assert board_end_text(result("done", "budget", ("U",)), 8, False) == (
        "Out of actions after 1 action.")
    assert "optimal" not in board_end_text(result("done", "budget"), 8, False)


def test_a_blind_study_hides_the_outcome():
    text = board_end_text(result(), optimal=8, blind=True)
    assert "Solved" not in text and "optimal" not in text and "2 actions" not in text


def test_interrupted_and_error_say_the_steps_are_kept():
    assert "resumed" in board_end_text(result("interrupted", "interrupted"), None, False)
    assert "boom" in board_end_text(result("error", "boom"), None, False)
    assert "cannot be resumed" in web_end_text(result("interrupted", "interrupted"))


def test_web_text_quotes_the_answer_and_gives_the_score():
    done = result("done", "stopped", ("click [3]", "stop [Ann from Riverton]"), score=1.0)
    text = web_end_text(done)
    assert "“Ann from Riverton”" in text and "2 actions" in text and "Score 1 - solved." in text
    wrong = result("done", "stopped", ("stop [nobody]",), score=0.0)
    assert "Score 0." in web_end_text(wrong) and "solved" not in web_end_text(wrong)
    unjudged = result("done", "budget", ("scroll [down]",) * 30, score=None)
    assert web_end_text(unjudged).startswith("Out of actions after 30 actions")
    assert "Not scored" in web_end_text(unjudged)


def test_a_kinds_own_end_reason_reads_as_words():
    # football ends on its own reasons (ball_lost, time_up); a person sees words, not codes
    assert board_end_text(result("done", "ball_lost", ("R",) * 7), None, False) == (
        "Ball lost after 7 actions.")


def test_every_surface_hides_the_outcome_of_a_blind_study_task():
    """The browser pane and the game pane said the score even in a blind study (only the
    board hid it): each now gives the blind study's sentence, and a paused study task says
    how to continue it rather than that web episodes cannot be resumed."""
    from playbench.app.ui.models.game_play import game_end_text

    web = result("done", "stopped", ("stop [Ann]",), score=1.0)
    game = result("done", "solved", ("press [Right]",), progress=1.0, solved=1.0)
    for text in (web_end_text(web, blind=True), game_end_text(game, blind=True)):
        assert text == board_end_text(result(), None, blind=True)
        assert "Score" not in text and "Progress" not in text and "Ann" not in text
    paused = result("interrupted", "interrupted")
    for text in (web_end_text(paused, study=True), game_end_text(paused, study=True)):
        assert text == board_end_text(paused, None, False, study=True)
    assert "Score 1" in web_end_text(web) and "Progress 100%" in game_end_text(game)
