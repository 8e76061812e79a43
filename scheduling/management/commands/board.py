"""``manage.py board``: print (and optionally draw) one base-game CATAN board.

The interface docs/interfaces.md fixes is ``board --seed N --json``; the text view and ``--svg`` serve
an organizer preparing the board for a game, ``--code`` re-creates a board from a printed code.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engines.boards.generator import Board, board_text, decode_board, generate_board
from engines.boards.svg import board_svg


class Command(BaseCommand):
    help = (
        "Print a base-game CATAN board: from --seed N (same seed, same board), from --code CODE, "
        "or from a fresh random seed. --json prints the machine-readable form, --svg FILE draws it."
    )
    # Pure computation: no models, so skip the system checks and start fast.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument("--seed", type=int, help="board number to generate (any integer)")
        source.add_argument("--code", help="board code from an earlier run, a page or a printed sheet")
        parser.add_argument("--json", action="store_true", help="print JSON instead of the text view")
        parser.add_argument("--svg", metavar="FILE", help="also write the board as an SVG picture to FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        seed = options["seed"]
        if options["code"] is not None:
            board = self._decode(options["code"])
        else:
            if seed is None:
                seed = secrets.randbelow(1_000_000)
            board = generate_board(seed)
        if options["svg"]:
            self._write_svg(board, Path(options["svg"]))
        if options["json"]:
            self.stdout.write(json.dumps(board.to_json()))
            return
        if seed is not None:
            self.stdout.write(f"Seed {seed}")
        self.stdout.write(board_text(board), ending="")

    @staticmethod
    def _decode(code: str) -> Board:
        try:
            return decode_board(code)
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from error

    def _write_svg(self, board: Board, path: Path) -> None:
        try:
            path.write_text(board_svg(board), encoding="utf-8")
        except OSError as error:
            message = f"cannot write SVG to {path}: {error.strerror or error}"
            raise CommandError(message, returncode=2) from error
        self.stderr.write(f"SVG written to {path}")
