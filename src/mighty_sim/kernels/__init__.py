"""Numba kernels, kept apart from the public API.

Kernels accept only NumPy arrays and Numba-compatible scalars, are ``@njit(cache=True)``
and named ``*_nb``. The public functions in :mod:`mighty_sim.oracle` validate their
arguments, compile the profile (:func:`params.compile_profile`) and call a kernel.
"""
