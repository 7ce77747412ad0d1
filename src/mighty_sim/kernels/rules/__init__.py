"""The rules as kernels: legal plays, trick winners, the weak-hand score, the settlement,
and which bids and contracts the auction allows."""
