"""Answers from play: dataset tables (:mod:`.tables`, re-exported here), house-rule
comparisons (:mod:`.compare`), reports (:mod:`.report`), one hand's odds (:mod:`.odds`),
duplicate duels (:mod:`.duel`), replays of recorded deals (:mod:`.replay`) and the
intervals they all use (:mod:`.stats`)."""

from .tables import (
    analyze_dataset,
    bid_success,
    game_results,
    redeal,
    scan_deals,
    score_variance,
    seat_lists,
    success_by_hand,
    success_by_points,
    weak_score_distribution,
)

__all__ = [
    "analyze_dataset",
    "bid_success",
    "game_results",
    "redeal",
    "scan_deals",
    "score_variance",
    "seat_lists",
    "success_by_hand",
    "success_by_points",
    "weak_score_distribution",
]
