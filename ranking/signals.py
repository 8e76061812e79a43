"""Cached standings follow every change they depend on, whichever path made it (services or admin).

Sheets, penalties and draws announce themselves (`results_changed`); entries, players, tournaments
and stages can also change in the admin, so their saves are watched here, and a table's timed turns too (the phones
of its players show them). The token is also the
public pages' results version (their ETag), so games (published, finished) and announcements
replace it too. Each change also queues the background refresh of the public pages (`ranking.tasks`); a change of
results also tells the championship's webhooks that the standings changed (`webhooks.events`).
"""
from functools import partial

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from championships.models import Championship, Entry, Player, Stage, Tournament
from results.models import Announcement
from results.signals import results_changed
from scheduling.models import Game, Table
from webhooks import events as webhook_events

from .live import forget_tournament_ids
from .tasks import refresh_after_change


def _after_commit(tournament_ids) -> None:
    for tournament_id in set(tournament_ids):
        transaction.on_commit(partial(refresh_after_change, tournament_id), robust=True)


@receiver(results_changed)
def _results_changed(sender, tournament_id: int, **kwargs) -> None:
    refresh_after_change(tournament_id)
    webhook_events.standings_changed(tournament_id)


@receiver([post_save, post_delete], sender=Entry)
@receiver([post_save, post_delete], sender=Stage)
@receiver([post_save, post_delete], sender=Game)
@receiver([post_save, post_delete], sender=Announcement)
def _entry_or_stage_changed(sender, instance, **kwargs) -> None:
    _after_commit([instance.tournament_id])


@receiver(post_save, sender=Table)
def _timed_turns_changed(sender, instance, update_fields=None, **kwargs) -> None:
    """Timed turns imposed, changed or lifted: the phones of the players at that table show them."""
    if update_fields and {"turn_seconds", "placement_seconds"} & set(update_fields):
        _after_commit([instance.game.tournament_id])


@receiver([post_save, post_delete], sender=Tournament)
def _tournament_changed(sender, instance, **kwargs) -> None:
    forget_tournament_ids()  # a slug may now name another tournament, or none
    _after_commit([instance.pk])


@receiver(post_save, sender=Championship)
def _championship_changed(sender, instance, created, **kwargs) -> None:
    """Its name is on its tournaments' pages, its country chooses their PDFs' usual paper."""
    if not created:
        _after_commit(instance.tournaments.values_list("pk", flat=True))


@receiver(post_save, sender=Player)
def _player_changed(sender, instance, created, **kwargs) -> None:
    if not created:
        _after_commit(instance.entries.values_list("tournament_id", flat=True))
