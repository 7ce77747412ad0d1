"""The fast engine checked against the reference engine, decision by decision
(:mod:`.differential`), on worker processes (:mod:`.parallel`): ``mighty-sim verify``.
What it compares is listed in ``docs/correctness.md``."""
