"""Writing a file whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
