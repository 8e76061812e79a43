from django.core.management.base import BaseCommand

from demo.seed import seed_demo


class Command(BaseCommand):
    help = "Create (or re-create) the demo championships and the demo staff logins."

    def handle(self, *args, **options):
        summary = seed_demo()
        for championship in summary.championships:
            self.stdout.write(self.style.SUCCESS(f"Demo ready: {championship.name}"))
            for tournament in championship.tournaments.order_by("date", "pk"):
                self.stdout.write(f"  {tournament.name} ({tournament.get_status_display()}): "
                                  f"{tournament.entries.count()} players")
        self.stdout.write("Sign in at /accounts/login/ with:")
        for username, password in summary.logins.items():
            self.stdout.write(f"  {username} / {password}")
