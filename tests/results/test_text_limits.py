"""Reasons, decisions and notes are at most 2,000 characters (a drawn signature 60,000): the services refuse
longer text with a message, and the database refuses it from any other writer."""
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import AuditEntry
from results.draws import record_draw
from results.limits import SIGNATURE_IMAGE_MAX, TEXT_MAX
from results.models import CollusionRuling, Penalty, RecordSheet, SheetRevision, Signature, TiebreakDraw
from results.penalties import record_lateness, record_penalty, rule_on_collusion
from results.sheets import SheetInput, correct, save_entry, sign
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db
TOO_LONG = "x" * (TEXT_MAX + 1)
MESSAGE = "This text has 2001 characters; at most 2000 are kept"


@pytest.fixture
def cup():
    tournament = make_tournament()
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    return tournament, entries, game, make_official(tournament, "referee"), make_official(tournament, "organizer")


def test_a_penalty_reason_of_2001_characters_is_refused_with_a_message(cup):
    tournament, entries, game, referee, _organizer = cup
    with pytest.raises(ValidationError, match=MESSAGE) as caught:
        record_penalty(entries[0].pk, user=referee, kind="warning", reason=TOO_LONG, game=game)
    assert "reason" in caught.value.message_dict
    with pytest.raises(ValidationError, match=MESSAGE):
        record_lateness(entries[0].pk, 5, user=referee, reason=TOO_LONG)
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action__startswith="penalty.").exists()
    record_penalty(entries[0].pk, user=referee, kind="warning", reason="y" * TEXT_MAX, game=game)  # the most allowed


def test_a_collusion_ruling_reason_of_2001_characters_is_refused(cup):
    tournament, entries, game, referee, _organizer = cup
    for _ in range(2):
        warning = record_penalty(entries[0].pk, user=referee, kind="collusion", partner_id=entries[1].pk, game=game,
                                 reason="Traded to make the other win")
    with pytest.raises(ValidationError, match=MESSAGE):
        rule_on_collusion(warning.pk, user=referee, disqualify=False, reason=TOO_LONG)
    assert not CollusionRuling.objects.exists()


def test_a_draw_note_of_2001_characters_is_refused(cup):
    tournament, entries, _game, referee, _organizer = cup
    with pytest.raises(ValidationError, match=MESSAGE):
        record_draw(tournament, [entries[0].pk, entries[1].pk], user=referee, method="cards", note=TOO_LONG)
    assert not TiebreakDraw.objects.exists()


def test_a_signature_decision_or_image_too_long_is_refused(cup):
    _tournament, entries, game, referee, _organizer = cup
    table = game.tables.get()
    seats = list(table.seats.order_by("position"))
    sheet = save_entry(table.sheet.pk, SheetInput({s.entry_id: v for s, v in zip(seats, [10, 7, 6, 5])}),
                       user=referee, base_version=0)
    with pytest.raises(ValidationError, match=MESSAGE):
        sign(sheet.pk, seats[0].entry_id, user=referee, method="overruled", version=sheet.version, decision=TOO_LONG)
    with pytest.raises(ValidationError, match="at most 60000 are kept"):
        sign(sheet.pk, seats[0].entry_id, user=referee, method="drawn", version=sheet.version,
             image="M" * (SIGNATURE_IMAGE_MAX + 1))
    assert not Signature.objects.exists()


def test_a_correction_reason_of_2001_characters_is_refused(cup):
    _tournament, _entries, game, referee, organizer = cup
    table = game.tables.get()
    sheet = play(table, [10, 7, 6, 5], referee)
    seats = list(table.seats.order_by("position"))
    data = SheetInput({s.entry_id: v for s, v in zip(seats, [10, 8, 6, 5])})
    with pytest.raises(ValidationError, match=MESSAGE):
        correct(sheet.pk, data, user=organizer, reason=TOO_LONG, base_version=sheet.version)
    assert RecordSheet.objects.get(pk=sheet.pk).version == sheet.version
    assert not SheetRevision.objects.filter(kind="corrected").exists()


def _refused_by_the_database(write) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def test_the_database_refuses_too_long_text_from_a_bulk_write(cup):
    tournament, entries, game, referee, _organizer = cup
    sheet = play(game.tables.get(), [10, 7, 6, 5], referee)
    penalty = record_penalty(entries[0].pk, user=referee, kind="warning", reason="late to the table", game=game)
    draw = record_draw(tournament, [entries[0].pk, entries[1].pk], user=referee, method="cards")
    _refused_by_the_database(lambda: Penalty.objects.filter(pk=penalty.pk).update(reason=TOO_LONG))
    _refused_by_the_database(lambda: TiebreakDraw.objects.filter(pk=draw.pk).update(note=TOO_LONG))
    _refused_by_the_database(lambda: SheetRevision.objects.filter(sheet=sheet).update(reason=TOO_LONG))
    _refused_by_the_database(lambda: Signature.objects.filter(sheet=sheet).update(decision=TOO_LONG))
    _refused_by_the_database(lambda: Signature.objects.filter(sheet=sheet).update(
        image="M" * (SIGNATURE_IMAGE_MAX + 1)))
    _refused_by_the_database(lambda: Penalty.objects.bulk_create([Penalty(
        tournament=tournament, entry=entries[1], kind="warning", reason=TOO_LONG, recorded_by=referee)]))
    _refused_by_the_database(lambda: CollusionRuling.objects.bulk_create([CollusionRuling(
        warning=penalty, reason=TOO_LONG, decided_by=referee, decided_at=timezone.now())]))
    assert Penalty.objects.get(pk=penalty.pk).reason == "late to the table"
