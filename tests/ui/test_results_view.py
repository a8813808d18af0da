"""The Results tab: the leaderboard with its intervals exactly as
``playbench.app.results.leaderboard``
computes them for the same scope, filters, the episodes left out, the plots on a Qt canvas,
exports of the plot (PNG, SVG, PDF) and the table (CSV, JSON), and blind studies."""

from __future__ import annotations

import csv
import json

from playbench.app.players.factory import player_factory
from playbench.app.results import Scope, leaderboard
from playbench.app.results.baselines import HumanBaseline
from playbench.app.results.leaderboard import METRICS
from playbench.app.studies import Viewer, run_sweep
from tests.ui.conftest import ANNOTATOR
from tests.ui.test_compare_view import seed

DIGITS = {"steps_over_optimal": 2}
HEADING = {"accuracy": "Accuracy %", "completion": "Completion",
           "efficiency": "Efficiency % (ING-VP)",
           "magebench": "MageBench", "steps_over_optimal": "Steps / optimal",
           "human_relative": "Human-relative %"}


async def seed_with_spread(store, tmp_path, blind: bool) -> None:
    """The compare tests' study plus three random-player repeats, whose scores vary (so the
    intervals have width)."""
    await seed(store, tmp_path, blind)
    await run_sweep(store, "pilot", player_factory("random"), repeat=3)


def seeded_window(make_window, qtbot, aloop, tmp_path, blind: bool = False):
    window = make_window()
    job = aloop.create_task(seed_with_spread(window.state.store, tmp_path, blind))
    qtbot.waitUntil(job.done, timeout=60000)
    job.result()
    return window


def computed(qtbot, view) -> None:
    qtbot.waitUntil(lambda: view.computing is not None and view.computing.done(),
                    timeout=30000)
    assert view.computing.exception() is None


def choose(qtbot, view, combo, value) -> None:
    combo.setCurrentIndex(combo.findData(value))
    view.recompute()
    assert view.busy_bar.isVisible()  # the busy bar runs while the executor works
    computed(qtbot, view)
    assert not view.busy_bar.isVisible()


def expected_cell(est, digits: int) -> str:
    """``72.0 [61.3, 80.1]  n=4``: value, interval, levels behind it."""
    if est.value is None:
        return "-"
    if est.low is None:
        return f"{est.value:.{digits}f}  n={est.n}"
    return f"{est.value:.{digits}f} [{est.low:.{digits}f}, {est.high:.{digits}f}]  n={est.n}"


def test_leaderboard_matches_the_results_api_and_exports(
        make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path)
    view = window.results
    window.show_page(view)
    computed(qtbot, view)
    choose(qtbot, view, view.study, "pilot")

    board = leaderboard(window.state.store, Scope(study="pilot", viewer=Viewer(ANNOTATOR)))
    assert view.table.rowCount() == len(board.rows) == 4
    check_each_participant_has_a_colour(view)
    widths = [e.high - e.low for r in board.rows for e in (r.completion, r.efficiency)
              if e.low is not None]
    assert widths and max(widths) > 0
    headings = [view.table.horizontalHeaderItem(c).text()
                for c in range(view.table.columnCount())]
    for i, row in enumerate(board.rows):
        assert view.table.item(i, headings.index("Participant")).text() == \
            f"{row.participant} ({row.kind})"
        assert view.table.item(i, headings.index("Episodes")).text() == str(row.episodes)
        for metric in METRICS:
            col = headings.index(HEADING[metric])
            item = view.table.item(i, col)
            assert item.text() == expected_cell(row.metric(metric),
                                                DIGITS.get(metric, 1)), (metric, i)
            assert item.toolTip().startswith(f"n = {row.metric(metric).n} level")
    accuracy = view.table.item(0, headings.index("Accuracy %")).text()
    assert accuracy.startswith("100.0")
    assert "Efficiency is ING-VP's action efficiency" in view.legend.text()
    assert "1 interrupted" in view.left_out.text()
    assert view.left_out_list.count() == 1 and "carol" in view.left_out_list.item(0).text()

    # Filters: people only.
    choose(qtbot, view, view.kind, "human")
    assert {view.table.item(i, 2).text() for i in range(view.table.rowCount())} == \
        {f"{ANNOTATOR} (human)", "bob (human)"}

    # The plot is drawn on a Qt canvas, then switched to the score distribution.
    plot = view.plot
    # A widget added to a shown layout is shown by a queued call: wait for the event loop.
    qtbot.waitUntil(lambda: plot.canvas is not None and plot.canvas.isVisible(), timeout=5000)
    bars = plot.canvas.figure.axes[0]
    assert len(bars.patches) == 2 and "accuracy" in bars.get_title()  # one bar per person
    plot.kind.setCurrentIndex(plot.kind.findData("score_distribution"))
    assert "completion per episode" in plot.canvas.figure.axes[0].get_title()
    plot.canvas.grab()  # renders through the Qt backend

    for suffix, magic in (("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")):
        path = tmp_path / f"plot.{suffix}"
        job = plot.export(path)
        qtbot.waitUntil(job.done, timeout=20000)
        assert job.exception() is None
        data = path.read_bytes()
        assert len(data) > 1000 and data.startswith(magic)

    for suffix in ("csv", "json"):
        job = view.export_table(tmp_path / f"board.{suffix}")
        qtbot.waitUntil(job.done, timeout=20000)
        assert job.exception() is None
    humans = leaderboard(window.state.store, Scope(study="pilot", kind="human"))
    rows = list(csv.DictReader((tmp_path / "board.csv").open()))
    assert [r["participant"] for r in rows] == [r.participant for r in humans.rows]
    assert float(rows[0]["accuracy"]) == humans.rows[0].accuracy.value
    doc = json.loads((tmp_path / "board.json").read_text())
    assert doc["rows"] == json.loads(json.dumps(humans.records()))
    assert doc["scope"]["kind"] == "human" and doc["excluded"] == {"interrupted": 1}

    # A stated human baseline replaces the people's rows; the note, the plot and the JSON say
    # which one.
    view.resample.setCurrentIndex(view.resample.findData("people"))
    choose(qtbot, view, view.humans, "median-person")
    names = {view.table.item(i, 2).text() for i in range(view.table.rowCount())}
    assert names == {"humans (median-person) (human)"}
    median = leaderboard(window.state.store, Scope(study="pilot", kind="human"),
                         baseline=HumanBaseline("median-person", resample="people"))
    col = headings.index("Accuracy %")
    assert view.table.item(0, col).text() == expected_cell(median.rows[0].accuracy, 1)
    assert "person-level bootstrap" in view.scope_note.text()
    assert "Human baseline: median person" in view.scope_note.text()
    plot.kind.setCurrentIndex(plot.kind.findData("human_vs_models"))
    assert "median person" in plot.canvas.figure.axes[0].get_xlabel()
    job = view.export_table(tmp_path / "baseline.json")
    qtbot.waitUntil(job.done, timeout=20000)
    doc = json.loads((tmp_path / "baseline.json").read_text())
    assert doc["human_baseline"] == {"rule": "median-person", "k": 2, "resample": "people",
                                     "text": median.baseline_text()}


