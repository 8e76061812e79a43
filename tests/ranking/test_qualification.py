"""Qualification to the finals with replacements, and seeded semifinal/final tables (docs/rules.md §1, §2)."""
import pytest
from django.core.exceptions import ValidationError

from audit.models import AuditEntry
from championships.models import Entry, Tournament
from championships.services import create_championship_from_preset, enter_player
from ranking.qualification import advance_qualifiers, replace_finalist, seat_seeded_stage
from ranking.standings import compute_standings
from results.publishing import publish_game
from scheduling.models import Game
from tests.factories import make_admin, make_game, make_player, make_user, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    user = make_user("boss")
    user.is_superuser = True
    user.save()
    return user


def play_game(tournament, entries, number, results, referee):
    """Seat `entries` in table order (4 a table) and enter `results` per table."""
    game = make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)], number=number,
                     stage=tournament.stages.order_by("order").first())
    for table, vps in zip(game.tables.order_by("number"), results):
        play(table, vps, referee)
    return game


@pytest.fixture
def uae():
    championship = create_championship_from_preset("uae-2022", user=make_admin())
    dubai, abu_dhabi, finals = championship.tournaments.order_by("date")
    for qualifier in (dubai, abu_dhabi):
        qualifier.advance_count = 2
        qualifier.save()
    return dubai, abu_dhabi, finals


def entered(tournament, players):
    return [enter_player(p, tournament, user=make_admin()) for p in players]


def test_top_n_advance_and_qualified_players_are_passed_over_later(uae, organizer):
    dubai, abu_dhabi, finals = uae
    players = [make_player(f"P{i}") for i in range(12)]
    dubai_entries = entered(dubai, players[:8])
    play_game(dubai, dubai_entries, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    qualified = advance_qualifiers(dubai.pk, user=organizer)
    assert [(e.player.name, e.source_rank) for e in qualified] == [("P4", 1), ("P0", 2)]  # 10/25 beats 10/28
    assert all(e.source_tournament == dubai for e in qualified)

    abu_entries = entered(abu_dhabi, [players[0], *players[8:12], players[1], players[2], players[3]])
    play_game(abu_dhabi, abu_entries, 1, [[10, 9, 6, 4], [10, 7, 5, 3]], organizer)
    later = advance_qualifiers(abu_dhabi.pk, user=organizer)
    assert players[0].name not in [e.player.name for e in later]  # already qualified in Dubai: passed over
    assert [e.player.name for e in later] == ["P11", "P8"]
    with pytest.raises(ValidationError, match="already in the finals"):
        advance_qualifiers(abu_dhabi.pk, user=organizer)


def test_withdrawn_finalist_is_replaced_by_the_next_best_of_the_same_qualifier(uae, organizer):
    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    first, second = advance_qualifiers(dubai.pk, user=organizer)
    substitute = replace_finalist(first.pk, user=organizer)
    assert substitute.player.name == "P1" and substitute.replaces == first  # 3rd in Dubai (8 VP)
    assert Entry.objects.get(pk=first.pk).status == Entry.Status.WITHDRAWN
    again = replace_finalist(substitute.pk, user=organizer)
    assert again.player.name == "P5"  # 7 VP, next down the ranking
    assert finals.entries.filter(status=Entry.Status.REGISTERED).count() == 2


def test_tie_across_the_cut_off_asks_for_a_draw(uae, organizer):
    dubai, _, finals = uae
    dubai.advance_count = 1
    dubai.save()
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 8, 6, 4]], organizer)
    with pytest.raises(ValidationError, match="tied where it matters"):
        advance_qualifiers(dubai.pk, user=organizer)
    assert not finals.entries.exists()


