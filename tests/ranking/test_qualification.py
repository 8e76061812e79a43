"""Qualification to the finals with replacements, and seeded semifinal/final tables (docs/rules.md §1, §2)."""
from datetime import time

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from championships.models import Entry, Tournament
from championships.services import create_championship_from_preset, enter_player
from engines.rulesets import ruleset_for
from ranking.qualification import advance_qualifiers, replace_finalist, seat_seeded_stage
from ranking.standings import compute_standings
from results.publishing import publish_game, record_play_order
from scheduling.models import Game
from scheduling.services import swap_seats
from tests.factories import make_admin, make_game, make_official, make_player, make_user, play

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
    make_official(world)  # a referee, or no game is published (seed 001 §5)
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
    make_official(finals)
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
    make_official(world)
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
    with pytest.raises(ValidationError, match="Final was seated by rank from these results"):
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
    assert html.count(" advancing") == 2 and html.count(" advancing cutoff") == 1  # the line under the 2nd
    advance_qualifiers(dubai.pk, user=organizer)
    abu = entered(abu_dhabi, [players[4], *[make_player(f"Q{i}") for i in range(7)]])
    play_game(abu_dhabi, abu, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    response = client.get(f"/t/{abu_dhabi.slug}/standings/")
    advancing = {s.row["entry"] for s in response.context["standings"].rows if s.advancing}
    assert len(advancing) == 2
    assert abu[0].pk not in advancing  # P4 won here too but already qualified: passed over
    assert response.content.decode().count(" advancing") == 2


# --- Seeded final tables: order of choice, seeds in the API (issue 10) -------------------------------

def seed_numbers(game, seed):
    """Each table's players in play order, as their preliminary seed."""
    return [[seed[e] for e in t.seats.order_by("position").values_list("entry_id", flat=True)]
            for t in game.tables.order_by("number")]


def test_the_world_final_lists_the_semifinal_winners_by_preliminary_rank_even_when_the_semifinals_reverse_it(
        client, organizer):
    """Seed 004 §1.1.6: the finalists choose chair, colour and play order "in order of their Preliminary
    rank" — not in the order of a ranking that counts the semifinal games."""
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    make_official(world)
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(16)])
    play_game(world, entries, 1, [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]], organizer)
    seed = {row["entry"]: i for i, row in enumerate(compute_standings(world), start=1)}
    semifinal = seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)
    assert [table[0] for table in seed_numbers(semifinal, seed)] == [1, 2, 3, 4]
    publish_game(semifinal.pk, user=make_admin())
    # Seeds 1-4 (P1..P4) win; the semifinal table totals reverse their order: P1 at the richest table.
    for table, vps in zip(semifinal.tables.order_by("number"),
                          [[10, 9, 9, 9], [10, 8, 8, 8], [10, 5, 5, 5], [10, 2, 2, 2]]):
        play(table, vps, organizer)
    overall = [seed[row["entry"]] for row in compute_standings(world)[:4]]
    assert overall == [4, 3, 2, 1]  # with the semifinal games, P4 leads
    final = seat_seeded_stage(world.stages.get(kind="final").pk, user=organizer)
    assert seed_numbers(final, seed) == [[1, 2, 3, 4]]  # P1 chooses first
    publish_game(final.pk, user=make_admin())
    seating = client.get(f"/api/tournaments/{world.slug}/games/{final.number}/seating/").json()
    assert [(s["position"], seed[s["entry"]], s["seed"]) for s in seating["tables"][0]["seats"]] == [
        (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)]


