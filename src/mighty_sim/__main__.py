"""``python -m mighty_sim``: the same as the ``mighty-sim`` command."""

from .cli import run

run()
