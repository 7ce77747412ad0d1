"""The players as kernels: the random and heuristic policies, and PIMC."""
