"""Opening a file named by a page's URL path inside one folder, and never anything outside it.

A folder PlayBench serves to a page (a catalog's game folders) is not PlayBench's own: it may
hold a symbolic link such as ``leak.txt -> /etc/passwd``, which a plain static server (the
standard library's ``SimpleHTTPRequestHandler``) follows, and the page can then draw the file
into the frame the model is sent. :func:`open_inside` is the one rule every file PlayBench
serves from disk goes through:

- the URL path is percent-decoded once and split on ``/``; a ``..`` component (however it was
  spelled: ``..``, ``%2e%2e``, ``%2E.``), a NUL byte or, on Windows, a backslash or drive is
  refused; empty and ``.`` components are dropped, so ``/etc/passwd`` names ``etc/passwd``
  inside the folder;
- every component is opened relative to the one before with ``O_NOFOLLOW``, starting from the
  folder itself: a symbolic link anywhere on the way - to a file or to a directory, pointing
  outside the folder or inside it - is refused, and no component can be swapped for a link
  between a check and the open, since nothing is looked up by path twice;
- only a regular file is served (never a FIFO, socket or device: the open does not block), or
  a directory's ``index.html`` by the same rules.

Hard links are not detected: a hard link is an ordinary file of the folder, and making one to
another user's file needs write access to the same file system.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote

INDEX = "index.html"
_FOLLOW_NOTHING = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS = (os.O_RDONLY | _FOLLOW_NOTHING | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class FileRefused(Exception):
    """A path that is not served: ``status`` 404 (nothing there) or 403 (a link, a way out of
    the folder, not a regular file); the message says which, for the log."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class IsDirectory(Exception):
    """The path names a directory: the caller redirects to the path with a trailing slash."""


def url_parts(url_path: str) -> list[str]:
    """The components of a URL path (already split from its query), decoded; raises
    :class:`FileRefused` (403) for a component that leaves the folder or names a drive."""
    parts = []
    for raw in url_path.split("/"):
        name = unquote(raw, errors="strict") if "%" in raw else raw
        if name in ("", "."):
            continue
        if name == ".." or "/" in name or "\0" in name or (
                sys.platform == "win32" and ("\\" in name or ":" in name)):
            raise FileRefused(403, f"{url_path!r} leaves the served folder")
        parts.append(name)
    return parts


def open_inside(root: Path, url_path: str) -> tuple[BinaryIO, os.stat_result, str]:
    """Open the regular file ``url_path`` names under ``root`` (see the module docstring):
    returns the open file, its status and its name (for the content type). A path ending in
    ``/`` (or naming the root) opens that directory's ``index.html``. Raises
    :class:`FileRefused`, or :class:`IsDirectory` for a directory named without the slash."""
    try:
        parts = url_parts(url_path)
    except UnicodeDecodeError:
        raise FileRefused(404, f"{url_path!r} is not a file name") from None
    wants_dir = url_path.endswith("/") or not parts
    if not (os.open in os.supports_dir_fd and _FOLLOW_NOTHING):
        return _open_by_path(Path(root), parts, wants_dir)
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for name in [*parts, INDEX] if wants_dir else parts:
            try:
                child = os.open(name, _OPEN_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                raise FileRefused(404, f"{url_path!r}: no such file") from None
            except OSError as err:  # ELOOP: a symbolic link; ENOTDIR: a file used as a folder
                why = "a symbolic link" if _is_link(fd, name) else err.strerror
                raise FileRefused(403, f"{url_path!r}: {name} is not served ({why})") from None
            os.close(fd)
            fd = child
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsDirectory(url_path)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(403, f"{url_path!r} is not a regular file")
        os.set_blocking(fd, True)
        handle = os.fdopen(fd, "rb")
        fd = -1
        return handle, info, (parts[-1] if parts and not wants_dir else INDEX)
    finally:
        if fd >= 0:
            os.close(fd)


def _is_link(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def _is_reparse_point(info: os.stat_result) -> bool:
    """A Windows junction or other reparse point (a link that ``S_ISLNK`` does not show)."""
    attributes: int = getattr(info, "st_file_attributes", 0)
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_REPARSE_POINT", 0x400))


def _open_by_path(root: Path, parts: list[str], wants_dir: bool
                  ) -> tuple[BinaryIO, os.stat_result, str]:
    """The same rules where ``open`` cannot be given a directory (Windows): every component is
    checked with ``lstat`` before the file is opened."""
    names = [*parts, INDEX] if wants_dir else parts
    where = root
    for name in names:
        where = where / name
        try:
            info = os.lstat(where)
        except FileNotFoundError:
            raise FileRefused(404, f"{'/'.join(parts)}: no such file") from None
        if stat.S_ISLNK(info.st_mode) or _is_reparse_point(info):
            raise FileRefused(403, f"{'/'.join(parts)}: {name} is a link")
    if stat.S_ISDIR(info.st_mode):
        raise IsDirectory("/".join(parts))
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(403, f"{'/'.join(parts)} is not a regular file")
    return open(where, "rb"), info, names[-1]


__all__ = ["FileRefused", "INDEX", "IsDirectory", "open_inside", "url_parts"]
