"""``playbench levels`` and ``playbench solve``: list, generate, import, export, solve.

Every registered kind with tasks is listed, imported and exported through the kind itself
(its ``sources``, ``load`` and, for ``--out``/``--export``,
``games.capabilities.LevelFiles``); a board game (a kind with a ``GameSpec``) adds what only
its rules know: generating levels, the optimal-length column, rule options and ``solve``."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playbench.app.cli.common import UsageError, parse_key_values, table

if TYPE_CHECKING:
    from playbench.games.base import BoardEnv, GameSpec, Level
    from playbench.games.kind import TaskKind



def add_parsers(sub) -> None:
    p = sub.add_parser("levels", help="list, generate, import or export a kind's levels or "
                                      "tasks")
    p.add_argument("game")
    p.add_argument("--pack", help="a bundled pack, or a level file (with optional :RANGE)")
    p.add_argument("--generate", type=int, metavar="N", help="generate N new levels")
    p.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    p.add_argument("--optimal", type=int, metavar="K", help="keep levels whose optimal "
                   "solution has exactly K moves")
    p.add_argument("--size", metavar="WxH", help="grid size for generated levels (Sokoban, Maze)")
    p.add_argument("--boxes", type=int, help="boxes per generated Sokoban level")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="other generator parameters")
    p.add_argument("--import", dest="import_file", metavar="FILE",
                   help="read a level file (its format detected, or --format)")
    p.add_argument("--format", dest="fmt", help="level file format (e.g. xsb, ingvp)")
    p.add_argument("--export", metavar="FILE", help="write the levels in --format")
    p.add_argument("--out", metavar="FILE", help="write the levels in the kind's own format")
    p.add_argument("--no-solve", action="store_true",
                   help="do not compute missing optimal lengths for the table")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="rule option used to solve the levels (e.g. disk_order=a-largest); "
                        "without it, each level's stored choice (an imported Hanoi level's "
                        "detected disk order), else the default")
    p.set_defaults(handler=cmd_levels)

    s = sub.add_parser("solve", help="print an optimal solution of a level")
    s.add_argument("game")
    s.add_argument("source", metavar="FILE[:INDEX]", help="level file or pack, with a level number")
    s.add_argument("--format", dest="fmt", help="force the level file format")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="rule option")
    s.set_defaults(handler=cmd_solve)


def _named(name: str) -> TaskKind:
    """The registered kind ``name``; an unknown one lists the valid names."""
    from playbench.games.kind import UnknownKind, default_registry
    try:
        return default_registry().get(name)
    except UnknownKind as err:
        raise UsageError(str(err)) from None


def _spec(name: str) -> GameSpec:
    """The board game's spec, for what only its rules know (``solve``)."""
    from playbench.games.kind import board_spec
    spec = board_spec(_named(name))
    if spec is None:
        raise UsageError(f"{name} is not a board game: it has no solver")
    return spec


def _kind(spec: GameSpec) -> TaskKind:
    """The task kind of a board game: its bundled sources, loading and listing facts (the
    spec stays for what only the rules know: formats, generator, solver)."""
    return _named(spec.name)


def _generator_params(spec: GameSpec, args: argparse.Namespace) -> dict:
    params: dict = {}
    for k, v in parse_key_values(args.param, "--param").items():
        params[k] = int(v) if v.lstrip("-").isdigit() else v
    if args.size:
        w, sep, h = args.size.lower().partition("x")
        if not sep or not w.isdigit() or not h.isdigit():
            raise UsageError(f"--size must look like 10x10, got {args.size[:40]!r}")
        params.update(_size_params(spec, int(w), int(h)))
    if args.boxes is not None:
        params["boxes"] = args.boxes
    return params


def _size_params(spec: GameSpec, width: int, height: int) -> dict[str, int]:
    """``--size WxH`` as the generator's own parameters: ``width`` and ``height`` (Sokoban,
    Maze) or the side ``n`` of a square board (n-puzzle). The generator itself refuses a size
    its board cannot be played at."""
    accepted = inspect.signature(spec.generate).parameters
    if "width" in accepted and "height" in accepted:
        return {"width": width, "height": height}
    if "n" in accepted:
        if width != height:
            raise UsageError(f"{spec.name} boards are square: give --size NxN, got "
                             f"{width}x{height}")
        return {"n": width}
    raise UsageError(f"{spec.name} boards have one size; --size does not apply")


def _optimal(spec: GameSpec, level: Level, solve: bool, options: dict[str, str]) -> int | None:
    from playbench.games.base import BoardEnv, level_rule_options
    if "optimal" in level.meta:
        return level.meta["optimal"]
    if not solve:
        return None
    env: BoardEnv[Any, Any] = BoardEnv(spec, level_rule_options(spec.options, level, options))
    env.reset(level)
    return env.moves_left()


def print_levels(spec: GameSpec, levels: list[Level], solve: bool = True,
                 options: dict[str, str] | None = None) -> None:
    kind = _kind(spec)
    extra = list(kind.describe(levels[0]).keys()) if levels else []
    rows = []
    for lv in levels:
        facts = kind.describe(lv)
        rows.append([lv.number, lv.title, *[facts.get(k) for k in extra],
                     _optimal(spec, lv, solve, options or {})])
    table(["index", "title", *extra, "optimal"], rows)


