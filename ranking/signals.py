"""Cached standings and the public pages follow every change, announced by the service that made it
(`core.changes.announce`): the standings' generation token is replaced, which is also the public pages' results
version (their ETag), and the background refresh of the pages is queued (`ranking.tasks`). A change of results also
tells the championship's webhooks that the standings changed (`webhooks.events`).
"""
from django.dispatch import receiver

from core.changes import tournament_changed
from webhooks import events as webhook_events

from .live import forget_tournament_ids
from .tasks import refresh_after_change


@receiver(tournament_changed)
def _tournament_changed(sender, tournament_id: int, results: bool, **kwargs) -> None:
    if not results:  # perhaps a tournament renamed (in the admin): a slug may now name another tournament, or none
        forget_tournament_ids()
    refresh_after_change(tournament_id)
    if results:
        webhook_events.standings_changed(tournament_id)
