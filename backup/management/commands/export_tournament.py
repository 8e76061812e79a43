"""`manage.py export_tournament SLUG > file.json`: one tournament, complete, as JSON (docs/operations.md)."""
from django.core.management.base import BaseCommand, CommandError

from backup.export import tournament_json
from championships.models import Tournament


class Command(BaseCommand):
    help = ("Write one tournament (its championship, players, entries, staff, games, seats, record sheets with "
            "their history, penalties, draws and audit trail) as JSON to stdout or --out FILE.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")

    def handle(self, *args, slug: str, out: str | None, **options) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament “{slug}”", returncode=2)
        text = tournament_json(tournament)
        if out:
            with open(out, "w", encoding="utf-8") as stream:
                stream.write(text + "\n")
        else:
            self.stdout.write(text)