def test_a_preliminary_drawing_of_lots_carries_forward_to_the_final(organizer):
    """Seed 004 §1.1.6: "Any ranking determined by the drawing of lots carries forward" — the lots drawn
    to seed the semifinals still order the finalists, whatever the semifinal games did."""
    from results.draws import record_draw

    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    referee = make_official(world)
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(16)])
    play_game(world, entries, 1, [[10, 9, 8, 7]] * 4, organizer)  # four identical tables: four 4-way ties
    tables = [entries[i:i + 4] for i in range(0, 16, 4)]
    for place in range(4):  # lots: the player of the last table first
        record_draw(world, [t[place].pk for t in reversed(tables)], user=referee, method="lots")
    winners = [t[0].pk for t in reversed(tables)]  # seeds 1-4 by the lots
    semifinal = seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)
    assert [t.seats.get(position=1).entry_id for t in semifinal.tables.order_by("number")] == winners
    publish_game(semifinal.pk, user=make_admin())
    for table, vps in zip(semifinal.tables.order_by("number"),
                          [[10, 9, 9, 9], [10, 8, 8, 8], [10, 5, 5, 5], [10, 2, 2, 2]]):
        play(table, vps, organizer)
    assert [row["entry"] for row in compute_standings(world)[:4]] == winners[::-1]
    final = seat_seeded_stage(world.stages.get(kind="final").pk, user=organizer)
    assert list(final.tables.get().seats.order_by("position").values_list("entry_id", flat=True)) == winners


