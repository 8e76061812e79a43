from django.core.management.base import BaseCommand

from demo.seed import seed_demo


class Command(BaseCommand):
    help = "Create (or re-create) the demo championship and the demo staff logins."

    def handle(self, *args, **options):
        summary = seed_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo ready: {summary.championship.name}"))
        for tournament in summary.tournaments:
            self.stdout.write(f"  {tournament.name} ({tournament.get_status_display()}): "
                              f"{tournament.entries.count()} players")
        self.stdout.write("Sign in at /accounts/login/ with:")
        for username, password in summary.logins.items():
            self.stdout.write(f"  {username} / {password}")
