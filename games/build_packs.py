"""Rebuild the shipped level packs from their documented generator calls and seeds.

    .venv/bin/python -m playbench.games.build_packs            # write every pack
    .venv/bin/python -m playbench.games.build_packs --check    # compare; exit 1 on a difference
    .venv/bin/python -m playbench.games.build_packs --only sokoban/magebench --only maze/ingvp

Every generator draws from ``random.Random`` seeded by strings built from the seed and the
attempt number, so the same call gives the same levels, byte for byte, on any machine. What each
pack is (room sizes, seeds, titles) lives in each board kind's package (``games/<name>/packs.py``,
given to its :class:`playbench.games.board_kind.BoardKind`); the files are
``resources/levels/<name>/<pack><suffix>``, the suffix being the first of the kind's pack
format's. docs/levels.md describes the packs for people.

``build(pack, limit=k)`` makes only the first ``k`` levels of every part, numbered as in the
full pack: a generator asked for fewer levels walks through the same attempts and stops
earlier, so this is a prefix of the full part. Tests use it to check every pack quickly.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from playbench.games import registry
from playbench.games.base import Level
from playbench.games.board_kind import BoardKind
from playbench.games.kind import Registry, default_registry
from playbench.games.level_packs import Pack
from playbench.games.packs import pack_dir


def all_packs(kinds: Registry | None = None) -> list[Pack]:
    """Every pack the registered kinds describe, kind by kind in listing order."""
    kinds = kinds if kinds is not None else default_registry()
    return [p for k in kinds.listing() if isinstance(k, BoardKind) for p in k.packs]


def find(key: str, kinds: Registry | None = None) -> Pack:
    """The pack named ``game/name``; an unknown name lists the valid ones."""
    packs = all_packs(kinds)
    for pack in packs:
        if pack.key == key:
            return pack
    raise KeyError(f"unknown pack {key!r} (valid: {', '.join(p.key for p in packs)})")


def pack_path(pack: Pack) -> Path:
    """Where the pack's file lives in the source tree."""
    spec = registry.get(pack.game)
    return pack_dir(pack.game) / (pack.name + spec.formats[spec.default_format].suffixes[0])


def build(pack: Pack, limit: int | None = None) -> list[Level]:
    """The pack's levels (with ``limit``: the first ``limit`` levels of each part only)."""
    if pack.subset_of is not None:
        return _subset(pack)
    spec = registry.get(pack.game)
    levels: list[Level] = []
    offset = 0
    for part in pack.parts:
        count = part.count if limit is None else min(limit, part.count)
        made = spec.generate(count, part.seed, part.optimal, **dict(part.params))
        for k, lv in enumerate(made, start=1):
            number = offset + k
            title = part.title.format(number=number, k=k, gen=lv.title)
            levels.append(replace(lv, number=number, title=title,
                                  meta={**lv.meta, **part.meta}))
        offset += part.count
    return levels


def _subset(pack: Pack) -> list[Level]:
    """The first levels of each tier of the parent pack, renumbered from 1 (titles kept, so
    each still says where it sits in the parent)."""
    parent = find(f"{pack.game}/{pack.subset_of}")
    wanted = dict(pack.picks)
    source = build(parent, limit=max(wanted.values()))
    taken: dict[str, int] = {}
    chosen: list[Level] = []
    for lv in source:
        tier = str(lv.meta.get("tier"))
        if taken.get(tier, 0) < wanted.get(tier, 0):
            taken[tier] = taken.get(tier, 0) + 1
            chosen.append(replace(lv, number=len(chosen) + 1))
    missing = {t: n - taken.get(t, 0) for t, n in wanted.items() if taken.get(t, 0) < n}
    if missing:
        raise RuntimeError(f"{pack.key}: the parent lacks levels of tiers {missing}")
    return chosen


def render(pack: Pack, levels: Sequence[Level]) -> str:
    """The pack file's text: the game's own format."""
    spec = registry.get(pack.game)
    return spec.formats[spec.default_format].dump(levels)


def _selected(keys: Sequence[str] | None) -> list[Pack]:
    return all_packs() if not keys else [find(k) for k in keys]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m playbench.games.build_packs",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files instead of writing; exit 1 if any differs")
    parser.add_argument("--only", action="append", metavar="GAME/PACK",
                        help="only this pack (repeatable)")
    args = parser.parse_args(argv)
    try:
        packs = _selected(args.only)
    except KeyError as err:
        parser.error(str(err.args[0]))
    differing = []
    for pack in packs:
        start = time.perf_counter()
        levels = build(pack)
        data = render(pack, levels).encode("utf-8")
        path = pack_path(pack)
        seconds = time.perf_counter() - start
        if args.check:
            same = path.is_file() and path.read_bytes() == data
            if not same:
                differing.append(pack.key)
            state = "same" if same else "DIFFERS"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            state = "written"
        print(f"{pack.key:24} {len(levels):4} levels {len(data):8} bytes {seconds:7.2f} s  "
              f"{state}", flush=True)
    if differing:
        print(f"differ from their files: {', '.join(differing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