def lord_of_catan_semifinal(organizer, minutes=(60, 61, 62, 63)):
    """A Lord of Catan club event after its ranking round (16 players, 4 tables of 10, 9, 8, 7 VP, one table
    faster than the next), seated for the semifinal by the seed chart; the seeds by ranking-round rank."""
    club = create_championship_from_preset("lord-of-catan", user=make_admin()).tournaments.get()
    make_official(club)
    entries = entered(club, [make_player(f"L{i:02d}") for i in range(16)])
    ranking_round = make_game(club, [entries[i:i + 4] for i in range(0, 16, 4)], number=1,
                              stage=club.stages.get(kind="preliminary"))
    for length, table in zip(minutes, ranking_round.tables.order_by("number")):
        play(table, [10, 9, 8, 7], organizer, time(10, 0), time(10 + length // 60, length % 60))
    seed = {row["entry"]: i for i, row in enumerate(compute_standings(club), start=1)}
    return club, seed, seat_seeded_stage(club.stages.get(kind="semifinal").pk, user=organizer)


def test_the_lord_of_catan_final_has_no_order_of_choice_the_table_reports_its_play_order(client, organizer):
    """Seed 003, final round: "the colours and places are set by the players and the starting player by a roll of
    two six-sided dice", as in its other rounds: nobody chooses first, so the final stores no seeds, the seating
    API gives none and the organizer is told to record the play order the table reports (issue 21 item 5)."""
    club, seed, semifinal = lord_of_catan_semifinal(organizer)
    assert seed_numbers(semifinal, seed) == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    publish_game(semifinal.pk, user=make_admin())
    # The 4th seeds win; the semifinal sheets record the play order the tables reported first.
    for table, vps in zip(semifinal.tables.order_by("number"),
                          [[8, 10, 7, 6], [9, 10, 8, 8], [5, 10, 5, 5], [2, 10, 2, 2]]):
        play(table, vps, organizer, time(14, 0), time(15, 10))
    final_stage = club.stages.get(kind="final")
    final = seat_seeded_stage(final_stage.pk, user=organizer)
    assert seed_numbers(final, seed) == [[8, 7, 6, 5]]  # the semifinal winners by table, not by rank
    assert not final.seats.exclude(seed=None).exists() and not semifinal.seats.exclude(seed=None).exists()
    publish_game(final.pk, user=make_admin())
    seating = client.get(f"/api/tournaments/{club.slug}/games/{final.number}/seating/").json()
    assert all("seed" not in s for s in seating["tables"][0]["seats"])
    table = final.tables.get()
    reported = list(reversed(table.seats.order_by("position").values_list("entry_id", flat=True)))
    record_play_order(table.pk, reported, user=organizer)  # the dice gave seat 4 the start
    assert list(table.seats.order_by("position").values_list("entry_id", flat=True)) == reported
    client.force_login(organizer)
    page = client.get(f"/organize/{club.slug}/stages/{final_stage.pk}/").content.decode()
    assert "a roll of two dice decides who starts" in page and "Seats are listed by seed" not in page
    sheet = client.get(f"/referee/{club.slug}/tables/{table.pk}/").content.decode()
    assert "a roll of two dice decides who starts" in sheet and "in order of rank" not in sheet


def test_a_lord_of_catan_tie_inside_one_semifinal_table_does_not_hold_the_seating(organizer):
    """Seed 003: semifinal tables come from the ranking round ("by weighted score"), but the players settle seats
    themselves: a tie between seeds 12 and 13, who both sit at table 4, changes nothing (issue 20 item 5)."""
    # Rest-of-field tempo: 7 VP x 34 / 70 min = 8 VP x 34 / 80 min = 3.4, the 12th and 13th best.
    club, seed, semifinal = lord_of_catan_semifinal(organizer, minutes=(60, 70, 80, 90))
    ranks = sorted(row["rank"] for row in compute_standings(club) if row["tied"])
    assert ranks == [12, 12]
    assert seed_numbers(semifinal, seed)[3] == [4, 5, 12, 13]


def test_a_lord_of_catan_tie_between_two_semifinal_tables_waits_for_a_draw(organizer):
    """Seed 003 and I-21: a tie between the table winners of equally fast tables decides who sits at which
    semifinal table, so the seating waits for the drawing of lots (issue 20 item 5)."""
    with pytest.raises(ValidationError, match="tied where it matters: record the card draw first. "
                                              r"\(decides who sits at which table of Semifinals\)"):
        lord_of_catan_semifinal(organizer, minutes=(60, 60, 75, 90))


def test_the_national_final_table_is_the_top_4_in_rank_order_without_seeds(client, organizer):
    """Seed 001 §3 (Jordan): "After 3 games … the top 4 players will play a final game": the final table
    is simply the top 4 of the finals' games in rank order. 001 gives them no order of choice, so the seats keep no
    seed ("1 chooses first" is the world rules', 004 §1.1.5; issue 32 item 8f)."""
    finals = create_championship_from_preset("jordan-2022", user=make_admin()).tournaments.get()
    make_official(finals)
    entries = entered(finals, [make_player(f"J{i}") for i in range(8)])
    play_game(finals, entries, 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    top4 = [row["entry"] for row in compute_standings(finals)[:4]]
    final = seat_seeded_stage(finals.stages.get(kind="final").pk, user=organizer)
    assert list(final.tables.get().seats.order_by("position").values_list("entry_id", flat=True)) == top4
    publish_game(final.pk, user=make_admin())
    seats = client.get(f"/api/tournaments/{finals.slug}/games/{final.number}/seating/").json()["tables"][0]["seats"]
    assert [s["entry"] for s in seats] == top4 and all("seed" not in s for s in seats)
    client.force_login(organizer)
    page = client.get(f"/organize/{finals.slug}/stages/{final.stage_id}/").content.decode()
    assert "choose chair, colour and play order among themselves" in page and "listed by seed" not in page


def test_seeds_in_the_api_stay_with_the_players_when_the_play_order_is_recorded(client, organizer):
    """Seed 004 §1.1.5: at a semifinal table the best-ranked player chooses chair, colour and play order
    first, then the next; the API gives each seat that `seed` (1 = chooses first), still right after the
    referee records the play order they chose (docs/interfaces.md)."""
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    referee = make_official(world)
    entries = entered(world, [make_player(f"S{i:02d}") for i in range(16)])
    play_game(world, entries, 1, [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]], organizer)
    scheduled = client.get(f"/api/tournaments/{world.slug}/games/1/seating/").json()
    assert all("seed" not in s for t in scheduled["tables"] for s in t["seats"])  # scheduled: no seeds
    seed = {row["entry"]: i for i, row in enumerate(compute_standings(world), start=1)}
    by_seed = {n: entry for entry, n in seed.items()}
    semifinal = seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=organizer)
    # A hand swap of seeds 1 and 8 at table 1: each keeps their seed, so seed 1 still chooses first.
    swap_seats(semifinal.pk, by_seed[1], by_seed[8], user=organizer)
    publish_game(semifinal.pk, user=make_admin())
    url = f"/api/tournaments/{world.slug}/games/{semifinal.number}/seating/"

    def seats(number):
        table = next(t for t in client.get(url).json()["tables"] if t["number"] == number)
        return [(seed[s["entry"]], s["seed"]) for s in table["seats"]]

    assert seats(1) == [(8, 2), (1, 1), (9, 3), (16, 4)]
    assert seats(2) == [(2, 1), (7, 2), (10, 3), (15, 4)]  # table seeds 1-4 from the stage's 2, 7, 10, 15
    table = semifinal.tables.get(number=2)
    record_play_order(table.pk, [by_seed[15], by_seed[2], by_seed[10], by_seed[7]], user=referee)
    assert seats(2) == [(15, 4), (2, 1), (10, 3), (7, 2)]


# --- Seat by rank waits for the ties that change a seed or a table (issue 20 item 5) ----------------------

def test_a_tie_between_national_finalists_does_not_hold_the_final_table(client, organizer):
    """Seed 001 §3 (Jordan): "the top 4 players will play a final game", and nothing more: 001 gives the seeds no
    choice at the final table (the world rules' order of choice is 004 §1.1.5–§1.1.6). The final waited for card
    draws between J0/J4 (rank 1) and J1/J5 (rank 3) that no rule asks for (issue 32 item 8f); a tie matters there
    only across the cut-off (001 §4, the next test). `Ruleset.seeds_choose` says which rules have the choice."""
    assert [ruleset_for(key).seeds_choose for key in ("cnc-2022", "cwc-2025", "lord-of-catan")] == [
        False, True, False]
    finals = create_championship_from_preset("jordan-2022", user=make_admin()).tournaments.get()
    referee = make_official(finals)
    entries = entered(finals, [make_player(f"J{i}") for i in range(8)])
    play_game(finals, entries, 1, [[10, 8, 6, 4], [10, 8, 6, 4]], organizer)  # J0/J4 share rank 1, J1/J5 rank 3
    client.force_login(referee)
    page = client.get(f"/referee/{finals.slug}/draws/").content.decode()
    assert page.count('<section class="panel tie') == 4 and "decides seed" not in page
    final = seat_seeded_stage(finals.stages.get(kind="final").pk, user=organizer)
    assert set(final.tables.get().seats.values_list("entry_id", flat=True)) == {
        entries[0].pk, entries[4].pk, entries[1].pk, entries[5].pk}


def test_a_tie_straddling_the_final_tables_cut_off_is_marked_and_holds_the_seating(client, organizer):
    """Seed 001 §3: the top 4 play the final game; a tie over places 4 and 5 decides who plays it."""
    from results.draws import record_draw

    finals = create_championship_from_preset("jordan-2022", user=make_admin()).tournaments.get()
    referee = make_official(finals)
    entries = entered(finals, [make_player(f"J{i}") for i in range(12)])
    play_game(finals, entries, 1, [[10, 9, 5, 4], [10, 9, 6, 3], [10, 7, 7, 6]], organizer)  # J1/J5 share rank 4
    record_draw(finals, [entries[0].pk, entries[4].pk], user=referee, method="cards")  # J0/J4 shared rank 1
    with pytest.raises(ValidationError, match=r"J1, J5 are tied where it matters.*\(straddles the cut-off: "
                                              r"the top 4 play Final game\)"):
        seat_seeded_stage(finals.stages.get(kind="final").pk, user=organizer)
    client.force_login(referee)
    page = client.get(f"/referee/{finals.slug}/draws/").content.decode()
    assert page.count("straddles the cut-off: the top 4 play Final game") == 1


# --- Finals capacity (issue 10) -------------------------------------------------------------------------

def test_the_finals_take_no_more_qualifiers_than_their_places(client, uae, organizer):
    """Seed 001 §3 (UAE): "The 16 qualified players will participate in the UAE Championship Finals": the
    finals' places (16, 24 or 4) are a limit, and the qualification page shows how many are left."""
    dubai, abu_dhabi, finals = uae
    assert finals.capacity == 16  # from the preset
    finals.capacity = 3
    finals.save()
    players = [make_player(f"P{i}") for i in range(16)]
    play_game(dubai, entered(dubai, players[:8]), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    assert len(advance_qualifiers(dubai.pk, user=organizer)) == 2
    client.force_login(organizer)
    page = client.get(f"/organize/{abu_dhabi.slug}/qualification/").content.decode()
    assert f"Places left in {finals.name}: 1 of 3." in page
    play_game(abu_dhabi, entered(abu_dhabi, players[8:]), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    with pytest.raises(ValidationError, match=f"{finals.name} has 1 of its 3 places left: not enough for the 2 "
                                              f"players of {abu_dhabi.name}. Nobody was entered."):
        advance_qualifiers(abu_dhabi.pk, user=organizer)
    response = client.post(f"/organize/{abu_dhabi.slug}/qualification/advance/", follow=True)
    assert "1 of its 3 places left" in response.content.decode()
    assert finals.entries.count() == 2
    finals.capacity = 4
    finals.save()
    assert [e.player.name for e in advance_qualifiers(abu_dhabi.pk, user=organizer)] == ["P12", "P8"]
    page = client.get(f"/organize/{finals.slug}/qualification/").content.decode()
    assert f"Places left in {finals.name}: 0 of 4." in page


def test_a_replacement_takes_the_withdrawn_finalists_place_but_never_goes_beyond_the_places(uae, organizer):
    """Seed 001 §3: "In case a player is unable to attend, the next best-ranked player from the same Qualifier
    will qualify in their place" — in full finals that place is free again; beyond the places it is not."""
    dubai, _, finals = uae
    finals.capacity = 2
    finals.save()
    play_game(dubai, entered(dubai, [make_player(f"P{i}") for i in range(8)]), 1,
              [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    first, second = advance_qualifiers(dubai.pk, user=organizer)
    substitute = replace_finalist(first.pk, user=organizer)  # full finals: the withdrawn place is taken over
    assert substitute.player.name == "P1"
    assert finals.entries.filter(status__in=["registered", "checked_in"]).count() == 2
    finals.capacity = 1  # the organizer reduced the places meanwhile
    finals.save()
    with pytest.raises(ValidationError, match=f"{finals.name} has no place left: nobody can take P0's place."):
        replace_finalist(second.pk, user=organizer)
    assert Entry.objects.get(pk=second.pk).status == Entry.Status.REGISTERED  # nothing changed


def test_an_organizer_of_the_qualifier_alone_cannot_write_into_the_finals(uae, organizer):
    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    local = make_official(dubai, role="organizer")
    with pytest.raises(PermissionDenied):
        advance_qualifiers(dubai.pk, user=local)
    assert not finals.entries.exists()
    assert not AuditEntry.objects.filter(action="qualification.advanced").exists()


def test_an_organizer_of_the_finals_alone_cannot_draw_a_replacement_from_a_qualifier(uae, organizer):
    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    first, _second = advance_qualifiers(dubai.pk, user=organizer)
    finals_only = make_official(finals, role="organizer")
    with pytest.raises(PermissionDenied):
        replace_finalist(first.pk, user=finals_only)
    assert Entry.objects.get(pk=first.pk).status == Entry.Status.REGISTERED
    assert finals.entries.count() == 2
    assert not AuditEntry.objects.filter(action="qualification.replaced").exists()


def test_an_organizer_of_the_whole_championship_advances_and_replaces(uae, organizer):
    from championships.services import assign_staff

    dubai, _, finals = uae
    players = [make_player(f"P{i}") for i in range(8)]
    play_game(dubai, entered(dubai, players), 1, [[10, 8, 6, 4], [10, 7, 5, 3]], organizer)
    chief = make_user("chief")
    assign_staff(chief, "organizer", championship=dubai.championship, user=make_admin())
    first, _second = advance_qualifiers(dubai.pk, user=chief)
    assert replace_finalist(first.pk, user=chief).player.name == "P1"