def cmd_levels(args: argparse.Namespace) -> int:
    from playbench.games.kind import board_spec
    from playbench.games.packs import load_file
    kind = _named(args.game)
    spec = board_spec(kind)
    if spec is None:
        return _task_levels(kind, args)
    chosen = [x for x in (args.pack, args.generate, args.import_file) if x is not None]
    if len(chosen) > 1:
        raise UsageError("choose one of --pack, --generate and --import")
    if args.export and not args.fmt:
        raise UsageError("--export needs --format (" + ", ".join(spec.formats) + ")")
    if args.fmt and args.fmt not in spec.formats:
        raise UsageError(f"unknown format {args.fmt!r} for {spec.name} "
                         f"(valid: {', '.join(spec.formats)})")
    if args.generate is not None:
        if args.generate < 1:
            raise UsageError("--generate needs a positive count")
        try:
            levels = spec.generate(args.generate, args.seed, args.optimal,
                                   **_generator_params(spec, args))
        except (TypeError, ValueError, RuntimeError) as err:
            # RuntimeError: the generator ran out of attempts (e.g. Sudoku with 64 blanks)
            raise UsageError(f"cannot generate {spec.name} levels: {err}") from None
    elif args.import_file is not None:
        levels = load_file(spec, Path(args.import_file), args.fmt)
    elif args.pack is not None:
        levels = _kind(spec).load(args.pack, fmt=args.fmt if not args.export else None)
    else:
        packs = [s.name for s in _kind(spec).sources()]
        print(f"{spec.title} packs: {', '.join(packs) if packs else 'none bundled'}")
        return 0
    options = parse_key_values(args.rule, "--rule")
    try:
        spec.rule_options(options)
    except ValueError as err:
        raise UsageError(str(err)) from None
    print_levels(spec, levels, solve=not args.no_solve, options=options)
    if args.out:
        _write(Path(args.out), spec.formats[spec.default_format].dump(levels))
        print(f"wrote {len(levels)} levels to {args.out}")
    if args.export:
        _write(Path(args.export), spec.formats[args.fmt].dump(levels))
        print(f"wrote {len(levels)} levels to {args.export} ({args.fmt})")
    return 0


BOARD_ONLY = (("generate", "--generate"), ("optimal", "--optimal"), ("size", "--size"),
              ("boxes", "--boxes"), ("param", "--param"), ("rule", "--rule"))
"""Options of ``playbench levels`` that only a board game's rules can answer."""


def _task_levels(kind: TaskKind, args: argparse.Namespace) -> int:
    """``playbench levels`` for a kind that is not a board game (web tasks, WebUI pages, CSS
    repair, browser games, a plugin's): its sources, its loader, its table of ``describe``
    facts, and its own task file (:class:`~playbench.games.capabilities.LevelFiles`)."""
    from playbench.games.kind import LevelFiles
    given = [flag for name, flag in BOARD_ONLY if getattr(args, name) is not None]
    if given:
        raise UsageError(f"{given[0]} applies to board games; {kind.name} is not one")
    chosen = [x for x in (args.pack, args.import_file) if x is not None]
    if len(chosen) > 1:
        raise UsageError("choose one of --pack and --import")
    if not chosen and not kind.sources():
        raise UsageError(f"{kind.name} has no task sets to list: its tasks are not kept in "
                         "files (the outside harness's kind, say, gets them with its requests)")
    formats = kind.level_formats() if isinstance(kind, LevelFiles) else ()
    if (args.export or args.out) and not formats:
        raise UsageError(f"{kind.name} has no task file to write its levels to (its tasks "
                         "are read from where they live; --import names that place)")
    if args.fmt and args.fmt not in formats:
        raise UsageError(f"unknown format {args.fmt!r} for {kind.name} "
                         f"(valid: {', '.join(formats) or 'none'})")
    if args.export and not args.fmt:
        raise UsageError("--export needs --format (" + ", ".join(formats) + ")")
    if not chosen:
        sources = [s.name for s in kind.sources()]
        print(f"{kind.title} task sets: {', '.join(sources) if sources else 'none bundled'}")
        return 0
    levels = kind.load(chosen[0])
    facts = [kind.describe(lv) for lv in levels]
    extra = [k for k in (facts[0] if facts else {}) if k not in ("title",)]
    rows = [[lv.number, lv.title, *[f.get(k) for k in extra]]
            for lv, f in zip(levels, facts, strict=True)]
    table(["index", "title", *extra], rows)
    if isinstance(kind, LevelFiles):
        for target, fmt in ((args.out, None), (args.export, args.fmt)):
            if target:
                _write(Path(target), kind.dump_levels(levels, fmt))
                print(f"wrote {len(levels)} levels to {target} ({fmt or formats[0]})")
    return 0


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def cmd_solve(args: argparse.Namespace) -> int:
    from playbench.games.base import BoardEnv, LevelError, level_rule_options
    spec = _spec(args.game)
    levels = _kind(spec).load(args.source, fmt=args.fmt)
    options = parse_key_values(args.rule, "--rule")
    spec.rule_options(options)  # an unknown option or value stops here
    for lv in levels:
        env: BoardEnv[Any, Any] = BoardEnv(spec, level_rule_options(spec.options, lv, options))
        env.reset(lv)
        plan = spec.solve(env.rules, env.state, None)
        if plan is None:
            raise LevelError("no solution exists", source=args.source, level=lv.number)
        moves = [env.rules.format_move(m) for m in plan]
        sep = "" if all(len(m) == 1 for m in moves) else " "
        print(f"level {lv.number}: {len(moves)} moves")
        print(sep.join(moves))
    return 0
