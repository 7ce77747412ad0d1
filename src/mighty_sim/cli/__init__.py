"""The ``mighty-sim`` command line (:mod:`.commands`; ``par`` in :mod:`.par_commands`)
and its demo (:mod:`.demo`)."""

from . import par_commands as _par_commands  # noqa: F401  (registers `par`)
from .commands import main, run

__all__ = ["main", "run"]
