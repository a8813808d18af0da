"""The dataset card (``README.md``) of the Hugging Face export.

Front matter in the Hub's YAML (the data files as the ``default`` config's ``train`` split, a
``license`` for the publisher to choose), then in Markdown: what was exported, who played, each
study's description and population fields as the organizer wrote them (docs/studies.md), how to
load it, and the rows' schema. Texts from a study file are quoted, never read as Markdown
structure: each line goes into a block quote.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from playbench.db.store import Store
from playbench.db.transfer import studies_with_members

POPULATION_FIELDS = ("population", "sampling", "compensation")


@dataclass
class Card:
    """What the card reports of a written export."""

    episodes: int
    rows: int
    shards: list[str]
    study_ids: set[int] = field(default_factory=set)
    participants: dict[str, set[str]] = field(default_factory=dict)
    by_kind: dict[str, int] = field(default_factory=dict)


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def card_text(store: Store, card: Card, columns: Iterable[tuple[str, str, str]],
              version: str) -> str:
    """The card's text."""
    out = [
        "---",
        "# Choose the licence you publish these recordings under before sharing them",
        "# (https://huggingface.co/docs/hub/repositories-licenses); PlayBench cannot know it.",
        "license: unknown",
        "pretty_name: PlayBench trajectories",
        "tags:",
        "- playbench",
        "- trajectories",
        "configs:",
        "- config_name: default",
        "  data_files:",
        "  - split: train",
        "    path: data/train-*.parquet",
        "---",
        "",
        "# PlayBench trajectories",
        "",
        f"Written by PlayBench {version} on {datetime.now(UTC).strftime('%Y-%m-%d')}: "
        f"{card.episodes} episodes, {card.rows} steps (one row each), in {len(card.shards)} "
        "parquet shard(s) under `data/`.",
        "",
        "## Licence",
        "",
        "Not chosen yet: set `license` in the front matter above to the licence you publish "
        "these recordings under, and check that it agrees with what the participants "
        "consented to.",
        "",
        "## Participants",
        "",
        "| kind | participants | episodes |",
        "|---|---|---|",
    ]
    for kind in sorted(card.by_kind):
        out.append(f"| {kind} | {len(card.participants.get(kind, ()))} | "
                   f"{card.by_kind[kind]} |")
    out += ["", "## Studies", ""]
    studies = studies_with_members(store.db, card.study_ids)
    if not studies:
        out.append("None: these episodes were not played in a study.")
    for study, members in studies:
        protocol = study.protocol or {}
        out += [f"### {_cell(study.name)}", "",
                f"Study `{study.uid}`, {len(members)} member(s).", ""]
        if protocol.get("description"):
            out += [_quoted(str(protocol["description"])), ""]
        for name in POPULATION_FIELDS:
            value = protocol.get(name)
            out += [f"**{name.capitalize()}:**", "",
                    _quoted(str(value)) if value else "(not given in the study file)", ""]
    out += [
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        'rows = load_dataset("parquet", data_dir="data", split="train")',
        'rows[0]["observation"]  # a PIL image: what the player saw before this step',
        "```",
        "",
        "Rows come in episode then step order; an episode's rows share `episode`.",
        "",
        "## Schema",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
    ]
    out += [f"| `{name}` | {kind} | {_cell(meaning)} |" for name, kind, meaning in columns]
    return "\n".join(out) + "\n"
