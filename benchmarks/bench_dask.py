"""A 2-worker local Dask cluster against the local process pool, measured in one run.

What it counts: played deals per second of wall time of ``mighty-sim simulate`` with
``--executor dask`` (a local cluster started by the command) and with the default local
process pool, both with 2 workers, same seed; the rows of the two runs are checked equal
first. Start-up (cluster, worker imports, kernel cache loads) is included.

    .venv/bin/python benchmarks/bench_dask.py [--deals 1000000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl
from _results import print_figures, save


def _run(deals: int, out: Path, executor: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mighty_sim", "simulate", "--deals", str(deals),
                    "--seed", "1", "--workers", "2", "--executor", executor, "--shard-games",
                    str(max(1, deals // 8)), "--out", str(out)], check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/dask.json"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        local = _run(args.deals, root / "local", "local")
        dask = _run(args.deals, root / "dask", "dask")
        a = pl.scan_parquet(root / "local" / "deals" / "**" / "*.parquet").collect()
        b = pl.scan_parquet(root / "dask" / "deals" / "**" / "*.parquet").collect()
        assert a.sort("deal_id").equals(b.sort("deal_id")), "dask and local rows differ"
    result = {"deals": args.deals, "local_2w_deals_per_s": args.deals / local,
              "dask_2w_deals_per_s": args.deals / dask, "ratio_dask_vs_local": local / dask}
    print_figures(result)
    save(result, args.out)


if __name__ == "__main__":
    main()
