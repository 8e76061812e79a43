"""Who banked at each table (hands out and takes back the resource cards), recorded on its sheet.

Seeds: 001 §7c "In all games, with the exception of the Final, the starting player will act as resource banker
… If the starting player is uncomfortable with being the banker, the table should elect another player … In the
Final, the referee will handle the card dealing"; 004 §2.0.4 "In all games, except for the Semifinal and Final,
the starting player will act as resource handler … In the Semifinal and Final, a judge will perform all resource
handler duties"; 003, General rules 6: the table or the organizer may bar a player from dealing the cards.
"""
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import Stage
from results.banker import banker_of, record_banker
from results.models import RecordSheet
from results.publishing import record_play_order
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from web.organize.activity.sentences import described

pytestmark = pytest.mark.django_db


def stage(tournament, kind, order=2):
    return Stage.objects.create(tournament=tournament, order=order, kind=kind, name=kind.capitalize(), games=1,
                                seating="seeded", players=4)


def first_table(tournament, stage_=None, number=1):
    game = make_game(tournament, [make_entries(tournament, 4)], number=number, stage=stage_)
    return game.tables.get()


def seats(table):
    return list(table.seats.order_by("position").select_related("entry__player"))


def sheet_url(table):
    return reverse("referee-sheet", args=[table.game.tournament.slug, table.pk])


def test_the_starting_player_banks_unless_the_table_elects_another(client):
    """001 §7c: the starting player banks; the table may elect another player, whom the referee records."""
    tournament = make_tournament()
    referee = make_official(tournament)
    table = first_table(tournament)
    starter, elected = seats(table)[0].entry, seats(table)[2].entry
    banker = banker_of(table.sheet)
    assert (banker.entry_id, banker.by_rule) == (starter.pk, True)
    client.force_login(referee)
    page = client.get(sheet_url(table)).content.decode()
    assert f'<option value="{starter.pk}" selected>' in page and "The starting player banks" in page
    response = client.post(reverse("referee-banker", args=[tournament.slug, table.pk]),
                           {"banker": elected.pk, "was": starter.pk})
    assert response.status_code == 302
    table.sheet.refresh_from_db()
    assert (table.sheet.banker_id, table.sheet.referee_banked) == (elected.pk, False)
    entry = AuditEntry.objects.get(action="sheet.banker")
    assert entry.before == {"banker": None} and entry.after == {"banker": elected.player.name, "entry": elected.pk}
    assert described([entry])[0].what == f"Banker recorded: {elected.player.name}"
    sheet = play(table, [10, 7, 6, 5], referee)
    assert sheet.revisions.get(kind="signed_off").data["banker"] == {"entry": elected.pk, "player": elected.player.name}
    page = client.get(sheet_url(table)).content.decode()
    assert f"Banker (resource cards): <bdi>{elected.player.name}</bdi>" in page


def test_the_referee_banks_in_the_national_final_and_the_rule_is_recorded_at_sign_off():
    """001 §7c: "In the Final, the referee will handle the card dealing" — recorded even if nobody touched it."""
    tournament = make_tournament(kind="finals")
    referee = make_official(tournament)
    table = first_table(tournament, stage(tournament, "final"), number=4)
    assert banker_of(table.sheet).referee and banker_of(table.sheet).by_rule
    sheet = play(table, [10, 7, 6, 5], referee)
    assert (sheet.referee_banked, sheet.banker_id) == (True, None)
    assert sheet.revisions.get(kind="signed_off").data["banker"] == "referee"


def test_the_ksa_finals_one_game_is_the_final_the_referee_banks():
    """001 §3 KSA: "The final will be constituted of one game" (I-6: no separate final stage) — 001 §7c's Final."""
    tournament = make_tournament(kind="finals", games=1)
    assert banker_of(first_table(tournament).sheet).referee
    qualifier = make_tournament(games=1)
    assert not banker_of(first_table(qualifier).sheet).referee


def test_a_judge_banks_in_the_world_semifinals_and_final_not_in_the_preliminaries():
    """004 §2.0.4: the starting player in the preliminary games; "In the Semifinal and Final, a judge will perform
    all resource handler duties"."""
    tournament = make_tournament(ruleset="cwc-2025", kind="world", games=4)
    preliminary = first_table(tournament)
    semifinal = first_table(tournament, stage(tournament, "semifinal"), number=5)
    final = first_table(tournament, stage(tournament, "final", order=3), number=6)
    assert banker_of(preliminary.sheet).entry_id == seats(preliminary)[0].entry_id
    assert banker_of(semifinal.sheet).referee and banker_of(final.sheet).referee


def test_lord_of_catan_the_starting_player_of_the_recorded_play_order_banks():
    """003: the starting player is decided by a 2d6 roll (every round) and General rules 6 lets the table bar a
    player from dealing; the banker follows the play order the referee records."""
    tournament = make_tournament(ruleset="lord-of-catan", kind="club", games=1)
    referee = make_official(tournament)
    table = first_table(tournament)
    order = [s.entry_id for s in seats(table)]
    record_play_order(table.pk, order[2:] + order[:2], user=referee)
    assert banker_of(RecordSheet.objects.get(table=table)).entry_id == order[2]


def test_a_banker_from_another_table_a_stale_form_or_a_signed_off_sheet_is_refused():
    """001 §7c: "the single banker for the game" is one of its players or the referee; nothing else is stored."""
    tournament = make_tournament()
    referee = make_official(tournament)
    table = first_table(tournament)
    other = make_entries(tournament, 1)[0]
    starter, second = seats(table)[0].entry, seats(table)[1].entry
    with pytest.raises(ValidationError) as stranger:
        record_banker(table.sheet.pk, other.pk, user=referee, was=str(starter.pk))
    assert stranger.value.message_dict["banker"] == [
        "The banker is the referee or one of the players at this table."]
    record_banker(table.sheet.pk, None, user=referee, was=str(starter.pk))  # the table asked the referee
    with pytest.raises(ValidationError) as stale:
        record_banker(table.sheet.pk, second.pk, user=referee, was=str(starter.pk))
    assert "changed meanwhile" in stale.value.message_dict["banker"][0]
    assert record_banker(table.sheet.pk, None, user=referee, was=str(starter.pk)).referee_banked  # a double tap
    assert AuditEntry.objects.filter(action="sheet.banker").count() == 1
    play(table, [10, 7, 6, 5], referee)
    with pytest.raises(ValidationError) as locked:
        record_banker(table.sheet.pk, second.pk, user=referee, was="referee")
    assert "signed off" in locked.value.messages[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        RecordSheet.objects.filter(pk=table.sheet.pk).update(banker=starter)  # the referee and a player at once


def test_a_restored_sheet_history_names_the_restored_banker():
    """The backup re-links ids inside a sheet snapshot: a player banker's entry follows its row."""
    from backup import payloads

    ids = {("entry", 5): 50}
    data = {"scores": [{"seat": 1, "entry": 5, "vp": 10}], "banker": {"entry": 5, "player": "Ada"}}
    assert payloads.sheet_data(data, lambda model, pk: ids.get((model, pk)))["banker"] == {"entry": 50, "player": "Ada"}
    assert payloads.sheet_data({"scores": [], "banker": "referee"}, lambda model, pk: None)["banker"] == "referee"

