"""Runs into Parquet datasets, in pipeline order: the run's configuration
(:mod:`.config`), how it is cut into shards (:mod:`.shards`), the Arrow schema
(:mod:`.schema`), the shard writer (:mod:`.writer`) that both executors use (local worker
processes, :mod:`.local`; a Dask cluster, :mod:`.dask_cluster`), the run itself
(:mod:`.runner`) and the checks a dataset passes before it is read (:mod:`.integrity`).
The columns are described in ``docs/dataset.md``."""
