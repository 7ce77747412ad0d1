"""The readable pure-Python reference engine (docs/rules.md, standard).

Pipeline: :mod:`.deal` (deal, auction, exchange, contract, friend, play, settle as one
state machine), :mod:`.rules` (the rules as plain functions), :mod:`.players` (the player
interface), :mod:`.game` (driving deals, the ledger, replay), :mod:`.records` (frozen
records and views).
"""

from .deal import Deal
from .game import Ledger, play_deal, play_ledger, replay, run_deal
from .players import Player, RandomPlayer
from .records import DealRecord, DealResult, RuleError

__all__ = [
    "Deal",
    "DealRecord",
    "DealResult",
    "Ledger",
    "Player",
    "RandomPlayer",
    "RuleError",
    "play_deal",
    "play_ledger",
    "replay",
    "run_deal",
]
