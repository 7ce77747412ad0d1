"""Write the golden playthroughs of tests/test_golden.py again, for the profiles named
(every built-in profile by default). Run it only when a change to what the engine plays
is meant, then read the diff (``git diff tests/golden``)::

    python tests/write_golden.py standard russian-5p
"""

from __future__ import annotations

import sys

from test_golden import GOLDEN, playthrough

from mighty_sim.rules.profile import list_profiles


def main(names: list[str]) -> None:
    unknown = sorted(set(names) - set(list_profiles()))
    if unknown:
        raise SystemExit(f"unknown profile: {', '.join(unknown)}")
    GOLDEN.mkdir(exist_ok=True)
    for name in names or list_profiles():
        path = GOLDEN / f"{name}.txt"
        text = playthrough(name)
        changed = not path.exists() or path.read_text() != text
        path.write_text(text)
        print(f"{path}: {'written' if changed else 'unchanged'}")


if __name__ == "__main__":
    main(sys.argv[1:])
