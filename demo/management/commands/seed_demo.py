from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.seed import OPEN_TOURNAMENT, seed_demo


class Command(BaseCommand):
    help = ("Create the demo championships and the demo staff logins once; a run when they exist changes nothing. "
            "Refuses with DEBUG off unless --force.")

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true",
                            help="Run with DEBUG off too (the demo logins' passwords are published).")

    def handle(self, *args, force: bool = False, **options):
        # The logins' passwords are in the README: a production site must not get them by accident.
        if not settings.DEBUG and not force:
            raise CommandError("seed_demo: DEBUG is off, so this looks like a real site, and the demo creates staff "
                               "logins whose passwords are published (organizer / organizer-demo). Run it with "
                               "DEBUG=1, or add --force to create the demo here anyway.")
        summary = seed_demo()
        if not summary.created:
            self.stdout.write("The demo is already there: nothing changed.")
        for championship in summary.championships:
            made = championship in summary.created
            self.stdout.write(self.style.SUCCESS(f"Demo ready: {championship.name}") if made
                              else f"Demo: {championship.name}")
            for tournament in championship.tournaments.all():
                self.stdout.write(f"  {tournament.name} ({tournament.get_status_display()}): "
                                  f"{tournament.entries.count()} players")
        self.stdout.write(f"Players register themselves at /t/{OPEN_TOURNAMENT}/register/ (README: the players' side).")
        self.stdout.write("Sign in at /accounts/login/ with:")
        for username, password in summary.logins.items():
            self.stdout.write(f"  {username} / {password}" if password
                              else f"  {username} (an account that existed already: its password is unchanged)")
