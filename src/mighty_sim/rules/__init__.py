"""The rules as data, in plain Python: the card layout (:mod:`.cards`), validated rule
profiles (:mod:`.profile`) and exact weak-hand probabilities (:mod:`.weak`). Nothing
here loads Numba; the rules themselves are written out in ``docs/rules.md``."""
