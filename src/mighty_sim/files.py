"""Writing a file whole or not at all; reading a small settings file with limits."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def written_whole(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` (dot-named, with the process's id) for the block
    to write: renamed to ``path`` when the block ends, removed if it fails, so ``path``
    is whole or as it was.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with written_whole(folder / "a.bin") as tmp:
    ...     _ = tmp.write_bytes(b"x")
    >>> sorted(p.name for p in folder.iterdir())
    ['a.bin']
    """
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:  # named by the file the user asked for, not the temporary one
        if e.filename is not None and Path(e.filename) == tmp:
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a dot-named temporary file renamed into place;
    on any failure the temporary file is removed and ``path`` is left as it was.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "a.txt", "hello")
    >>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('hello', ['a.txt'])
    """
    with written_whole(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


SETTINGS_LIMIT = 1 << 20
"""Bytes a profile or player file may hold (1 MiB): such a file is a few hundred bytes."""


def read_settings(path: Path, what: str, *, limit: int = SETTINGS_LIMIT) -> dict[str, Any]:
    """The TOML table of a small settings file (a rule profile, a player's values): a
    ValueError naming the file, in one line, unless it is a regular file of at most
    ``limit`` bytes holding TOML that is not nested past Python's limits (a device, a
    pipe or a folder would be read forever or not at all).

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "t.toml"
    >>> _ = f.write_text('a = 1')
    >>> read_settings(f, "profile file")
    {'a': 1}
    >>> read_settings(Path("/dev/zero"), "profile file")
    Traceback (most recent call last):
    ...
    ValueError: profile file /dev/zero: not a regular file
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what} {path}: not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{what} {path}: {info.st_size:,} bytes; at most {limit:,}")
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise ValueError(f"cannot read {what} {path}: {e.strerror}") from None
    if len(raw) > limit:
        raise ValueError(f"{what} {path}: more than {limit:,} bytes")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{what} {path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{what} {path} is not valid TOML: {e}") from None
    except RecursionError:
        raise ValueError(f"{what} {path}: tables nested too deeply") from None
