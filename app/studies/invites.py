"""Invite codes: short random codes a study organiser hands out, one per person."""

from __future__ import annotations

import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I: codes are read aloud and typed from paper."""


def new_code() -> str:
    """A random invite code such as ``K7QM-X2RT`` (40 bits)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalise(code: str) -> str:
    """A typed code as stored: upper case, no spaces around or inside."""
    return code.strip().upper().replace(" ", "")


def invite_batch(n: int) -> list[str]:
    """``n`` distinct new invite codes."""
    codes: set[str] = set()
    while len(codes) < n:
        codes.add(new_code())
    return sorted(codes)