def check_each_participant_has_a_colour(view) -> None:
    """Issue 28: every person was drawn in the same blue. Now each participant has a colour of
    their own and a legend entry under their name; models are hatched and in other colours
    than any person, in the bars and in the score distribution. (Called from
    test_leaderboard_matches_the_results_api_and_exports, whose seed has two people and two
    scripts, so the seeding is paid once.)"""
    from matplotlib.colors import to_hex
    bars = view.plot.canvas.figure.axes[0]
    legend = bars.get_legend()
    entries = {text.get_text(): handle for text, handle in
               zip(legend.get_texts(), legend.legend_handles, strict=True)}
    assert set(entries) == {ANNOTATOR, "bob", "solver", "random"}
    colour = {name: to_hex(h.get_facecolor()) for name, h in entries.items()}
    assert len(set(colour.values())) == 4  # one colour per participant
    people, models = {colour[ANNOTATOR], colour["bob"]}, {colour["solver"], colour["random"]}
    assert not people & models
    assert not entries[ANNOTATOR].get_hatch() and not entries["bob"].get_hatch()
    assert entries["solver"].get_hatch() and entries["random"].get_hatch()
    # every bar wears its participant's colour (the legend is not just decoration)
    assert {to_hex(p.get_facecolor()) for p in bars.patches} == set(colour.values())

    plot = view.plot
    plot.kind.setCurrentIndex(plot.kind.findData("score_distribution"))
    points = plot.canvas.figure.axes[0]
    ticks = {t.get_text(): to_hex(t.get_color()) for t in points.get_xticklabels()}
    assert ticks[f"human:{ANNOTATOR}"] == colour[ANNOTATOR]
    assert ticks["human:bob"] == colour["bob"]
    dots = {c.get_label(): c for c in points.collections}
    assert to_hex(dots["human:bob"].get_facecolor()[0]) == colour["bob"]
    assert to_hex(dots["script:solver"].get_facecolor()[0]) == colour["solver"]
    plot.kind.setCurrentIndex(plot.kind.findData("human_vs_models"))  # as the caller found it
    plot.metric_box.setCurrentIndex(plot.metric_box.findData("accuracy"))


def test_a_blind_study_is_hidden_from_the_annotator(make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path, blind=True)
    view = window.results
    window.show_page(view)
    computed(qtbot, view)
    assert view.table.rowCount() == 0  # the global view leaves the blind study out
    choose(qtbot, view, view.study, "pilot")
    assert view.notice.isVisible() and "blind" in view.notice.text()
    assert view.table.rowCount() == 0 and view.plot.canvas is None
    view.researcher.setChecked(True)
    computed(qtbot, view)
    assert not view.notice.isVisible() and view.table.rowCount() == 4


def test_the_computation_runs_off_the_ui_thread_with_a_busy_bar(
        make_window, qtbot, aloop, tmp_path, monkeypatch):
    """While the leaderboard is being computed (held here in the worker until released), the
    UI thread keeps handling events and the busy bar shows; then the table appears."""
    import threading

    from PySide6.QtCore import QTimer

    import playbench.app.ui.results as results_module
    window = seeded_window(make_window, qtbot, aloop, tmp_path)
    view = window.results
    window.show_page(view)
    computed(qtbot, view)
    release, entered, threads = threading.Event(), threading.Event(), []
    real = results_module.compute

    def held(store, query):
        threads.append(threading.current_thread())
        entered.set()
        assert release.wait(20)
        return real(store, query)
    monkeypatch.setattr(results_module, "compute", held)
    view.study.setCurrentIndex(view.study.findData("pilot"))
    job = view.recompute()
    qtbot.waitUntil(entered.is_set, timeout=10000)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=5000)  # the event loop is not blocked
    timer.stop()
    assert view.busy_bar.isVisible() and "Computing" in view.busy_text.text()
    assert not job.done() and threads[0] is not threading.main_thread()
    release.set()
    qtbot.waitUntil(job.done, timeout=20000)
    assert not view.busy_bar.isVisible() and view.table.rowCount() == 4

