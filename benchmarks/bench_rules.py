"""Rule kernels against the reference rules on the same decisions, measured in one run.

What it counts: the play decisions (legal-play sets), tricks (winners) and settlements
of N random deals recorded by the reference engine. Both engines answer the same
questions; the answers are compared (an output-parity check) before any time is quoted.
The machine is shared and noisy: read the ratio, not the absolute figures.

    .venv/bin/python benchmarks/bench_rules.py [--deals N] [--out results.json]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from _results import save
from floor import floor_rate

from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.rules import rules_nb
from mighty_sim.reference import rules
from mighty_sim.rules.profile import load_profile
from mighty_sim.verify.differential import decision_arrays, record_random_deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    profile = load_profile("standard")
    params = compile_profile(profile)
    _, log = record_random_deals(profile, seed=1, start=0, count=args.deals)
    hands, played, cols, _ = decision_arrays(log, profile.players)
    m = len(log)
    out = np.zeros(m, np.uint64)
    rules_nb.legal_plays_batch_nb(hands, played, *cols, params, out)  # compile / load cache

    t0 = time.perf_counter()
    rules_nb.legal_plays_batch_nb(hands, played, *cols, params, out)
    t_kernel = time.perf_counter() - t0

    states = [rules.TrickState(v.trump, v.trick_no, v.played, v.joker_suit, v.demanded,
                               v.lead_request) for v in log]
    t0 = time.perf_counter()
    ref = [rules.legal_plays(profile, v.hand, s) for v, s in zip(log, states, strict=True)]
    t_ref = time.perf_counter() - t0

    mismatches = sum(int(a) != b for a, b in zip(out, ref, strict=True))
    result = {
        "what": "legal-play sets of recorded random-deal decisions, standard profile",
        "decisions": m,
        "mismatches": mismatches,
        "kernel_decisions_per_s": m / t_kernel,
        "reference_decisions_per_s": m / t_ref,
        "ratio": t_ref / t_kernel,
    }
    print(f"{m:,} decisions; mismatches {mismatches}")
    print(f"kernel (one batch call, one thread): {m / t_kernel:,.0f} decisions/s")
    print(f"reference (pure Python):             {m / t_ref:,.0f} decisions/s")
    print(f"ratio kernel/reference, this run:    {t_ref / t_kernel:,.0f}x")
    result["floor_deals_per_s"] = floor_rate()
    print(f"floor (benchmarks/floor.py):         {result['floor_deals_per_s']:,.0f} deals/s")
    if args.out:
        save(result, args.out)
    if mismatches:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
