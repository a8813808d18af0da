"""Who may take part (issue 29, item 1, first part): a listed roster, single-use invite codes,
or anyone - checked when a person first opens their queue, never for models."""

from __future__ import annotations

import pytest

from playbench.app.studies import StudyFileError, StudyQueue, create_study, load_study_file
from playbench.app.studies.admission import NotAdmitted
from playbench.app.studies.protocol import protocol_dict
from playbench.app.studies.spec import parse_study
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.db.studies import invite_codes
from tests.studies.helpers import run_cli, study_yaml


@pytest.fixture
def store(db_url):
    s = Store(open_database(db_url))
    yield s
    s.db.dispose()


def test_the_file_names_what_is_wrong_with_who_may_take_part(tmp_path):
    cases = [({"annotators": ["alice"], "invites": 3}, "invites: give annotators or invites"),
             ({"invites": 0}, "invites: must be a number of codes from 1 to 10000"),
             ({"invites": True}, "invites: must be a number"),
             ({"annotators": []}, "annotators: must be a list"),
             ({"annotators": ["alice", "alice"]}, "annotators[1]: 'alice' is listed twice"),
             ({"annotators": ["alice", " bob"]}, "annotators[1]: must be a name")]
    for changes, message in cases:
        path = study_yaml(tmp_path, **changes)
        with pytest.raises(StudyFileError, match=message.replace("[", r"\[").replace(
                "]", r"\]")):
            parse_study(path.read_text(), base=tmp_path)
    plain = protocol_dict(parse_study(study_yaml(tmp_path).read_text(), base=tmp_path))
    assert "annotators" not in plain and "invite_codes" not in plain  # as before


def test_a_roster_admits_only_its_annotators(tmp_path, store):
    create_study(store, load_study_file(study_yaml(tmp_path, annotators=["alice", "bob"])))
    assert StudyQueue(store, "pilot", "alice").items()
    with pytest.raises(NotAdmitted, match="'mallory' is not on the list") as err:
        StudyQueue(store, "pilot", "mallory")
    assert not err.value.needs_code
    assert StudyQueue(store, "pilot", "solver", kind="script").items()  # models are not people
    members = store.study_names()
    assert members == ["pilot"]


def test_invite_codes_are_single_use(tmp_path, store, db_url):
    r = run_cli(["study", "create", str(study_yaml(tmp_path, invites=3))], db=db_url,
                cwd=tmp_path)
    assert r.code == 0 and "3 invite codes made" in r.out, r.err
    printed = run_cli(["study", "invite", "pilot"], db=db_url, cwd=tmp_path)
    codes = printed.out.split()
    assert len(codes) == 3 and "3 unused of 3" in printed.err
    assert sorted(codes) == sorted(c["code"] for c in invite_codes(store.db, "pilot"))

    with pytest.raises(NotAdmitted, match="by invitation") as err:
        StudyQueue(store, "pilot", "alice")
    assert err.value.needs_code
    with pytest.raises(NotAdmitted, match="not valid"):
        StudyQueue(store, "pilot", "alice", invite="AAAA-AAAA")
    StudyQueue(store, "pilot", "alice", invite=codes[0].lower())  # typed in lower case
    StudyQueue(store, "pilot", "alice")  # a member is not asked again
    with pytest.raises(NotAdmitted, match="used already"):
        StudyQueue(store, "pilot", "bob", invite=codes[0])
    assert [c["used_by"] for c in invite_codes(store.db, "pilot")
            if c["code"] == codes[0]] == ["alice"]

    refused = run_cli(["study", "queue", "pilot", "--annotator", "carol"], db=db_url,
                      cwd=tmp_path)
    assert refused.code == 1 and "--invite CODE" in refused.err
    ok = run_cli(["study", "queue", "pilot", "--annotator", "carol", "--invite", codes[1]],
                 db=db_url, cwd=tmp_path)
    assert ok.code == 0, ok.err
    status = run_cli(["study", "status", "pilot"], db=db_url, cwd=tmp_path)
    assert "who may take part: by invite code (2 of 3 used)" in status.out
    more = run_cli(["study", "invite", "pilot", "--add", "2"], db=db_url, cwd=tmp_path)
    assert len(more.out.split()) == 3 and "3 unused of 5" in more.err


def test_a_study_with_neither_is_open_and_says_so(tmp_path, db_url):
    assert run_cli(["study", "create", str(study_yaml(tmp_path))], db=db_url,
                   cwd=tmp_path).code == 0
    status = run_cli(["study", "status", "pilot"], db=db_url, cwd=tmp_path)
    assert "who may take part: open: anyone can take part" in status.out
