"""The fast engine's public face: players (:mod:`.players`), whole deals in batches
(:mod:`.batch`), the rules oracle (:mod:`.oracle`) and the ahead-of-time compiled batch
kernel (:mod:`.aot`). These validate, allocate and call :mod:`mighty_sim.kernels` once
per batch; nothing here imports the reference engine."""
