"""Until when a disqualification is possible, by ruleset and ground (docs/rules.md I-40).

Seeds: 001 §6 (national): "A disqualification can only be made during an active game or immediately after
finishing a game", whatever the ground; 004 §1.2.4 (world): rules-related "not possible after all players
have signed the record sheet", code of conduct "at any time during the event".
"""
import pytest
from django.core.exceptions import ValidationError

from championships.models import Entry
from engines.rulesets import ANY_TIME, UNTIL_SIGNED, UNTIL_SIGNED_OFF, Ruleset, ruleset_for
from results.models import CollusionRuling, Penalty, RecordSheet
from results.penalties import record_penalty, rule_on_collusion
from results.sheets import SheetInput, save_entry, sign
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


def tournament_and_game(ruleset):
    tournament = make_tournament(ruleset=ruleset, games=2)
    game = make_game(tournament, [make_entries(tournament, 4), make_entries(tournament, 4)])
    return tournament, game


def players(table):
    return [seat.entry for seat in table.seats.order_by("position").select_related("entry__player")]


def signed_by_all(table, user):
    seats = list(table.seats.order_by("position"))
    sheet = save_entry(table.sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), [10, 7, 6, 5]))),
                       user=user, base_version=0)
    for seat in seats:
        sheet = sign(sheet.pk, seat.entry_id, user=user, method="tap", version=sheet.version)
    return sheet


def disqualify(entry, user, ground, game=None):
    return record_penalty(entry.pk, user=user, kind="disqualification", ground=ground, game=game,
                          reason="Threw the dice at an opponent")


def test_the_registry_holds_each_rulesets_disqualification_timing():
    """001 §6 gives one time for both grounds; 004 §1.2.4 one for each; 003 is silent and follows the world rules."""
    cnc, cwc, loc = (ruleset_for(key) for key in ("cnc-2022", "cwc-2025", "lord-of-catan"))
    assert (cnc.disqualification_window("rules"), cnc.disqualification_window("conduct")) == (
        UNTIL_SIGNED_OFF, UNTIL_SIGNED_OFF)
    assert (cwc.disqualification_window("rules"), cwc.disqualification_window("conduct")) == (UNTIL_SIGNED, ANY_TIME)
    assert loc.disqualification == cwc.disqualification
    with pytest.raises(ValueError, match="for each disqualification ground"):
        Ruleset("vague", "Vague", ("wins",), disqualification=(("rules", "whenever"), ("conduct", ANY_TIME)))
    with pytest.raises(ValueError, match="for each disqualification ground"):
        Ruleset("half", "Half", ("wins",), disqualification=(("rules", ANY_TIME),))


def test_a_national_disqualification_is_refused_once_the_players_sheet_is_signed_off():
    """001 §6: "only during an active game or immediately after finishing a game" — for the code of conduct too:
    a finished qualifier, every sheet signed off, disqualifies no one."""
    tournament, game = tournament_and_game("cnc-2022")
    referee = make_official(tournament)
    for table in game.tables.all():
        play(table, [10, 7, 6, 5], referee)
    player = players(game.tables.get(number=1))[1]
    for ground in ("conduct", "rules"):
        with pytest.raises(ValidationError) as refused:
            disqualify(player, referee, ground, game)
        assert refused.value.message_dict["game"] == [
            f"Table 1 of game 1 is signed off, so {player.player.name} can no longer be disqualified for it: under "
            "these rules a disqualification is made during a game or right after it, until the referee signs the "
            "table's sheet off. An organizer can still withdraw the player from the rest of the tournament."]
    with pytest.raises(ValidationError) as no_game:
        disqualify(player, referee, "conduct")
    assert no_game.value.message_dict["game"] == [
        "Under these rules a disqualification is made during a game or right after it: name the game."]
    player.refresh_from_db()
    assert player.status == Entry.Status.REGISTERED and not Penalty.objects.exists()


