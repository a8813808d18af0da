"""Which episodes make each leaderboard row, and the human action baselines, from columns.

The definition (``leaderboard.definition_rows``, ``baselines.action_baselines``) walks the
episodes one at a time with a dict per row; over 100,000 episodes those walks took 0.35 s of
CPU (issue 32). Here a row is the set of episodes sharing one combined code (game, setting,
kind, participant and, for the sub-group rows, group), found by one stable sort; each row's
episodes keep the order they were loaded in, as the definition's lists do.
"""

from __future__ import annotations

import numpy as np

from playbench.app.results.baselines import HumanBaseline, action_baselines
from playbench.app.results.episode_columns import EpisodeColumns

RowKey = tuple[str, str, str, str, str]
"""``(game, setting, kind, participant, group)``; group "" for the row over all levels."""


def row_members(table: EpisodeColumns, human_label: str | None = None
                ) -> list[tuple[RowKey, np.ndarray]]:
    """Each row's key and its episodes' positions in ``table``, rows sorted by key. With a
    ``human_label``, every person's episodes go to one row of that participant name (the
    human-baseline row)."""
    game, setting, kind, person, group = (table.category(name) for name in (
        "game", "setting", "kind", "participant", "group"))
    people = list(person.names)
    person_codes = person.codes
    if human_label is not None and "human" in kind.names:
        people.append(human_label)
        person_codes = np.where(kind.codes == kind.names.index("human"), len(people) - 1,
                                person_codes)
    code = ((game.codes * len(setting.names) + setting.codes) * len(kind.names)
            + kind.codes) * len(people) + person_codes

    def key(i: int, with_group: bool) -> RowKey:
        return (game.names[game.codes[i]], setting.names[setting.codes[i]],
                kind.names[kind.codes[i]], people[person_codes[i]],
                group.names[group.codes[i]] if with_group else "")

    members = [(key(int(index[0]), False), index) for index in _split(code)]
    if any(group.names):
        grouped = np.flatnonzero(group.codes != group.names.index("")
                                 if "" in group.names else np.ones(len(table), bool))
        sub = code[grouped] * len(group.names) + group.codes[grouped]
        members += [(key(int(grouped[index[0]]), True), grouped[index])
                    for index in _split(sub)]
    return sorted(members, key=lambda m: m[0])


def _split(code: np.ndarray) -> list[np.ndarray]:
    """Positions of each distinct value of ``code``, each in ascending order."""
    if not code.size:
        return []
    order = np.argsort(code, kind="stable")
    cuts = np.flatnonzero(np.diff(code[order])) + 1
    return np.split(order, cuts)


def column_action_baselines(table: EpisodeColumns, baseline: HumanBaseline
                            ) -> dict[tuple[str, str], float]:
    """``baselines.action_baselines`` of ``table``'s episodes: for the pooled rule (the
    default) the median action count of the solving human episodes per level and setting,
    one sort of codes; the other rules pick people first and go through the definition with
    the human episodes alone."""
    kind = table.category("kind")
    human = (kind.codes == kind.names.index("human") if "human" in kind.names
             else np.zeros(len(table), bool)) & ~table.practice
    if baseline.rule != "pooled":
        return action_baselines(table.take(human).facts(), baseline)
    level, setting = table.category("level_key"), table.category("setting")
    solving = np.flatnonzero(human & table.is_solved)
    code = level.codes[solving] * len(setting.names) + setting.codes[solving]
    out: dict[tuple[str, str], float] = {}
    for index in _split(code):
        first = solving[index[0]]
        out[(level.names[level.codes[first]], setting.names[setting.codes[first]])] = float(
            np.median(table.actions[solving[index]]))
    return out
