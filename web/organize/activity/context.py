"""What a batch of audit entries refers to (games, tables, stages, players), looked up once per type, so a page
of the activity log costs a few queries whatever its length."""
from collections import defaultdict
from typing import Any

from django.apps import apps
from django.utils.translation import gettext as _

from audit.actions import Action, Kind
from audit.models import AuditEntry
from championships.models import Entry, Player, Stage, Tournament
from results.models import RecordSheet
from scheduling.models import Game, Table

from .labels import OBJECT_LABELS
from .text import Plain, Said, game_and_table, game_at


class Context:
    """Numbers and names of the objects a batch of entries refers to, looked up once per type."""

    def __init__(self, entries: list[AuditEntry]):
        ids: dict[str, set[int]] = defaultdict(set)
        entry_ids: set[int] = set()
        player_ids: set[int] = set()
        for e in entries:
            ids[e.object_type].add(e.object_id)
            if e.action == Action.SEATING_PLAY_ORDER:
                for side in (e.before, e.after):
                    entry_ids.update(pk for pk in (side or {}).get("order", []) if isinstance(pk, int))
            if e.kind == Kind.PLAYER:
                player_ids.add(e.object_id)
            if e.kind == Kind.ADMIN:
                for side in (e.before, e.after):
                    player_id = (side or {}).get("player_id")
                    if isinstance(player_id, int):
                        player_ids.add(player_id)
        self.sheets = self._rows(RecordSheet, ids["recordsheet"], "table__game__number", "table__number")
        self.tables = self._rows(Table, ids["table"], "game__number", "number")
        self.games = self._rows(Game, ids["game"], "number")
        self.stages = self._rows(Stage, ids["stage"], "name")
        self.tournaments = self._rows(Tournament, ids["tournament"], "name")
        self.entries = self._rows(Entry, entry_ids, "player__name")
        self.players = self._rows(Player, player_ids, "name")
        self.model_names = {m._meta.model_name: m._meta.verbose_name for m in apps.get_models()}

    @staticmethod
    def _rows(model: Any, pks: set[int], *fields: str) -> dict[int, tuple[Any, ...]]:
        if not pks:
            return {}
        rows = model.objects.filter(pk__in=pks).values_list("pk", *fields)
        return {pk: tuple(values) for pk, *values in rows}

    def where(self, entry: AuditEntry) -> str:
        pk = entry.object_id
        if entry.object_type == "recordsheet" and pk in self.sheets:
            game, table = self.sheets[pk]
            return game_and_table(game, table)
        if entry.object_type == "table" and pk in self.tables:
            game, table = self.tables[pk]
            return game_and_table(game, table)
        if entry.object_type == "game" and pk in self.games:
            return game_at(self.games[pk][0])
        if entry.object_type == "stage" and pk in self.stages:
            return str(self.stages[pk][0])
        return ""

    def player_name(self, entry: AuditEntry) -> str:
        return self.players[entry.object_id][0] if entry.object_id in self.players else f"#{entry.object_id}"

    def entry_name(self, pk: int) -> str:
        return str(self.entries[pk][0]) if pk in self.entries else f"#{pk}"

    def admin_object(self, entry: AuditEntry) -> Said:
        data = entry.after or entry.before or {}
        kind = str(OBJECT_LABELS.get(entry.object_type) or self.model_names.get(entry.object_type, entry.object_type))
        name = data.get("name")
        if not name and data.get("player_id") in self.players:
            name = self.players[data["player_id"]][0]
        if name:
            return Said(_("%(type)s “%(name)s”"), type=Plain(kind), name=name)
        return Said(_("%(type)s #%(id)s"), type=Plain(kind), id=entry.object_id)
