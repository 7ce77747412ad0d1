"""The batch kernel compiled ahead of time, so that a run does not have to load Numba.

Importing Numba and loading a kernel from its cache costs a process about a second
(``import numba`` 0.4-0.9 s on this 2-core machine, then 0.5 s of Numba registering its
typing and lowering tables at the first call), which is most of a small run.
``mighty-sim compile`` (run by ``make``) builds :func:`~mighty_sim.kernels.loop.games_nb.
play_games_nb` with ``numba.pycc`` into an extension module that needs NumPy only;
:func:`mighty_sim.engine.batch.play_batch` uses it whenever one matches the kernel sources,
the Numba, NumPy and Python versions and this CPU, and otherwise the JIT kernel, which
gives the same rows (``tests/test_aot.py`` compares them for every built-in profile).

The module lives in the Numba cache folder (``.numba_cache/<sources key>/aot``), so an
edit to a kernel source leaves it behind with the old compile cache. Set
``MIGHTY_SIM_AOT=0`` to run the JIT kernel regardless.

>>> kernel_key() == kernel_key() and len(kernel_key()) == 16
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import tempfile
import warnings
from collections.abc import Callable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from ..kernels import cache_dir, sources_key
from ..kernels import is_cached as is_cached  # re-exported: the commands ask the engine
from ..kernels import prune_stale_caches as prune_stale_caches

# play_games_nb's arguments (see its docstring): seed, game_start, n_games, ledger,
# target, policies, pp, params, deck_cards, record_tricks, and the row arrays as one tuple:
# rg, ri (column-major), ru, rf, rw, rh (flat), ti
SIGNATURE = (
    "UniTuple(i8, 3)(u8, i8, i8, i8, f8, i8[::1], f8[:, ::1], i8[::1], i8[::1], b1, "
    "Tuple((i8[::1, :], i1[::1, :], u8[::1, :], f8[::1, :], i2[::1, :], i2[::1], "
    "i1[:, ::1])))"
)
ENV_SWITCH = "MIGHTY_SIM_AOT"


def _cpu() -> str:
    """This CPU's model and instruction-set flags (the module is built for the host CPU)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            info = f.read()
    except OSError:
        return platform.processor() or platform.machine()
    wanted = ("model name", "flags")
    lines = [ln for ln in info.splitlines() if ln.split(":")[0].strip() in wanted]
    return "\n".join(sorted(set(lines)))


@cache
def kernel_key() -> str:
    """What the compiled module depends on, hashed: the kernel sources and its signature
    (a module given arrays of another layout reads them wrongly), the Numba, NumPy and
    Python versions, the platform and the CPU."""
    h = hashlib.sha256(sources_key().encode())
    h.update(SIGNATURE.encode())
    for dist in ("numba", "llvmlite", "numpy"):
        h.update(f"{dist}={metadata.version(dist)}".encode())
    h.update(sys.version.encode())
    h.update(platform.platform().encode())
    h.update(_cpu().encode())
    return h.hexdigest()[:16]


def module_name() -> str:
    """The extension module's name, which carries :func:`kernel_key`."""
    return f"_games_{kernel_key()}"


def aot_dir() -> Path:
    """Where ``mighty-sim compile`` puts the module: in Numba's compile cache folder
    (the user's, or one per version of the kernel sources)."""
    return cache_dir() / "aot"


def module_path(folder: Path | None = None) -> Path:
    """The file the module for this key has (or would have) in ``folder``."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return (folder or aot_dir()) / f"{module_name()}{suffix}"


def enabled() -> bool:
    """False when ``MIGHTY_SIM_AOT=0`` asks for the JIT kernel."""
    return os.environ.get(ENV_SWITCH, "1") != "0"


def load_file(path: Path) -> Callable[..., tuple[int, int, int]]:
    """The kernel of the compiled module at ``path``."""
    spec = importlib.util.spec_from_file_location(module_name(), path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel: Callable[..., tuple[int, int, int]] = module.play_games
    return kernel


@cache
def load() -> Callable[..., tuple[int, int, int]] | None:
    """The compiled kernel for the current sources and machine, or None when there is
    none (or ``MIGHTY_SIM_AOT=0``): the caller then uses the JIT kernel."""
    if not enabled():
        return None
    path = module_path()
    if not path.is_file():
        return None
    try:
        return load_file(path)
    except ImportError:
        return None


def build(folder: Path | None = None) -> Path:
    """Compile the kernel into ``folder`` (default :func:`aot_dir`) and return the file.

    Takes about 15 s when Numba's cache holds the kernels' helpers, a minute or more on a
    fresh checkout (the helpers are compiled, and cached for the JIT kernel on the way).
    The module is written under a temporary name and renamed, so a
    concurrent run sees either no module or a whole one; older modules are removed.
    """
    folder = folder or aot_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = module_path(folder)
    with warnings.catch_warnings():
        # pycc is "pending deprecation" with no replacement yet; the pinned 0.68 series
        # has it, and without it runs fall back to the JIT kernel
        warnings.simplefilter("ignore")
        from numba.pycc.cc import CC

        from ..kernels.loop.games_nb import play_games_nb

        with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as tmp:
            cc = CC(module_name())  # type: ignore[no-untyped-call]
            cc.output_dir = tmp
            cc.target_cpu = "host"
            cc.verbose = False
            cc.export("play_games", SIGNATURE)(  # type: ignore[no-untyped-call]
                cast(Any, play_games_nb).py_func)  # the dispatcher's Python function
            cc.compile()
            built = Path(tmp) / cc.output_file
            os.replace(built, target)
    for old in folder.glob("_games_*"):
        if old != target:
            old.unlink(missing_ok=True)
    load.cache_clear()
    return target


def kernel_ready() -> bool:
    """Whether the batch kernel starts without compiling: the compiled module is there,
    or Numba's compile cache holds the JIT kernel. Else the first run compiles it (about a
    minute on a fresh checkout; ``mighty-sim compile`` builds the module instead)."""
    if load() is not None:
        return True
    return is_cached("games_nb.play_games_nb")


def games_kernel() -> Any:
    """The batch kernel to call: the compiled module's when there is one, else the JIT
    dispatcher (which loads Numba)."""
    kernel = load()
    if kernel is not None:
        return kernel
    from ..kernels.loop.games_nb import play_games_nb

    return play_games_nb

