"""Consent, instructions and the "seen before?" question (issue 29, item 1): read from the
study file, stored in the protocol, required by the queue before a person's first task,
recorded with the time and the texts' hashes, and usable as an exclusion rule."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

import pytest

from playbench.app.agents.preamble import CLOSE, OPEN, preamble
from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.players.human import HumanPlayer
from playbench.app.results.data import Scope
from playbench.app.results.leaderboard import leaderboard
from playbench.app.studies import (
    StudyFileError,
    StudyQueue,
    create_study,
    load_study_file,
    run_sweep,
)
from playbench.app.studies.consent import ConsentNeeded
from playbench.app.studies.protocol import protocol_dict
from playbench.app.studies.queue import NoConsentYet
from playbench.app.studies.spec import parse_study
from playbench.app.studies.texts import MAX_TEXT_BYTES
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.db.studies import find_member
from tests.agents.helpers import server_profile
from tests.studies.helpers import input_layer, optimal, run_cli, study_yaml

INSTRUCTIONS = "# How to play\n\nPush every box onto a dock. *Take your time.*\n"
CONSENT = "I agree that my moves and times are recorded under my pseudonym.\n"


@pytest.fixture
def store(db_url):
    s = Store(open_database(db_url))
    yield s
    s.db.dispose()


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def problems(tmp_path, **changes) -> str:
    path = study_yaml(tmp_path, **changes)
    with pytest.raises(StudyFileError) as err:
        load_study_file(path)
    return str(err.value)


def test_bad_texts_are_refused_naming_the_field_and_file(tmp_path):
    assert "instructions: must be Markdown text or {file: NAME.md}, got 7" in problems(
        tmp_path, instructions=7)
    assert "consent: write the text itself, or {file: NAME.md}" in problems(
        tmp_path, consent={"path": "c.md"})
    missing = problems(tmp_path, instructions={"file": "nowhere.md"})
    assert re.search(r"instructions\.file: \S*nowhere\.md: no such file", missing)
    assert "ask_seen_before: must be true or false, got 'yes'" in problems(
        tmp_path, ask_seen_before="yes")
    assert "consent: is empty" in problems(tmp_path, consent="   \n")
    (tmp_path / "big.md").write_text("x" * (MAX_TEXT_BYTES + 1))
    assert "instructions.file: " in problems(tmp_path, instructions={"file": "big.md"})
    (tmp_path / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    assert "latin1.md: not UTF-8 text" in problems(tmp_path, consent={"file": "latin1.md"})
    # every problem of the file at once, each with its field
    both = problems(tmp_path, instructions=[], ask_seen_before=1)
    assert "instructions: must be Markdown" in both and "ask_seen_before: must be" in both


def test_texts_inline_or_from_a_file_are_fixed_in_the_protocol(tmp_path, store):
    (tmp_path / "instructions.md").write_text(INSTRUCTIONS, encoding="utf-8")
    path = study_yaml(tmp_path, instructions={"file": "instructions.md"}, consent=CONSENT,
                      ask_seen_before=True)
    spec = load_study_file(path)
    assert (spec.texts.instructions, spec.texts.consent, spec.texts.ask_seen_before) == (
        INSTRUCTIONS, CONSENT, True)
    protocol = create_study(store, spec)
    (tmp_path / "instructions.md").write_text("changed afterwards", encoding="utf-8")
    from playbench.app.studies import load_protocol
    stored = load_protocol(store, "pilot").texts
    assert (stored.instructions, stored.consent, stored.ask_seen_before) == (
        INSTRUCTIONS, CONSENT, True)
    assert protocol.texts == stored
    plain = protocol_dict(parse_study(study_yaml(tmp_path, name="plain").read_text(),
                                      base=tmp_path))
    assert not {"instructions", "consent", "ask_seen_before"} & set(plain)  # as before


def test_the_queue_refuses_a_person_before_consent_and_allows_after(tmp_path, store):
    create_study(store, load_study_file(study_yaml(
        tmp_path, instructions=INSTRUCTIONS, consent=CONSENT, ask_seen_before=True)))
    queue = StudyQueue(store, "pilot", "alice")
    first = queue.next()
    assert first is not None and first.practice  # practice is refused too
    with pytest.raises(NoConsentYet, match="accept the consent text") as err:
        queue.plan(first)
    assert "read the instructions" in str(err.value) and "seen these tasks" in str(err.value)
    # declining, or not answering the question, stores nothing and still refuses
    with pytest.raises(ConsentNeeded, match="not accepted"):
        queue.accept(consent=False, seen_before=False)
    with pytest.raises(ConsentNeeded, match="seen these tasks before"):
        queue.accept(consent=True, seen_before=None)
    member = find_member(store.db, queue.protocol.id, queue.participant_id)
    assert member is not None and (member.consented, member.seen_before,
                                   member.instructions_sha256) == (None, None, None)
    with pytest.raises(NoConsentYet):
        queue.plan(first)

    queue.accept(consent=True, seen_before=False)
    assert queue.plan(first).item.key == "p1"
    assert StudyQueue(store, "pilot", "alice").plan(first).item.key == "p1"  # reopened
    StudyQueue(store, "pilot", "alice").accept(consent=True, seen_before=True)  # no-op
    member = find_member(store.db, queue.protocol.id, queue.participant_id)
    assert member is not None and member.seen_before is False  # the first answer is final
    # a model needs no consent
    model = StudyQueue(store, "pilot", "solver", kind="script")
    assert not model.consent_due().pending
    assert model.plan(model.next()).item.key == "p1"


async def test_a_refused_start_records_no_episode(tmp_path, store):
    create_study(store, load_study_file(study_yaml(tmp_path, consent=CONSENT,
                                                   instructions=INSTRUCTIONS)))
    queue = StudyQueue(store, "pilot", "bob")
    with pytest.raises(NoConsentYet):
        await queue.play(queue.next(), HumanPlayer("bob"))
    assert queue.items()[0].status == "pending" and queue.items()[0].episode_id is None


def test_consent_is_stored_with_its_time_and_the_texts_hashes(tmp_path, store):
    create_study(store, load_study_file(study_yaml(
        tmp_path, instructions=INSTRUCTIONS, consent=CONSENT, ask_seen_before=True)))
    queue = StudyQueue(store, "pilot", "alice")
    before = datetime.now(UTC).replace(tzinfo=None)
    queue.accept(consent=True, seen_before=True)
    after = datetime.now(UTC).replace(tzinfo=None)
    fresh = Store(open_database(str(store.db.engine.url)))  # read back from the file
    try:
        member = find_member(fresh.db, queue.protocol.id, queue.participant_id)
    finally:
        fresh.db.dispose()
    assert member is not None
    assert member.consent_sha256 == sha(CONSENT)
    assert member.instructions_sha256 == sha(INSTRUCTIONS)
    assert member.seen_before is True
    assert member.consented is not None
    assert before <= member.consented.replace(tzinfo=None) <= after


def test_instructions_only_need_reading_not_consent(tmp_path, store):
    create_study(store, load_study_file(study_yaml(tmp_path, instructions=INSTRUCTIONS)))
    queue = StudyQueue(store, "pilot", "carol")
    due = queue.consent_due()
    assert due.read_instructions and not due.accept_consent and not due.answer_seen_before
    queue.accept(consent=False, seen_before=None)  # nothing to decline: reading is enough
    member = find_member(store.db, queue.protocol.id, queue.participant_id)
    assert member is not None and member.consented is None
    assert member.instructions_sha256 == sha(INSTRUCTIONS) and member.consent_sha256 is None
    assert not queue.consent_due().pending


async def play_all(store: Store, name: str, seen: bool) -> None:
    queue = StudyQueue(store, "pilot", name)
    queue.accept(consent=True, seen_before=seen)
    while (item := queue.next()) is not None:
        human = HumanPlayer(name)
        await queue.play(item, human, listeners=[input_layer(human, optimal)])


async def test_seen_before_excludes_in_results_and_status_counts(tmp_path, db_url, store):
    create_study(store, load_study_file(study_yaml(
        tmp_path, consent=CONSENT, instructions=INSTRUCTIONS, ask_seen_before=True,
        exclusions=["seen_before"],
        tasks=[{"game": "sokoban", "levels": "rooms.xsb:2-3"}])))
    await play_all(store, "alice", seen=False)
    await play_all(store, "bob", seen=True)
    StudyQueue(store, "pilot", "carol")  # joined, has not answered yet

    board = leaderboard(store, Scope(study="pilot"))
    assert board.screening is not None
    assert [(e.person, [r.label() for r in e.rules]) for e in board.screening.excluded] == [
        ("bob", ["seen_before"])]
    assert {r.participant for r in board.rows} == {"alice"}
    assert len(board.screening.excluded_episodes) == 3  # bob's practice and two tasks

    out = run_cli(["results", "--study", "pilot"], db=db_url, cwd=tmp_path)
    assert out.code == 0, out.err
    assert "excluded 1 of 2 people" in out.out and "bob (seen_before)" in out.out
    status = run_cli(["study", "status", "pilot"], db=db_url, cwd=tmp_path)
    assert status.code == 0, status.err
    assert ("consent: 3 people joined, 2 consented, 2 answered \"seen before?\" (1 yes)"
            in status.out)
    as_json = run_cli(["study", "status", "pilot", "--format", "json"], db=db_url,
                      cwd=tmp_path).json()
    assert as_json["consent"] == {"members": 3, "consented": 2, "seen_before_answered": 2,
                                  "seen_before_yes": 1}
    # the comparison form reads the same answers (post hoc, here)
    r = run_cli(["study", "exclude", "pilot", "seen_before < 1"], db=db_url, cwd=tmp_path)
    assert r.code == 0, r.err
    assert "excluded 2 of 2 people" in r.out


class KeptPlayers(ModelPlayerFactory):
    """The real model factory, keeping the players it made (to read their last prompt)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.made: list = []

    def __call__(self, task, repeat):
        player = super().__call__(task, repeat)
        self.made.append(player)
        return player


