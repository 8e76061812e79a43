"""The former `organize` app's five models now live in the apps named for what they hold (attendance, printing,
notices, championships). A database of the release before keeps its rows: the migrations that create the models in
their new apps adopt the `organize_*` tables (core.adopted_tables), and going back gives the tables their old names.
"""
from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.utils import timezone

from attendance.models import CheckInWindow
from championships.models import ApiToken
from notices.models import StartTimeNotice, UndeliveredEmail
from printing.models import PrintJob
from tests.factories import make_entries, make_game, make_tournament, make_user
from tests.test_migrations import latest_leaves, migrate, raw_rows

MOVED = {  # model: its table in the release before
    CheckInWindow: "organize_checkinwindow", PrintJob: "organize_printjob", StartTimeNotice: "organize_starttimenotice",
    UndeliveredEmail: "organize_undeliveredemail", ApiToken: "organize_apitoken",
}
BEFORE_THE_MOVE = [("attendance", None), ("printing", None), ("notices", None),
                   ("championships", "0018_tournament_embed_origins")]


def one_row_each() -> None:
    tournament = make_tournament()
    user = make_user()
    entries = make_entries(tournament, 4)
    entry = entries[0]
    now = timezone.now()
    CheckInWindow.objects.create(tournament=tournament, code="c0de", opened_by=user, closes_at=now + timedelta(hours=1))
    PrintJob.objects.create(game=make_game(tournament, [entries]), kind=PrintJob.Kind.TABLE_CARDS,
                            requested_by=user, pdf=b"%PDF-1.7")
    StartTimeNotice.objects.create(entry=entry, email="ana@example.org", start=now)
    UndeliveredEmail.objects.create(tournament=tournament, to="ana@example.org", subject="Your table", reason="refused",
                                    failed_at=now)
    ApiToken.objects.create(user=user, championship=tournament.championship, name="Federation site",
                            digest="d" * 64, hint="catan_ab")
    for model in MOVED:  # the content types the admin's history and the permissions hang on
        ContentType.objects.get_for_model(model)


def tables() -> set[str]:
    return set(connection.introspection.table_names())


@pytest.mark.django_db(transaction=True)
def test_the_organize_tables_are_adopted_with_their_rows_and_content_types():
    one_row_each()
    rows = {model: raw_rows(model._meta.db_table) for model in MOVED}
    content_types = {model: ContentType.objects.get_for_model(model).pk for model in MOVED}
    leaves = latest_leaves()

    migrate(BEFORE_THE_MOVE)
    assert set(MOVED.values()) <= tables()
    assert not {model._meta.db_table for model in MOVED} & tables()
    assert {model: raw_rows(old) for model, old in MOVED.items()} == rows
    # as the release before left them: their content types named after `organize`
    ContentType.objects.filter(pk__in=content_types.values()).update(app_label="organize")

    migrate(leaves)
    assert not set(MOVED.values()) & tables()
    assert {model: raw_rows(model._meta.db_table) for model in MOVED} == rows
    assert {model: ContentType.objects.get_for_model(model).pk for model in MOVED} == content_types
    token = ApiToken.objects.get()
    ApiToken.objects.create(user=token.user, championship=token.championship, name="Second", digest="e" * 64,
                            hint="catan_cd")  # the id sequence came along with the table
    assert ApiToken.objects.count() == 2