def test_world_championship_semifinal_chart_and_final(organizer):
    championship = create_championship_from_preset("world-championship", user=make_admin())
    world: Tournament = championship.tournaments.get()
    players = [make_player(f"S{i:02d}") for i in range(16)]
    entries = entered(world, players)
    play_game(world, entries, 1, [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]], organizer)
    order = [row["entry"] for row in compute_standings(world)]
    semifinal = world.stages.get(kind="semifinal")
    game = seat_seeded_stage(semifinal.pk, user=organizer)
    tables = [list(t.seats.order_by("position").values_list("entry_id", flat=True))
              for t in game.tables.order_by("number")]
    seed = {entry: i + 1 for i, entry in enumerate(order)}
    assert [[seed[e] for e in table] for table in tables] == [
        [1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert game.number == 5  # after the 4 preliminary games
    final = world.stages.get(kind="final")
    with pytest.raises(ValidationError, match="waits until every game is signed off"):
        seat_seeded_stage(final.pk, user=organizer)
    publish_game(game.pk, user=make_admin())
    for table in game.tables.order_by("number"):
        play(table, [8, 10, 7, 6], organizer)  # seeds 8, 7, 6, 5 win their tables
    final_game = seat_seeded_stage(final.pk, user=organizer)
    finalists = list(final_game.tables.get().seats.order_by("position").values_list("entry_id", flat=True))
    assert [seed[e] for e in finalists] == [5, 6, 7, 8]  # ordered by preliminary rank
    assert Game.objects.filter(tournament=world).count() == 3


def test_referee_records_the_play_order_chosen_at_a_seeded_table(client, organizer):
    championship = create_championship_from_preset("jordan-2022", user=make_admin())
    finals = championship.tournaments.get()
    entries = entered(finals, [make_player(f"J{i}") for i in range(8)])
    play_game(finals, entries, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    final_game = seat_seeded_stage(finals.stages.get(kind="final").pk, user=organizer)
    publish_game(final_game.pk, user=make_admin())
    table = final_game.tables.get()
    by_seed = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    chosen = [by_seed[2], by_seed[0], by_seed[3], by_seed[1]]
    client.force_login(organizer)
    url = f"/referee/{finals.slug}/tables/{table.pk}/play-order/"
    response = client.post(url, {f"position_{i}": e for i, e in enumerate([chosen[0]] * 4, 1)})
    assert response.status_code == 422 and "exactly one position" in response.content.decode()
    assert client.post(url, {f"position_{i}": e for i, e in enumerate(chosen, 1)}).status_code == 302
    assert list(table.seats.order_by("position").values_list("entry_id", flat=True)) == chosen
    assert AuditEntry.objects.filter(action="seating.play_order").count() == 1


def test_advancing_waits_for_every_game_and_skips_withdrawn_players(uae, organizer):
    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    entries = entered(dubai, players)
    play_game(dubai, entries, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    unfinished = make_game(dubai, [entries[:4], entries[4:]], number=2)
    with pytest.raises(ValidationError, match=r"still open: 2"):
        advance_qualifiers(dubai.pk, user=organizer)
    unfinished.delete()
    Entry.objects.filter(pk=entries[4].pk).update(status=Entry.Status.WITHDRAWN)  # P4 was first
    assert [e.player.name for e in advance_qualifiers(dubai.pk, user=organizer)] == ["P0", "P1"]


def test_no_replacement_once_the_finals_have_started(uae, organizer):
    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    first, _second = advance_qualifiers(dubai.pk, user=organizer)
    make_game(finals, [list(finals.entries.all())[:2] + entered(finals, [make_player("X"), make_player("Y")])])
    with pytest.raises(ValidationError, match="finals have started"):
        replace_finalist(first.pk, user=organizer)
    assert Entry.objects.get(pk=first.pk).status == Entry.Status.REGISTERED


def test_a_tie_inside_the_seeded_field_needs_a_draw(organizer):
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(16)])
    play_game(world, entries, 1, [[10, 9, 8, 7]] * 4, organizer)  # four identical tables
    with pytest.raises(ValidationError, match="tied where it matters"):
        seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)


def test_too_few_players_for_the_seed_chart_is_a_message(organizer):
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(7)])
    game = make_game(world, [entries[:4], entries[4:]], number=1, stage=world.stages.get(kind="preliminary"))
    for table, vps in zip(game.tables.order_by("number"), [[10, 9, 8, 7], [10, 8, 6]]):
        play(table, vps, organizer)
    with pytest.raises(ValidationError, match="needs a multiple of 4 players; 7 can take part"):
        seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)


def test_a_seated_semifinal_winner_cannot_be_corrected_away(organizer):
    from results.sheets import SheetInput, correct

    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(16)])
    play_game(world, entries, 1, [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]], organizer)
    semifinal = seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)
    publish_game(semifinal.pk, user=make_admin())
    for table in semifinal.tables.order_by("number"):
        play(table, [10, 8, 7, 6], organizer)
    seat_seeded_stage(world.stages.get(kind="final").pk, user=organizer)
    table = semifinal.tables.get(number=1)
    sheet = table.sheet
    seats = list(table.seats.order_by("position"))
    with pytest.raises(ValidationError, match="already seated in a later stage"):
        correct(sheet.pk, SheetInput({s.entry_id: v for s, v in zip(seats, [8, 10, 7, 6])}), user=organizer,
                reason="wrong winner", base_version=sheet.version)
    corrected = correct(sheet.pk, SheetInput({s.entry_id: v for s, v in zip(seats, [10, 9, 7, 6])}), user=organizer,
                        reason="VP only", base_version=sheet.version)
    assert corrected.version == sheet.version + 1
    assert compute_standings(world)  # still computable


def test_public_standings_mark_who_goes_on(client, uae, organizer):
    dubai, abu_dhabi, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    entries = entered(dubai, players)
    play_game(dubai, entries, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    html = client.get(f"/t/{dubai.slug}/standings/").content.decode()
    assert html.count('class=" advancing"') == 2
    advance_qualifiers(dubai.pk, user=organizer)
    abu = entered(abu_dhabi, [players[4], *[make_player(f"Q{i}") for i in range(7)]])
    play_game(abu_dhabi, abu, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    response = client.get(f"/t/{abu_dhabi.slug}/standings/")
    assert len(response.context["advancing"]) == 2
    assert abu[0].pk not in response.context["advancing"]  # P4 won here too but already qualified: passed over
    assert response.content.decode().count('class=" advancing"') == 2
