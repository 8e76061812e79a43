"""The ratings follow the results: sign-offs and corrections (announced with `results`, `core.changes`), and a
tournament's status, date or existence (its games count only while it runs or is finished, in date order). A
player's name, country or listing changes what the ratings pages show, so it replaces the ratings version."""
from functools import partial

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from championships.models import Player, Tournament
from core.changes import tournament_changed
from scheduling.models import Game

from .tasks import changed
from .version import new_ratings_version


@receiver(tournament_changed)
def _results_changed(sender, tournament_id: int, results: bool, **kwargs) -> None:
    if results:
        changed(tournament_id)


@receiver([post_save, post_delete], sender=Tournament)
def _tournament_changed(sender, instance, created=False, **kwargs) -> None:
    if not created:
        transaction.on_commit(partial(changed, instance.pk), robust=True)


@receiver(post_delete, sender=Game)
def _game_deleted(sender, instance, **kwargs) -> None:
    transaction.on_commit(partial(changed, instance.tournament_id), robust=True)


@receiver([post_save, post_delete], sender=Player)
def _player_changed(sender, instance, created=False, **kwargs) -> None:
    if not created:
        transaction.on_commit(new_ratings_version, robust=True)