def test_right_after_a_national_game_lasts_until_the_referee_signs_the_sheet_off():
    """001 §6 "immediately after finishing a game": after every signature, before the sign-off (I-40)."""
    tournament, game = tournament_and_game("cnc-2022")
    referee = make_official(tournament)
    first, second = game.tables.order_by("number")
    assert signed_by_all(first, referee).status == RecordSheet.Status.SIGNED
    cheat, rude = players(first)[0], players(second)[0]
    disqualify(cheat, referee, "rules", game)
    disqualify(rude, referee, "conduct", game)  # during the game: nothing entered at table 2 yet
    assert set(Entry.objects.filter(status=Entry.Status.DISQUALIFIED)) == {cheat, rude}


def test_the_next_game_opens_a_new_window_for_a_national_disqualification():
    """001 §6 "during an active game": a player whose game 1 is signed off may be disqualified during game 2."""
    tournament, game = tournament_and_game("cnc-2022")
    referee = make_official(tournament)
    for table in game.tables.all():
        play(table, [10, 7, 6, 5], referee)
    everyone = [p for table in game.tables.order_by("number") for p in players(table)]
    second = make_game(tournament, [everyone[::2], everyone[1::2]], number=2)
    with pytest.raises(ValidationError):
        disqualify(everyone[0], referee, "conduct", game)
    disqualify(everyone[0], referee, "conduct", second)
    assert Entry.objects.get(pk=everyone[0].pk).status == Entry.Status.DISQUALIFIED


def test_a_world_conduct_disqualification_is_possible_at_any_time():
    """004 §1.2.4: "at any time during the event if a player violates the CATAN Code of Conduct"; rules-related
    "not possible after all players have signed the record sheet"."""
    tournament, game = tournament_and_game("cwc-2025")
    referee = make_official(tournament)
    for table in game.tables.all():
        play(table, [10, 7, 6, 5], referee)
    cheat, rude = players(game.tables.get(number=1))[:2]
    with pytest.raises(ValidationError) as refused:
        disqualify(cheat, referee, "rules", game)
    assert "can no longer be disqualified for breaking the game's rules" in refused.value.message_dict["ground"][0]
    disqualify(rude, referee, "conduct")  # no game named, every sheet signed off
    assert Entry.objects.get(pk=rude.pk).status == Entry.Status.DISQUALIFIED


def test_a_national_collusion_ruling_disqualifies_only_within_the_game_it_names():
    """001 §6: a repeated collusion may lead to disqualification, which "can only be made during an active game or
    immediately after finishing a game"; the decision not to disqualify is recorded at any time."""
    tournament, game = tournament_and_game("cnc-2022")
    referee = make_official(tournament)
    first, second, third = players(game.tables.get(number=1))[:3]
    record_penalty(first.pk, user=referee, kind="collusion", partner_id=second.pk, game=game, reason="Free wool")
    record_penalty(first.pk, user=referee, kind="collusion", partner_id=third.pk, game=game, reason="Free ore")
    warning = Penalty.objects.filter(entry=first, kind="collusion").latest("recorded_at")
    play(game.tables.get(number=1), [10, 7, 6, 5], referee)
    with pytest.raises(ValidationError) as refused:
        rule_on_collusion(warning.pk, user=referee, disqualify=True, reason="Twice in one game")
    assert "Table 1 of game 1 is signed off" in refused.value.messages[0]
    assert not CollusionRuling.objects.exists()
    ruling = rule_on_collusion(warning.pk, user=referee, disqualify=False, reason="Signed off before the ruling")
    assert ruling.disqualification is None and Entry.objects.get(pk=first.pk).status == Entry.Status.REGISTERED


def test_the_penalty_form_says_the_tournaments_own_timing(client):
    """The help under the ground field follows the ruleset (001 §6 for a national event, 004 §1.2.4 for the world)."""
    from django.urls import reverse

    for ruleset, said in (("cnc-2022", "until the referee signs the table"),
                          ("cwc-2025", "Code of conduct: at any time")):
        tournament, game = tournament_and_game(ruleset)
        client.force_login(make_official(tournament))
        html = client.get(reverse("referee-penalties", kwargs={"slug": tournament.slug})).content.decode()
        assert said in html
