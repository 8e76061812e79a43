"""`results_changed` fires after a transaction that changed what counts in a tournament's standings.

Results cannot import the ranking app (ranking depends on results), so ranking listens instead.
"""
from django.db import transaction
from django.dispatch import Signal

results_changed = Signal()
"""Sent with `tournament_id` after commit: a sheet signed off or corrected, a penalty, a draw."""

sheet_correcting = Signal()
"""Sent inside a correction's transaction before anything is written, with `sheet` (the signed-off one) and `table`
(the corrected result as an `engines.ranking.engine.TableResult`): a receiver refuses the correction by raising
ValidationError (ranking's check that it changes nothing already decided from the results, `ranking.corrections`)."""


def announce_after_commit(tournament_id: int) -> None:
    # robust: a failing receiver is logged by Django, never raised into the request that committed.
    transaction.on_commit(lambda: results_changed.send(sender=None, tournament_id=tournament_id), robust=True)
