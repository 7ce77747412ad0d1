"""``python -m mighty_sim``: the same as the ``mighty-sim`` command."""

from .cli import main

main(prog_name="mighty-sim")
