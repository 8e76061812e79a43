"""Confirming a result from the player's own phone (results/sheets.py): a signature with method "phone" and its
time, or an objection the referee sees on the tablet; the referee's sign-off stays the control."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from results.models import Objection, RecordSheet, Signature
from results.sheets import (
    SheetInput,
    SheetLocked,
    StaleSheet,
    confirm_on_phone,
    object_on_phone,
    save_entry,
    sign,
    sign_off,
)
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament()
    entries = make_entries(tournament, 8)
    game = make_game(tournament, [entries[:4], entries[4:]])
    referee = make_official(tournament, "referee")
    first, second = game.tables.order_by("number")
    sheet = save_entry(first.sheet.pk, SheetInput(dict(zip((e.pk for e in entries[:4]), [10, 8, 6, 4]))),
                       user=referee, base_version=0)
    return sheet, entries, referee, second


def test_each_player_confirms_from_their_phone_and_the_referee_signs_off(table):
    sheet, entries, referee, _second = table
    for entry in entries[:4]:
        sheet = confirm_on_phone(sheet.pk, player=entry.player, version=sheet.version)
    assert sheet.status == RecordSheet.Status.SIGNED
    signatures = Signature.objects.filter(sheet=sheet)
    assert {s.method for s in signatures} == {"phone"} and all(s.recorded_by is None and s.signed_at
                                                                 for s in signatures)
    logged = AuditEntry.objects.filter(action="sheet.signature.phone")
    assert logged.count() == 4 and {e.player_id for e in logged} == {e.player_id for e in entries[:4]}
    assert all(e.user is None for e in logged)
    assert sign_off(sheet.pk, user=referee, version=sheet.version).is_locked
    with pytest.raises(SheetLocked):
        object_on_phone(sheet.pk, player=entries[0].player, version=sheet.version)


def test_a_phone_and_a_tablet_signature_mix_and_confirming_twice_is_one(table):
    sheet, entries, referee, _second = table
    sign(sheet.pk, entries[0].pk, user=referee, method="tap", version=sheet.version)
    confirm_on_phone(sheet.pk, player=entries[0].player, version=sheet.version)  # already signed on the tablet
    confirm_on_phone(sheet.pk, player=entries[1].player, version=sheet.version)
    confirm_on_phone(sheet.pk, player=entries[1].player, version=sheet.version)
    assert sorted(Signature.objects.values_list("method", flat=True)) == ["phone", "tap"]


def test_nobody_answers_for_another_table_or_an_old_version(table):
    sheet, entries, referee, second = table
    with pytest.raises(PermissionDenied):
        confirm_on_phone(sheet.pk, player=entries[5].player, version=sheet.version)
    with pytest.raises(PermissionDenied):
        object_on_phone(sheet.pk, player=entries[5].player, version=sheet.version, note="I saw it")
    with pytest.raises(StaleSheet):
        confirm_on_phone(sheet.pk, player=entries[0].player, version=sheet.version - 1)
    with pytest.raises(ValidationError, match="No result"):  # the other table has no result yet
        confirm_on_phone(second.sheet.pk, player=entries[5].player, version=0)
    assert not Signature.objects.exists()


def test_an_objection_reaches_the_referee_and_a_new_version_is_signed_afresh(table, client):
    sheet, entries, referee, _second = table
    objection = object_on_phone(sheet.pk, player=entries[2].player, version=sheet.version, note="I had 7, not 6")
    assert object_on_phone(sheet.pk, player=entries[2].player, version=sheet.version) == objection  # said once
    assert AuditEntry.objects.get(action="sheet.objection").after["note"] == "I had 7, not 6"
    with pytest.raises(ValidationError):
        object_on_phone(sheet.pk, player=entries[2].player, version=sheet.version, note="x" * 501)
    client.force_login(referee)
    page = client.get(f"/referee/{sheet.table.game.tournament.slug}/tables/{sheet.table_id}/").content.decode()
    assert "say the entered result is wrong" in page and "I had 7, not 6" in page
    desk = client.get(f"/referee/{sheet.table.game.tournament.slug}/").content.decode()
    assert "1 player says the result is wrong" in desk

    corrected = save_entry(sheet.pk, SheetInput(dict(zip((e.pk for e in entries[:4]), [10, 8, 7, 4]))),
                           user=referee, base_version=sheet.version)
    page = client.get(f"/referee/{sheet.table.game.tournament.slug}/tables/{sheet.table_id}/").content.decode()
    assert "I had 7, not 6" not in page  # about the version before
    confirm_on_phone(corrected.pk, player=entries[2].player, version=corrected.version)
    assert Objection.objects.count() == 1


def test_once_a_player_confirmed_or_everyone_signed_no_objection(table):
    sheet, entries, referee, _second = table
    confirm_on_phone(sheet.pk, player=entries[0].player, version=sheet.version)
    with pytest.raises(ValidationError, match="confirmed"):
        object_on_phone(sheet.pk, player=entries[0].player, version=sheet.version)
    for entry in entries[1:4]:
        sheet = sign(sheet.pk, entry.pk, user=referee, method="tap", version=sheet.version)
    with pytest.raises(SheetLocked):
        object_on_phone(sheet.pk, player=entries[1].player, version=sheet.version)
