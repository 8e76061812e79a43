"""`sheet_correcting` lets ranking refuse a correction: results cannot import the ranking app (ranking depends on
results), so ranking listens instead. What changed is announced after commit through `core.changes.announce`.
"""
from django.dispatch import Signal

sheet_correcting = Signal()
"""Sent inside a correction's transaction before anything is written, with `sheet` (the signed-off one) and `table`
(the corrected result as an `engines.ranking.engine.TableResult`): a receiver refuses the correction by raising
ValidationError (ranking's check that it changes nothing already decided from the results, `ranking.corrections`)."""
