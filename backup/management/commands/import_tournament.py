"""`manage.py import_tournament FILE [--as USERNAME]` (`-` for stdin): load an exported tournament, all or nothing."""
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from backup.restore import ImportProblem, read_file, restore_tournament


class Command(BaseCommand):
    help = ("Load a tournament written by export_tournament into this database, which must not have it yet. "
            "All or nothing; a bad file exits with status 2 and names the problem.")

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the JSON file, or - for stdin")
        parser.add_argument("--as", dest="acting", metavar="USERNAME",
                            help="the organizer the import is for: needed when the file's championship already "
                                 "exists here, which that user must organize")

    def handle(self, *args, file: str, acting: str | None = None, **options) -> None:
        user = None
        if acting is not None:
            user = get_user_model().objects.filter(username=acting).first()
            if user is None:
                raise CommandError(f"--as {acting}: no user “{acting}” here", returncode=2)
        try:
            if file == "-":
                data = read_file(sys.stdin)
            else:
                with open(file, encoding="utf-8") as stream:
                    data = read_file(stream)
            restored = restore_tournament(data, user=user)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=2) from None
        except ImportProblem as problem:
            raise CommandError(f"{file}: {problem}; nothing was imported", returncode=2) from None
        for note in restored.notes:
            self.stderr.write(f"note: {note}")
        self.stdout.write(f"Imported tournament “{restored.tournament.slug}” ({restored.tournament.name}).")
