"""The ``mighty-sim`` command line (:mod:`.commands`) and its demo (:mod:`.demo`)."""

from .commands import main, run

__all__ = ["main", "run"]
