"""Counts said in words: "1 step", "3 steps". One helper so that every sentence that names a
count of steps, actions or episodes agrees with it (the Give up question said "The 1 step so
far are kept")."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the form that agrees with it: the singular for exactly one, else
    ``plural`` (by default the noun with an "s")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def verb(n: int, singular: str = "is", plural: str = "are") -> str:
    """The verb form that agrees with a count of ``n``: "The 1 step so far *is* kept"."""
    return singular if n == 1 else plural


def action_text(action: str | None) -> str:
    """An action as the step lists show it. Steps are numbered from 1 there, and the recorded
    ``undo N`` (the ING-VP form, kept as it is in the database) means "back to the state
    after step N", with 0 the start position; a bare "undo 0" beside "1. R" read as a second
    numbering from 0, so the undo's target is said in the same numbering as the steps."""
    if action is None:
        return "(unreadable)"
    words = action.split()
    if len(words) == 2 and words[0] == "undo" and words[1].isdigit():
        n = int(words[1])
        return f"{action} (back to {'the start' if n == 0 else f'after step {n}'})"
    return action
