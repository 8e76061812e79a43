"""`manage.py rate`: rate every signed-off game of every running or finished tournament again, from the start.

The background update keeps the ratings in step after each sign-off or correction; this command is for a new
deployment, after a restore, or to check (`--check`: exit 1 when recomputing would change a rating).
"""
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.models import PlayerRating
from ratings.services import recompute_all


class Command(BaseCommand):
    help = "Recompute every player's rating from all signed-off games, in game order."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="Change nothing; exit with status 1 if the stored ratings differ from a recompute.")

    def handle(self, *args, check: bool = False, **options):
        before = _ratings()
        started = time.process_time()
        with transaction.atomic():
            tables = recompute_all()
            after = _ratings()
            transaction.set_rollback(check)
        changed = sum(1 for player in before.keys() | after.keys() if before.get(player) != after.get(player))
        self.stdout.write(f"Rated {tables} tables: {len(after)} players, {changed} ratings changed "
                          f"({time.process_time() - started:.1f} s of CPU).")
        if check and changed:
            raise CommandError(f"{changed} stored ratings differ from a recompute: run `manage.py rate`.",
                               returncode=1)


def _ratings() -> dict[int, tuple[float, float, int]]:
    return {player: (mu, sigma, games)
            for player, mu, sigma, games in PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")}
