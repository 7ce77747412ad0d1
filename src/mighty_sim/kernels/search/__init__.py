"""The double-dummy search and the par of recorded deals built on it."""
