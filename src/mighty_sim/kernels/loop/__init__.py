"""The deal loop: a deal from the shuffle to the settlement (auction, exchange, friend
call, tricks), the games around it, and the Monte Carlo rollouts of ``odds``."""
