"""The researcher credential of a sealed blind study: a passphrase or a key file, stored
only as a salted scrypt verifier (never in plain text).

A blind study created with a credential is *sealed*: its scores, other participants' play and
its leaderboard are shown only to a viewer that gave the credential (``Viewer.unlocked``), in
the app and on the command line. Blind studies created without one keep the older rule (hidden
from annotators only).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ENV_PASSPHRASE = "PLAYBENCH_RESEARCHER_PASSPHRASE"
"""Environment variable a script can give the passphrase in (instead of a prompt)."""
_N, _R, _P = 2 ** 14, 8, 1
MIN_LENGTH = 8


class CredentialError(ValueError):
    """A passphrase or key file that cannot be used; the message says why."""


def make_verifier(secret: str) -> dict[str, Any]:
    """The stored form of ``secret``: scrypt parameters, a random salt and the digest."""
    if len(secret) < MIN_LENGTH:
        raise CredentialError(f"a researcher passphrase needs at least {MIN_LENGTH} "
                              "characters")
    salt = os.urandom(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return {"kdf": "scrypt", "n": _N, "r": _R, "p": _P, "salt": salt.hex(),
            "digest": digest.hex()}


def verify(verifier: Mapping[str, Any], secret: str) -> bool:
    """Whether ``secret`` is the credential ``verifier`` was made from (constant time)."""
    try:
        digest = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(verifier["salt"]),
                                n=int(verifier["n"]), r=int(verifier["r"]),
                                p=int(verifier["p"]), dklen=32)
        return hmac.compare_digest(digest.hex(), str(verifier["digest"]))
    except (KeyError, ValueError, TypeError):
        return False


def read_key_file(path: Path, *, create: bool = False) -> str:
    """The secret held in a key file; with ``create``, a missing file is made first with a
    random key, readable by its owner only."""
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as err:
        raise CredentialError(f"{path}: the researcher key file cannot be read ({err})") \
            from None
    if len(text) < MIN_LENGTH:
        raise CredentialError(f"{path}: a researcher key file holds at least {MIN_LENGTH} "
                              "characters")
    return text
