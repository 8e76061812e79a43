"""The one way a change reaches the caches: every service that changes what a tournament's public pages, standings
or seating show calls `announce` with the tournaments it changed, and nothing else invalidates them (no model save
is watched, so a bulk update or a queryset's `update()` is announced like any other write).

The apps that follow a tournament sit above the ones that change it (ranking renews the results version and
refreshes the pages, ratings recompute, webhooks tell integrators), so they receive `tournament_changed` after the
writing transaction commits. The services that announce are listed, each with a change that must move the results
version, in tests/test_announcements.py."""
from functools import partial

from django.db import transaction
from django.dispatch import Signal

tournament_changed = Signal()
"""Sent after commit with `tournament_id` and `results` (whether what counts in the standings changed: a sheet
signed off or corrected, a penalty, a draw, a restore)."""


def announce(*tournament_ids: int | None, results: bool = False) -> None:
    """The tournaments' public face changed in the current transaction: tell the apps that follow once it commits
    (at once outside a transaction). `results`: what counts in the standings changed too. None (no tournament) is
    skipped, so a caller may pass what a row belongs to."""
    for tournament_id in dict.fromkeys(tournament_ids):
        if tournament_id is not None:
            # robust: a failing receiver is logged by Django, never raised into the request that committed.
            transaction.on_commit(partial(tournament_changed.send, sender=None, tournament_id=tournament_id,
                                          results=results), robust=True)
