"""The study report (issue 29, item 5): the facts it states, read from a small study made in a
real SQLite file (``report_study``), checked against values worked out by hand; the
``population``/``sampling``/``compensation`` fields of the study file; the data release; and
a sealed study's report refused without the researcher credential. The HTML itself is
opened in Chromium in test_report_browser.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.exports.report import ReportError, gather_facts, write_report
from playbench.app.exports.report.checklist import checklist
from playbench.app.studies import Blinded, StudyFileError
from playbench.app.studies.credential import make_verifier
from playbench.app.studies.spec import parse_study
from tests.studies.helpers import run_cli, study_yaml
from tests.studies.report_study import COMPENSATION, NAME, POPULATION, make_study

KEY = "a researcher key of the pilot"


async def test_the_facts_of_a_small_study_match_the_hand_count(tmp_path, db_url):
    store = await make_study(tmp_path, db_url)
    f = gather_facts(store, NAME)
    # roster of three, carol never came; bob failed the check t3 and is excluded
    c = f.counts
    assert (c.invited, c.joined, c.consented, c.finished, c.excluded, c.seen_before) == (
        3, 2, None, 2, 1, None)
    assert c.admission.startswith("the 3 annotators listed")
    people = {p.name: p for p in f.people}
    assert set(people) == {"alice", "bob"}
    assert (people["alice"].tasks_done, people["alice"].checks_passed,
            people["alice"].checks_failed, people["alice"].excluded_by) == (2, 1, 0, ())
    assert (people["bob"].tasks_done, people["bob"].checks_passed,
            people["bob"].checks_failed, people["bob"].excluded_by) == (
        2, 0, 1, ("failed_checks >= 1",))
    assert all(p.consented is None and p.seen_before is None for p in f.people)

    # included: alice's, the solver's and the random player's t1 and t2 (checks never count,
    # bob is excluded, practice is not scored)
    assert sorted((e.kind, e.participant) for e in f.included) == sorted(
        [("human", "alice")] * 2 + [("script", "solver")] * 2 + [("script", "random")] * 2)
    assert {(r.kind, r.participant) for r in f.board.rows} == {
        ("human", "alice"), ("script", "solver"), ("script", "random")}
    assert {r.game for r in f.board.rows} == {"sokoban"}
    s = f.board.screening
    assert s is not None and len(s.check_episodes) == 4  # t3 by four participants
    assert len(s.excluded_episodes) == 3  # bob's p1, t1, t2

    # every episode is listed with its time: 4 each for the people (p1, t1-t3), 3 each for
    # the scripts (t1-t3)
    per = {}
    for t in f.times:
        per.setdefault(t.participant, []).append((t.task, t.role))
    assert sorted(per["human:alice"]) == [("p1", "practice"), ("t1", "scored"),
                                          ("t2", "scored"), ("t3", "check")]
    assert sorted(per["script:random"]) == [("t1", "scored"), ("t2", "scored"),
                                            ("t3", "check")]
    assert all(t.active_seconds >= 0 and t.wall_seconds is not None for t in f.times)
    assert f.model_tasks == {"script:random": 3, "script:solver": 3}

    # budgets side by side: the protocol's first, then each participant's recorded ones
    assert [(b.who, b.max_actions, b.seconds, b.episodes) for b in f.budgets] == [
        ("study protocol", "40", "600", None), ("human:alice", "40", "600", 3),
        ("human:bob", "40", "600", 3), ("script:random", "40", "600", 3),
        ("script:solver", "40", "600", 3)]
    # the post-hoc rule is the only deviation: everyone played the protocol's settings
    assert f.deviations == ("post-hoc exclusion rule 'median_task_seconds > 86400' (added "
                            "2026-11-27T10:00:00+00:00, after data collection)",)
    assert f.agreement is not None and f.agreement.annotators == 2
    assert f.agreement.levels == 3  # t1, t2 and t3 were finished by both

    assert f.described == {"population": POPULATION, "sampling": None,
                           "compensation": COMPENSATION}
    items = {i.topic: i for i in checklist(f)}
    assert {t for t, i in items.items() if not i.stated} == {
        "Instructions shared by humans and models", "Sampling and recruitment", "Consent",
        "Exclusion of people who had seen the tasks"}
    assert items["Annotators invited, consented, finished, excluded"].text == (
        "invited 3 (the 3 annotators listed in the study file); joined 2; consented not "
        "stated; finished 2; excluded 1")
    assert items["Exclusion rules"].text == (
        "failed_checks >= 1; median_task_seconds > 86400 (post hoc)")
    store.db.dispose()


async def test_the_report_folder_holds_the_page_and_the_release(tmp_path, db_url):
    store = await make_study(tmp_path, db_url)
    out = tmp_path / "report"
    written = write_report(store, NAME, out)
    assert (written.episodes, written.people, written.not_stated) == (6, 2, 4)
    data = out / "data"
    manifest = json.loads((data / "episodes" / "manifest.json").read_text())
    assert (manifest["episodes"], manifest["studies"]) == (6, 1)
    lines = (data / "people.csv").read_text().splitlines()
    assert lines[0].startswith("person,") and len(lines) == 3
    assert "bob" in lines[2] and lines[2].endswith("failed_checks >= 1")
    scores = (data / "scores.csv").read_text().splitlines()
    assert len(scores) == 1 + 3 and "accuracy_low" in scores[0]
    assert json.loads((data / "protocol.json").read_text())["population"] == POPULATION
    assert {p.name for p in out.iterdir()} == {"report.html", "data"}  # no work folder left
    page = (out / "report.html").read_text()
    assert "&lt;b&gt;puzzle&lt;/b&gt;" in page and "<b>puzzle" not in page  # escaped
    # writing again replaces the report; a folder whose data/ is someone else's is refused
    write_report(store, NAME, out)
    other = tmp_path / "mine"
    (other / "data").mkdir(parents=True)
    (other / "data" / "thesis.txt").write_text("keep")
    with pytest.raises(ReportError, match="not an earlier report's"):
        write_report(store, NAME, other)
    assert [p.name for p in (other / "data").iterdir()] == ["thesis.txt"]
    broken = tmp_path / "broken.html.j2"
    broken.write_text("<p>{{ f.study }</p>\n")
    with pytest.raises(ReportError, match="broken.html.j2: line 1"):
        write_report(store, NAME, tmp_path / "never", template=broken)
    assert not (tmp_path / "never").exists()
    store.db.dispose()


async def test_a_sealed_study_report_needs_the_credential(tmp_path, db_url):
    store = await make_study(tmp_path, db_url, researcher=make_verifier(KEY), blind=True)
    with pytest.raises(Blinded):
        write_report(store, NAME, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    store.db.dispose()
    key = tmp_path / "pilot.key"
    key.write_text(KEY + "\n")
    refused = run_cli(["study", "report", NAME, "--out", "out"], db=db_url, cwd=tmp_path)
    assert refused.code == 1 and "researcher" in refused.err and "nothing written" in refused.err
    assert not (tmp_path / "out").exists()
    ok = run_cli(["study", "report", NAME, "--out", "out", "--researcher-key", str(key),
                  "--human-baseline", "median-person"], db=db_url, cwd=tmp_path)
    assert ok.code == 0, ok.err
    assert "6 included episodes" in ok.out
    protocol = json.loads((tmp_path / "out" / "data" / "protocol.json").read_text())
    assert protocol["sealed"] is True and "researcher" not in protocol
    released = (tmp_path / "out" / "data" / "episodes" / "studies.jsonl").read_text()
    assert "digest" not in released and "salt" not in released
    page = (tmp_path / "out" / "report.html").read_text()
    assert "median person" in page and "humans (median-person)" in page


def test_the_description_fields_are_read_and_checked(tmp_path):
    path = study_yaml(tmp_path, population="  Students  ", sampling=7, compensation="")
    with pytest.raises(StudyFileError) as err:
        parse_study(path.read_text(), base=tmp_path)
    text = str(err.value)
    assert "sampling: must be text" in text and "compensation: must be text" in text
    assert "population" not in text
    ok = parse_study(study_yaml(tmp_path, population="  Students  ").read_text(),
                     base=tmp_path)
    assert ok.described == {"population": "Students"}


@given(st.one_of(st.none(), st.text(max_size=60), st.integers(), st.booleans(),
                 st.lists(st.text(max_size=5), max_size=2)))
def test_any_description_value_is_stored_as_text_or_refused_by_name(tmp_path_factory, value):
    base = tmp_path_factory.getbasetemp() / "described"
    base.mkdir(exist_ok=True)
    path = study_yaml(base, sampling=value)
    if value is None or isinstance(value, str) and value.strip():
        spec = parse_study(path.read_text(), base=base)
        assert spec.described.get("sampling") == (value.strip() if value else None)
    else:
        with pytest.raises(StudyFileError) as err:
            parse_study(path.read_text(), base=base)
        assert [p.field for p in err.value.problems] == ["sampling"]


async def test_a_template_of_ones_own_runs_sandboxed(tmp_path, db_url):
    store = await make_study(tmp_path, db_url)
    mine = tmp_path / "mine.html.j2"
    mine.write_text("<h1>{{ f.study }}</h1><p>{{ f.counts.joined }} joined</p>\n")
    write_report(store, NAME, tmp_path / "a", template=mine)
    assert (tmp_path / "a" / "report.html").read_text() == f"<h1>{NAME}</h1><p>2 joined</p>"
    sneaky = tmp_path / "sneaky.html.j2"
    sneaky.write_text("{{ f.__class__.__init__.__globals__ }}\n")
    with pytest.raises(ReportError, match="sneaky.html.j2"):
        write_report(store, NAME, tmp_path / "b", template=sneaky)
    assert not (tmp_path / "b").exists()
    store.db.dispose()


async def test_a_study_nobody_played_yet_releases_no_episode(tmp_path, db_url):
    """A report before anyone played: counts are zero, the tables say so, and the release
    holds no episode - never the database's other episodes (the exporter reads an empty
    list as "all")."""
    store = await make_study(tmp_path, db_url)
    from playbench.app.studies import create_study, load_study_file
    create_study(store, load_study_file(study_yaml(tmp_path, "later", practice=[])))
    written = write_report(store, "later", tmp_path / "later")
    assert (written.episodes, written.people) == (0, 0)
    assert not (tmp_path / "later" / "data" / "episodes").exists()
    f = gather_facts(store, "later")
    assert (f.counts.invited, f.counts.joined, f.counts.finished) == (None, 0, 0)
    assert f.board.rows == [] and f.included == () and f.agreement is not None
    page = (tmp_path / "later" / "report.html").read_text()
    assert "Nobody has taken part yet." in page and "No included episode" in page
    store.db.dispose()


async def test_texts_shown_at_consent_are_recognised_as_the_studys_own(tmp_path, db_url):
    """A person who accepted the study's consent counts as having seen its exact instructions
    and consent texts - hashes compared with the texts as stored, a YAML block's trailing new
    line included (stripping it made every person's hash a mismatch)."""
    from playbench.app.studies import StudyQueue, create_study, load_study_file
    from playbench.db.engine import open_database
    from playbench.db.store import Store
    from tests.studies.report_study import study_file

    store = Store(open_database(db_url))
    try:
        create_study(store, load_study_file(study_file(
            tmp_path, instructions="Push every box onto a dock.\n",
            consent="I agree to take part.\n")))
        StudyQueue(store, NAME, "alice").accept(consent=True, seen_before=None)
        alice = {p.name: p for p in gather_facts(store, NAME).people}["alice"]
        assert alice.consented is not None
        assert (alice.consent_matches, alice.instructions_match) == (True, True)
    finally:
        store.db.dispose()
