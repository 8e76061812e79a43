"""What a tournament file holds: a header and Django's serialization of each row, in loading order.

    {"format": "catan-tournament", "version": 1, "tournament": "<slug>", "exported_at": "<ISO time>",
     "objects": [{"model": "app.model", "pk": 17, "fields": {...}}, ...]}

The objects are those of `manage.py dumpdata` (foreign keys as the referenced row's `pk`), but a
`pk` only names a row inside the file: the import gives every row a new id and re-links it by
natural keys (usernames, country codes, championship and tournament slugs, player identity).
Times keep their microseconds.
"""
import datetime
import uuid

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from attendance.models import CheckInWindow
from audit.models import AuditEntry
from calls.models import Call
from championships.models import (
    Championship,
    Country,
    Entry,
    EntryInvitation,
    Player,
    Registration,
    Relationship,
    StaffRole,
    Stage,
    Tournament,
)
from notices.models import StartTimeNotice, UndeliveredEmail
from printing.models import PrintJob
from ratings.models import RatedTable, RatingChange
from results.models import (
    Announcement,
    CollusionRuling,
    Objection,
    Penalty,
    RecordSheet,
    Score,
    SheetRevision,
    Signature,
    TabletReport,
    TiebreakDraw,
    TiebreakDrawPlace,
)
from scheduling.models import Game, PlanningJob, Seat, Table

RENAMED = {"organize.starttimenotice": "notices.starttimenotice"}
"""Labels of files written before the `organize` app was split (its models moved to apps named for what they hold),
and the label each model has now: such files load as they are."""

FORMAT = "catan-tournament"
VERSION = 1
"""Raise it when a file of the new shape would be misread by an older import (and refuse the old shape)."""

USER_FIELDS = ("username", "first_name", "last_name", "email")
"""A user is written without password hash, rights or groups: see docs/operations.md."""
LINKED_TOURNAMENT_FIELDS = ("slug",)
"""Another tournament the file refers to (where an entry qualified from) is written as its slug only."""


def models_in_loading_order() -> list:
    """Every model a file may hold, each after the models it refers to."""
    return [
        get_user_model(), Country, Championship, Tournament, Player, Relationship, Stage, Entry, EntryInvitation,
        StaffRole,
        Game, Table, Seat, RecordSheet, Score, Signature, Objection, SheetRevision, Penalty, CollusionRuling,
        TiebreakDraw, TiebreakDrawPlace, Announcement, Call, StartTimeNotice, AuditEntry,
    ]


def model_name(model: type[models.Model] | str | None) -> str:
    """The lower-case name by which files and id maps know a model: of a model class, or of a relation's model
    (`field.related_model`, a class once the apps are loaded)."""
    assert isinstance(model, type), model
    name = model._meta.model_name
    assert name is not None  # every model class has one
    return name


NOT_EXPORTED = {
    PlanningJob: "the state of a background seating search, meaningless after a restore",
    PrintJob: "a generated PDF and its progress: printed again from the restored data",
    CheckInWindow: "a self check-in QR code's few minutes: the desk opens a new one after a restore",
    Registration: "players' requests to enter, for the registration period: the entries they made are in the file, "
                  "as are the players the audit trail names",
    RatedTable: "ratings across events are computed from the signed-off sheets: `manage.py rate` after a restore",
    RatingChange: "as RatedTable",
    TabletReport: "what a referee's tablet last said waits on it (issue 28): the tablet reports again once online",
    UndeliveredEmail: "an email the site could not send, sealed with this site's key: sent again here, or not at all",
}
"""Rows of a tournament a file leaves out on purpose (tests/backup/test_backup.py checks every model is decided)."""


def user_references(model) -> list[str]:
    """The fields by which rows of `model` name a user: each user they name is in the file."""
    user_model = get_user_model()
    return [f.name for f in model._meta.concrete_fields if f.is_relation and f.related_model is user_model]


class Encoder(DjangoJSONEncoder):
    """Django's JSON encoder without its rounding of times to milliseconds: audit times stay exact."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.date | datetime.time):
            return o.isoformat()
        if isinstance(o, uuid.UUID):
            return str(o)
        return super().default(o)