def texts_of(prompt) -> str:
    parts = []
    for m in prompt.messages:
        content = m["content"]
        parts += [content] if isinstance(content, str) else [
            p.get("text", "") for p in content if isinstance(p, dict)]
    return "\n".join(parts)


async def test_models_read_the_instructions_where_the_setting_allows(tmp_path, store):
    create_study(store, load_study_file(study_yaml(
        tmp_path, instructions=INSTRUCTIONS, consent=CONSENT, practice=[],
        tasks=[{"game": "sokoban", "levels": "rooms.xsb:2", "setting": "tools:text"},
               {"game": "maze", "levels": "mazes.txt:1", "setting": "ingvp:text-multi"}])))
    server = ModelServer(ServeOptions(port=0)).start()
    factory = KeptPlayers(server_profile(server.url))
    try:
        report = await run_sweep(store, "pilot", factory)
    finally:
        await factory.aclose()
        server.stop()
    assert [r.status for r in report.results] == ["done", "done"]  # no consent asked
    prompts = {("tools" if p.last_prompt.tools else "ingvp"): p.last_prompt
               for p in factory.made if p.last_prompt is not None}
    tools = prompts["tools"].messages[0]["content"]
    assert tools.startswith(preamble(INSTRUCTIONS))  # delimited, before the setting's prompt
    assert INSTRUCTIONS.strip() in tools and CLOSE in tools
    assert OPEN not in texts_of(prompts["ingvp"])  # paper-exact prompt left as published
    assert "Push every box" not in texts_of(prompts["ingvp"])
