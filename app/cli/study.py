"""``playbench study``: create a study from a YAML file, list studies, show an annotator's
queue, report status (progress, time per annotator, agreement), and run model sweeps."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from playbench.app.cli import study_report
from playbench.app.cli.common import (
    UsageError,
    add_db_option,
    add_researcher_option,
    cli_viewer,
    fmt,
    open_store,
    table,
)

if TYPE_CHECKING:
    from playbench.app.results.agreement import Agreement



def add_parsers(sub) -> None:
    s = sub.add_parser("study", help="human-baseline studies: create, status, queue, run models")
    ssub = s.add_subparsers(dest="study_command", metavar="ACTION")
    s.set_defaults(handler=lambda args: _no_action())

    c = ssub.add_parser("create", help="check a study file and store the study")
    c.add_argument("file", metavar="FILE.yaml")
    seal = c.add_mutually_exclusive_group()
    seal.add_argument("--researcher-passphrase", action="store_true",
                      help="seal a blind study: its scores show only after this passphrase "
                           "is given (asked for; or $PLAYBENCH_RESEARCHER_PASSPHRASE)")
    seal.add_argument("--researcher-key", metavar="FILE",
                      help="seal a blind study with a key file (made with a random key if "
                           "missing); give the file to see its scores")
    add_db_option(c)
    c.set_defaults(handler=cmd_create)

    ls = ssub.add_parser("list", help="list stored studies")
    ls.add_argument("--all", action="store_true", help="archived studies too")
    add_db_option(ls)
    ls.set_defaults(handler=cmd_list)

    for action, text in (("archive", "take a study off the annotators' Studies list (its "
                                      "episodes and results stay)"),
                         ("unarchive", "put an archived study back on the Studies list"),
                         ("delete", "delete a study in which nothing was recorded yet")):
        a = ssub.add_parser(action, help=text)
        a.add_argument("name")
        add_db_option(a)
        a.set_defaults(handler=cmd_archive, study_action=action)

    ex = ssub.add_parser("exclude", help="add an exclusion rule after data collection "
                         "(marked post hoc wherever results use it)")
    ex.add_argument("name")
    ex.add_argument("rule", help="MEASURE OP NUMBER, e.g. \"finished < 5\" (measures: "
                    "failed_checks, finished, median_task_seconds)")
    add_db_option(ex)
    ex.set_defaults(handler=cmd_exclude)

    iv = ssub.add_parser("invite", help="print a study's unused invite codes")
    iv.add_argument("name")
    iv.add_argument("--add", type=int, default=0, metavar="N", help="make N more codes first")
    add_db_option(iv)
    iv.set_defaults(handler=cmd_invite)

    st = ssub.add_parser("status", help="progress, time per annotator and agreement")
    st.add_argument("name")
    st.add_argument("--format", dest="fmt", choices=["table", "json"], default="table")
    add_researcher_option(st)
    add_db_option(st)
    st.set_defaults(handler=cmd_status)

    q = ssub.add_parser("queue", help="an annotator's queue (order, state of each task)")
    q.add_argument("name")
    q.add_argument("--annotator", required=True, metavar="NAME")
    q.add_argument("--invite", metavar="CODE", help="the invite code, on a first visit to a "
                   "study that needs one")
    add_db_option(q)
    q.set_defaults(handler=cmd_queue)

    r = ssub.add_parser("run", help="play the study's tasks with a model (or scripted) player")
    r.add_argument("name")
    r.add_argument("--player", required=True,
                   help="model:NAME (see `playbench models list`) or a scripted player")
    r.add_argument("--repeat", type=int, default=1, help="episodes per task (default 1)")
    r.add_argument("--concurrency", type=int, default=1, help="episodes at once (default 1)")
    r.add_argument("--include-practice", action="store_true",
                   help="play the practice tasks too (recorded as practice)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_researcher_option(r)
    add_db_option(r)
    r.set_defaults(handler=cmd_run)

    study_report.add_parser(ssub)


def _no_action() -> int:
    raise UsageError("study needs an action: create, list, status, queue, run, report, "
                     "archive, unarchive or delete")


def cmd_create(args: argparse.Namespace) -> int:
    from playbench.app.studies import StudyFileError, create_study, load_study_file
    from playbench.app.studies.credential import CredentialError
    from playbench.db.store import StudyExists
    path = Path(args.file)
    try:
        spec = load_study_file(path)
    except StudyFileError as err:
        print(f"playbench study create: {len(err.problems)} problem(s), nothing created:",
              file=sys.stderr)
        for p in err.problems:
            print(f"  {err.source}: {p}", file=sys.stderr)
        return 1
    if (args.researcher_key or args.researcher_passphrase) and not spec.blind:
        raise UsageError("only a blind study takes a researcher credential (set blind: true "
                         "in the study file)")
    try:
        researcher = _verifier(args)
    except CredentialError as err:
        raise UsageError(str(err)) from None
    store = open_store(args)
    try:
        protocol = create_study(store, spec, researcher)
    except StudyExists as err:
        print(f"playbench study create: {err}", file=sys.stderr)
        return 1
    print(f"created study {protocol.name!r}: {len(protocol.scored)} tasks, "
          f"{len(protocol.practice)} practice, order {protocol.order}"
          + (", blind" if protocol.blind else "")
          + (", sealed: scores need the researcher credential" if protocol.sealed else ""))
    if protocol.invites:
        print(f"{spec.invites} invite codes made: `playbench study invite {protocol.name}` "
              "prints them")
    elif protocol.roster:
        print(f"open to the {len(protocol.roster)} listed annotators only")
    return 0


def _verifier(args: argparse.Namespace) -> dict | None:
    """The credential verifier ``study create`` was asked to seal the study with."""
    from playbench.app.studies.credential import (
        ENV_PASSPHRASE,
        CredentialError,
        make_verifier,
        read_key_file,
    )
    if args.researcher_key:
        return make_verifier(read_key_file(Path(args.researcher_key), create=True))
    if not args.researcher_passphrase:
        return None
    secret = os.environ.get(ENV_PASSPHRASE)
    if not secret:
        import getpass
        try:
            secret = getpass.getpass("researcher passphrase: ")
            again = getpass.getpass("again: ")
        except EOFError:
            raise CredentialError(f"no terminal to ask the researcher passphrase on: set "
                                  f"${ENV_PASSPHRASE} or use --researcher-key FILE") from None
        if again != secret:
            raise CredentialError("the two passphrases differ")
    return make_verifier(secret)


def cmd_list(args: argparse.Namespace) -> int:
    from playbench.app.studies import load_protocol
    store = open_store(args)
    rows = []
    every = store.study_names()
    active = set(store.study_names(archived=False))
    for name in every if args.all else [n for n in every if n in active]:
        p = load_protocol(store, name)
        rows.append([name, len(p.scored), len(p.practice), p.order, "yes" if p.blind else "no",
                     "" if name in active else "archived"])
    table(["study", "tasks", "practice", "order", "blind", "state"], rows)
    hidden = len(every) - len(active)
    if hidden and not args.all:
        print(f"{hidden} archived stud{'ies' if hidden != 1 else 'y'} not shown (--all)")
    return 0


def cmd_archive(args: argparse.Namespace) -> int:
    """archive / unarchive / delete NAME."""
    from playbench.db.store import NotFound, StudyInUse
    store = open_store(args)
    try:
        if args.study_action == "delete":
            store.delete_study(args.name)
            print(f"deleted study {args.name!r}")
        else:
            store.archive_study(args.name, archived=args.study_action == "archive")
            print(f"study {args.name!r} is {args.study_action}d")
    except (NotFound, StudyInUse) as err:
        print(f"playbench study {args.study_action}: {err}", file=sys.stderr)
        return 1
    return 0


def cmd_exclude(args: argparse.Namespace) -> int:
    from playbench.app.studies.quality import ExclusionRule, QualityRuleError
    from playbench.app.studies.screening import screen_study
    from playbench.db.studies import add_post_hoc_exclusion
    try:
        rule = ExclusionRule.parse(args.rule, post_hoc=True)
    except QualityRuleError as err:
        raise UsageError(f"rule: {err}") from None
    store = open_store(args)
    added = datetime.now(UTC).isoformat(timespec="seconds")
    if not add_post_hoc_exclusion(store.db, args.name, rule.text(), added):
        raise UsageError(f"no study called {args.name!r} (see `playbench study list`)")
    screening = screen_study(store, args.name)
    print(f"added post-hoc rule {rule.text()!r} to {args.name}")
    for line in screening.lines():
        print(line)
    return 0


def cmd_invite(args: argparse.Namespace) -> int:
    from playbench.app.studies import load_protocol
    from playbench.app.studies.invites import invite_batch
    from playbench.db.studies import add_invite_codes, invite_codes
    if not 0 <= args.add <= 10_000:
        raise UsageError("--add takes 0 to 10000 codes")
    store = open_store(args)
    protocol = load_protocol(store, args.name)
    if protocol.roster:
        raise UsageError(f"study {args.name!r} lists its annotators; it takes no invite codes")
    if args.add:
        add_invite_codes(store.db, args.name, invite_batch(args.add))
    codes = invite_codes(store.db, args.name)
    unused = [c["code"] for c in codes if not c.get("used_by")]
    if not codes:
        print(f"study {args.name!r} is open to anyone; `study invite {args.name} --add N` "
              "makes it invitation-only")
        return 0
    for code in unused:
        print(code)
    print(f"{len(unused)} unused of {len(codes)} codes", file=sys.stderr)
    return 0


def cmd_queue(args: argparse.Namespace) -> int:
    from playbench.app.studies import StudyQueue
    from playbench.app.studies.admission import NotAdmitted
    store = open_store(args)
    try:
        queue = StudyQueue(store, args.name, args.annotator, invite=args.invite)
    except NotAdmitted as err:
        print(f"playbench study queue: {err}" + (" (--invite CODE)" if err.needs_code else ""),
              file=sys.stderr)
        return 1
    items = queue.items()
    table(["#", "task", "practice", "game", "level", "setting", "status", "episode", "solved"],
          [[i.position, i.key, "yes" if i.practice else "", i.game, i.level_number, i.setting,
            i.status, i.episode_id, i.solved] for i in items])
    p = queue.progress(items)
    print(f"{p.done} of {p.total} done (practice {p.practice_done}/{p.practice_total}); "
          f"order seed {queue.seed}")
    due = queue.consent_due()
    if due.pending:
        print(due.reason())
    return 0


def _agreement_lines(a: Agreement) -> list[str]:
    if a.levels == 0:
        return ["agreement: no level was played by two annotators yet"]
    lines = [f"agreement over {a.levels} levels, {a.annotators} annotators: solved "
             f"{fmt(a.percent_agreement and 100 * a.percent_agreement, 1)} % agree, "
             f"Fleiss' kappa {fmt(a.fleiss_kappa, 3)}"]
    for name, c in (("all", a.actions_all), ("solved", a.actions_solved)):
        lines.append(f"action counts ({name}): mean |difference| {fmt(c.mean_abs_diff, 2)}, "
                     f"relative {fmt(c.relative_diff, 3)}, ICC(1) {fmt(c.icc, 3)} "
                     f"over {c.levels} levels")
    for pair in a.pairs:
        lines.append(f"  {pair.a} ~ {pair.b}: {pair.levels} shared levels, agreement "
                     f"{fmt(pair.agreement, 3)}, Cohen's kappa {fmt(pair.kappa, 3)}")
    return lines


def cmd_status(args: argparse.Namespace) -> int:
    from playbench.app.results.agreement import annotator_report
    from playbench.app.results.data import Scope, load_episodes
    from playbench.app.studies import load_protocol
    from playbench.app.studies.admission import admission_text
    from playbench.app.studies.status import consent_counts, consent_line, study_counts
    store = open_store(args)
    protocol = load_protocol(store, args.name)
    viewer = cli_viewer(args, store)
    if protocol.sealed and protocol.id not in viewer.unlocked:
        counts = study_counts(store, args.name)
        if args.fmt == "json":
            print(json.dumps({"study": protocol.name, "sealed": True, **counts,
                              "consent": consent_counts(store, protocol)}, indent=2))
            return 0
        print(f"study {protocol.name}: {len(protocol.scored)} tasks, blind and sealed: counts "
              "only without the researcher key or passphrase")
        print(f"  who may take part: {admission_text(store, protocol)}")
        print(f"  {consent_line(store, protocol)}")
        for kind, n in sorted(counts["episodes"].items()):
            print(f"  {n} {kind} episode(s) finished")
        print(f"  {counts['people']} people took part")
        return 0
    report = annotator_report(store, args.name)
    every = load_episodes(store, Scope(study=args.name, include_practice=True,
                                       statuses=("running", "done", "interrupted", "error"),
                                       viewer=viewer))
    per: dict[tuple[str, str], dict[str, int]] = {}
    for e in every.episodes:
        d = per.setdefault((e.kind, e.participant), {"done": 0, "practice": 0, "other": 0})
        key = "other" if e.status != "done" else ("practice" if e.practice else "done")
        d[key] += 1
    if args.fmt == "json":
        out = {"study": protocol.name, "tasks": len(protocol.scored),
               "practice": len(protocol.practice), "order": protocol.order,
               "blind": protocol.blind, "admission": admission_text(store, protocol),
               "consent": consent_counts(store, protocol),
               "participants": [{"kind": k, "name": n, **d} for (k, n), d in sorted(per.items())],
               "annotators": [t.__dict__ for t in report.times],
               "agreement": _agreement_json(report.agreement)}
        print(json.dumps(out, indent=2))
        return 0
    print(f"study {protocol.name}: {len(protocol.scored)} tasks, {len(protocol.practice)} "
          f"practice, order {protocol.order}" + (", blind" if protocol.blind else "")
          + (f"; {len(protocol.checks)} of the tasks are checks" if protocol.checks else ""))
    print(f"who may take part: {admission_text(store, protocol)}")
    print(consent_line(store, protocol))
    table(["participant", "done", "of", "practice", "unfinished"],
          [[f"{k}:{n}", d["done"], len(protocol.scored) if k == "human" else None,
            d["practice"], d["other"]] for (k, n), d in sorted(per.items())])
    if report.times:
        print()
        table(["annotator", "tasks", "solved", "active min", "wall min", "median s/task"],
              [[t.annotator, t.tasks_done, t.solved, t.active_seconds / 60,
                t.wall_seconds / 60, t.median_task_seconds] for t in report.times])
    if report.agreement is not None:
        print()
        for line in _agreement_lines(report.agreement):
            print(line)
    return 0


def _agreement_json(a: Agreement | None) -> dict | None:
    if a is None:
        return None
    import dataclasses
    return dataclasses.asdict(a)


def cmd_run(args: argparse.Namespace) -> int:
    from playbench.app.studies import load_protocol, run_sweep
    if args.repeat < 1 or args.concurrency < 1:
        raise UsageError("--repeat and --concurrency must be at least 1")
    from playbench.app.agents.progress import RunProgress
    from playbench.app.cli.common import closing as _closing
    from playbench.app.cli.common import summary as _summary
    from playbench.app.players.factory import UnknownPlayer, player_factory
    store = open_store(args)
    load_protocol(store, args.name)  # an unknown study fails before any player is made
    try:
        factory = player_factory(args.player, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    bars: list = []

    def planned(n: int) -> None:
        bars.append(RunProgress(n, f"{args.name} {args.player}",
                                disable=args.no_progress or n < 2))

    def listen(event) -> None:
        for bar in bars:
            bar(event)

    import asyncio
    report = asyncio.run(_closing(factory, run_sweep(
        store, args.name, factory, repeat=args.repeat, concurrency=args.concurrency,
        include_practice=args.include_practice, listeners=[listen], on_planned=planned)))
    for bar in bars:
        bar.close()
    print(f"{report.participant}: {len(report.results)} episodes played, {report.skipped} "
          "already done")
    protocol = load_protocol(store, args.name)
    if protocol.sealed and protocol.id not in cli_viewer(args, store).unlocked:
        print("scores not shown: the study is sealed (--researcher-key or "
              "$PLAYBENCH_RESEARCHER_PASSPHRASE shows them)")
    elif report.results:
        _summary(report.results)
    return 1 if report.errors else 0
