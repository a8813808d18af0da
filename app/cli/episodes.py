"""``playbench episodes``, ``playbench replay`` and ``playbench export``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playbench.app.cli.common import (
    UsageError,
    add_db_option,
    add_researcher_option,
    cli_viewer,
    open_store,
    table,
)
from playbench.app.cli.transfer import (
    EXPORT_FORMATS,
    add_export_options,
    export_other,
    study_episode_ids,
)


def add_parsers(sub) -> None:
    e = sub.add_parser("episodes", help="list recorded episodes")
    e.add_argument("--limit", type=int, default=20, help="newest N episodes (default 20)")
    add_researcher_option(e)
    add_db_option(e)
    e.set_defaults(handler=cmd_episodes)

    r = sub.add_parser("replay", help="show a recorded episode, or --verify it by re-playing")
    r.add_argument("episode", type=int, nargs="?", help="episode id")
    r.add_argument("--verify", action="store_true",
                   help="re-play the actions and check every state hash and score")
    r.add_argument("--all", action="store_true", help="with --verify: every episode")
    add_researcher_option(r)
    add_db_option(r)
    r.set_defaults(handler=cmd_replay)

    x = sub.add_parser("export", help="write episodes to portable files")
    x.add_argument("--format", dest="fmt", default="jsonl", choices=list(EXPORT_FORMATS),
                   help="jsonl: trajectories (re-importable); csv: score tables; chat: "
                        "behaviour-cloning data; inspect: Inspect AI logs; hf: a Hugging Face "
                        "dataset (parquet, one row per step); atif: ATIF v1.6 trajectories, "
                        "one per episode")
    x.add_argument("--out", metavar="DIR", help="the directory to write (required)")
    x.add_argument("--episode", type=int, action="append", metavar="ID",
                   help="only these episodes (repeatable; default all)")
    x.add_argument("--schema", action="store_true",
                   help="print the JSON Schema of the jsonl format's files and stop")
    add_export_options(x)
    add_researcher_option(x)
    add_db_option(x)
    x.set_defaults(handler=cmd_export)


def cmd_episodes(args: argparse.Namespace) -> int:
    from playbench.app.studies.access import hidden_study_ids
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    store = open_store(args)
    hidden = set(hidden_study_ids(store, cli_viewer(args, store)))
    rows = []
    kept = 0
    for row in store.episodes(limit=args.limit):
        e, t, p = row.episode, row.task, row.participant
        if e.study_id in hidden:
            continue
        kept += 1
        s = row.scores
        rows.append([e.id, e.status, f"{p.kind}:{p.name}", t.game, t.level_number,
                     e.setting, e.n_steps, s.get("solved"), s.get("completion"),
                     s.get("efficiency"), s.get("magebench"), e.end_reason,
                     e.started.strftime("%Y-%m-%d %H:%M:%S") if e.started else None])
    table(["id", "status", "player", "game", "level", "setting", "steps", "solved",
           "completion", "efficiency", "magebench", "end", "started"], rows)
    if hidden:
        print(f"(episodes of {len(hidden)} sealed blind stud{'y' if len(hidden) == 1 else 'ies'}"
              " not listed: give --researcher-key or $PLAYBENCH_RESEARCHER_PASSPHRASE)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from playbench.app.core.replay import verify_episode
    from playbench.app.studies.access import hidden_study_ids
    if args.all and not args.verify:
        raise UsageError("--all goes with --verify")
    if (args.episode is None) == (not args.all):
        raise UsageError("give an episode id, or --verify --all")
    store = open_store(args)
    hidden = set(hidden_study_ids(store, cli_viewer(args, store)))
    if args.episode is not None and hidden and store.episode(args.episode).episode.study_id \
            in hidden:
        raise UsageError(f"episode {args.episode} belongs to a sealed blind study: give "
                         "--researcher-key or $PLAYBENCH_RESEARCHER_PASSPHRASE")
    if not args.verify:
        row = store.episode(args.episode)
        rows = [[s.index, s.action, s.valid, s.invalid_reason, s.changed, s.reward,
                 s.state_hash] for s in store.steps(args.episode)]
        print(f"episode {row.episode.id}: {row.participant.kind}:{row.participant.name} on "
              f"{row.task.game} level {row.task.level_number}, {row.episode.status}")
        table(["step", "action", "valid", "why invalid", "changed", "reward", "state"], rows)
        return 0
    ids = store.all_episode_ids() if args.all else [args.episode]
    if hidden and args.all:
        sealed = {r.episode.id for r in store.episodes(ids=ids)
                  if r.episode.study_id in hidden}
        ids = [i for i in ids if i not in sealed]
        if sealed:
            print(f"{len(sealed)} episode(s) of sealed blind studies left out")
    failed = 0
    import asyncio
    for eid in ids:
        report = asyncio.run(verify_episode(store, eid))
        if report.ok:
            limited = f"; {report.limited}" if report.limited else ""
            print(f"episode {eid}: ok ({report.steps_checked} steps{limited})")
        else:
            failed += 1
            print(f"episode {eid}: MISMATCH")
            for problem in report.problems:
                print(f"  {problem}")
    if len(ids) > 1:
        print(f"{len(ids) - failed} of {len(ids)} episodes verified")
    return 1 if failed else 0


def cmd_export(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from playbench.app.cli.trajectories import (
        TRAJECTORY_FORMATS,
        check_extra,
        export_dataset,
        verified,
    )
    from playbench.app.exports.jsonl import export_jsonl
    from playbench.app.studies.access import Blinded, check_results_allowed, hidden_study_ids
    if args.schema:
        import json

        from playbench.app.exports.schema import json_schema
        print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
        return 0
    if not args.out:
        raise UsageError("export needs --out DIR (or --schema)")
    if args.fmt not in TRAJECTORY_FORMATS:
        return export_other(args)
    missing = check_extra(args.fmt)
    if missing:
        print(f"playbench export: {missing}", file=sys.stderr)
        return 1
    store = open_store(args)
    show = sys.stderr.isatty()
    viewer = cli_viewer(args, store)
    hidden = set(hidden_study_ids(store, viewer))
    ids = args.episode
    if args.study:
        if ids:
            raise UsageError("give --episode or --study, not both")
        try:
            check_results_allowed(store, args.study, viewer)
        except Blinded as err:
            raise UsageError(f"{err}: give --researcher-key or "
                             "$PLAYBENCH_RESEARCHER_PASSPHRASE") from None
        ids = study_episode_ids(store, args.study, viewer)
        if not ids:
            print(f"study {args.study!r} has no episodes yet; nothing exported")
            return 0
    if hidden:
        every = ids if ids else store.all_episode_ids()
        sealed = {r.episode.id for r in store.episodes(ids=every)
                  if r.episode.study_id in hidden}
        if ids and sealed:
            raise UsageError(f"episode(s) {', '.join(map(str, sorted(sealed)))} belong to a "
                             "sealed blind study: give --researcher-key or "
                             "$PLAYBENCH_RESEARCHER_PASSPHRASE")
        if sealed:
            ids = [i for i in every if i not in sealed]
            print(f"{len(sealed)} episode(s) of sealed blind studies not exported",
                  file=sys.stderr)
    if args.verify or args.fmt != "jsonl":
        ids = list(ids) if ids else store.all_episode_ids()
    if args.verify:
        ids = verified(store, ids)
        if not ids:
            print("no episode replays to its record; nothing exported", file=sys.stderr)
            return 1
    if args.fmt != "jsonl":
        return export_dataset(args, store, ids)
    manifest = export_jsonl(
        store, Path(args.out), ids,
        progress=(lambda ids: tqdm(ids, unit="ep", file=sys.stderr)) if show else None)
    print(f"exported {manifest['episodes']} episodes, {manifest['steps']} steps, "
          f"{manifest['frames']} frames to {args.out}")
    return 0
