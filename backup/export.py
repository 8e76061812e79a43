"""Writing one tournament, with everything it needs of the rest of the database, as a file (format.py)."""
import json
from contextlib import contextmanager
from itertools import chain

from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from audit.models import AuditEntry
from calls.models import Call
from championships.eligibility import staff_roles
from championships.models import (
    Championship,
    Country,
    Entry,
    EntryInvitation,
    Player,
    Relationship,
    StaffRole,
    Stage,
    Tournament,
)
from notices.models import StartTimeNotice
from results.models import (
    Announcement,
    CollusionRuling,
    Objection,
    Penalty,
    RecordSheet,
    Score,
    SheetRevision,
    Signature,
    TiebreakDraw,
    TiebreakDrawPlace,
)
from scheduling.models import Game, Seat, Table

from .format import FORMAT, LINKED_TOURNAMENT_FIELDS, USER_FIELDS, VERSION, Encoder, user_references


def export_tournament(tournament: Tournament) -> dict:
    """The file's content as plain data (json.dumps with `Encoder` writes it)."""
    owned = _owned_rows(tournament)
    # the players entered, and those its audit trail names without an entry (a registration waiting, refused or
    # cancelled), so every row of the trail restores
    players = Player.objects.filter(Q(entries__tournament=tournament)
                                    | Q(pk__in=owned[AuditEntry].exclude(player=None).values("player"))
                                    ).distinct().order_by("pk")
    championship = Championship.objects.filter(tournaments=tournament)
    linked = Tournament.objects.filter(
        Q(pk__in=owned[Entry].values("source_tournament"))
        | Q(pk__in=owned[AuditEntry].filter(object_type="tournament").values("object_id"))
    ).exclude(pk=tournament.pk).order_by("pk")
    countries = Country.objects.filter(
        Q(pk__in=players.values("country")) | Q(pk__in=championship.values("country"))
    ).order_by("pk")
    user_ids = set(chain.from_iterable(
        rows.exclude(**{field: None}).values_list(field, flat=True)
        for rows in [players, *owned.values()] for field in user_references(rows.model)
    ))
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    relationships = Relationship.objects.filter(player_a__in=players, player_b__in=players).order_by("pk")
    objects = (
        _rows(users, fields=USER_FIELDS) + _rows(countries) + _rows(championship)
        + _rows(Tournament.objects.filter(pk=tournament.pk)) + _rows(linked, fields=LINKED_TOURNAMENT_FIELDS)
        + _as_typed(_rows(players), tournament) + _rows(relationships)
        + list(chain.from_iterable(_rows(queryset) for queryset in owned.values()))
    )
    return {"format": FORMAT, "version": VERSION, "tournament": tournament.slug,
            "exported_at": timezone.now(), "objects": objects}


def tournament_json(tournament: Tournament) -> str:
    """The file's text (UTF-8 when written; names stay readable), read from one snapshot of the database."""
    with _one_snapshot():
        data = export_tournament(tournament)
    return json.dumps(data, cls=Encoder, ensure_ascii=False, indent=1)


@contextmanager
def _one_snapshot():
    """Every query of the export sees the same moment, even while referees sign off (PostgreSQL's repeatable
    read; SQLite's transaction already does). Inside an open transaction, that transaction's view is used."""
    started = not connection.in_atomic_block
    with transaction.atomic():
        if started and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _as_typed(rows: list[dict], tournament: Tournament) -> list[dict]:
    """A player entered from another championship who has not confirmed yet is written as the organizers typed
    them (`permissions.personal_details`): the file gives nobody more of the record than the pages do."""
    typed = {invitation.entry.player_id: invitation for invitation in EntryInvitation.objects.filter(
        entry__tournament=tournament, confirmed_at__isnull=True).select_related("entry")}
    for row in rows:
        if (invitation := typed.get(row["pk"])) is not None:
            row["fields"].update(email=invitation.email, date_of_birth=invitation.date_of_birth)
    return rows


def _owned_rows(tournament: Tournament) -> dict:
    """The rows that belong to the tournament, by model, in loading order."""
    t = tournament
    return {
        Stage: t.stages.all(),
        Entry: t.entries.all(),
        EntryInvitation: EntryInvitation.objects.filter(entry__tournament=t),
        StaffRole: staff_roles(t),
        Game: t.games.all(),
        Table: Table.objects.filter(game__tournament=t),
        Seat: Seat.objects.filter(game__tournament=t),
        RecordSheet: RecordSheet.objects.filter(table__game__tournament=t),
        Score: Score.objects.filter(sheet__table__game__tournament=t),
        Signature: Signature.objects.filter(sheet__table__game__tournament=t),
        Objection: Objection.objects.filter(sheet__table__game__tournament=t),
        SheetRevision: SheetRevision.objects.filter(sheet__table__game__tournament=t),
        Penalty: t.penalties.all(),
        CollusionRuling: CollusionRuling.objects.filter(warning__tournament=t),
        TiebreakDraw: t.tiebreak_draws.all(),
        TiebreakDrawPlace: TiebreakDrawPlace.objects.filter(draw__tournament=t),
        Announcement: t.announcements.all(),
        Call: Call.objects.filter(tournament=t),
        StartTimeNotice: StartTimeNotice.objects.filter(entry__tournament=t),
        AuditEntry: t.audit_entries.all(),
    }


def _rows(queryset, fields=None) -> list[dict]:
    return serializers.serialize("python", queryset.order_by("pk"), fields=fields)
