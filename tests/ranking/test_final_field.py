"""A semifinal winner who takes no further part does not play the final: the next finisher of their table does
(issue 32 item 8a; docs/rules.md §4, Penalties).

Seeds: 004 §1.2.4, a disqualified player takes no further part (a code-of-conduct disqualification "at any time");
004 §1.1.9, the winner of the final is the champion; 001 §3, "In case a player is unable to attend, the next
best-ranked player from the same Qualifier will qualify in their place", the sentence the replacement follows;
003 (Lord of Catan), the four semifinal winners play the final.
"""
from datetime import time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from championships.models import Entry
from championships.services import create_championship_from_preset, enter_player
from ranking.qualification import seat_seeded_stage
from ranking.standings import compute_standings
from results.draws import record_draw
from results.penalties import record_penalty
from results.publishing import publish_game, unpublish_game
from tests.factories import make_admin, make_game, make_official, make_player, play

pytestmark = pytest.mark.django_db


def world_after_semifinals():
    """A world championship of 16 after one preliminary game and its semifinal, won by seeds 8, 7, 6 and 5; at
    table 1 (seeds 1, 8, 9, 16) seed 1 finishes second with 8 VP."""
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    referee = make_official(world)
    entries = [enter_player(make_player(f"S{i:02d}"), world, user=make_admin()) for i in range(16)]
    first = make_game(world, [entries[i:i + 4] for i in range(0, 16, 4)], number=1,
                      stage=world.stages.get(kind="preliminary"))
    for table, vps in zip(first.tables.order_by("number"),
                          [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]]):
        play(table, vps, referee)
    seed = {row["entry"]: n for n, row in enumerate(compute_standings(world), start=1)}
    by_seed = {n: entry for entry, n in seed.items()}
    semifinal = seat_seeded_stage(world.stages.get(kind="semifinal").pk, user=make_admin())
    publish_game(semifinal.pk, user=make_admin())
    for table in semifinal.tables.order_by("number"):
        play(table, [8, 10, 7, 6], referee)
    return world, referee, by_seed


def finalists(game) -> set[int]:
    return set(game.tables.get().seats.values_list("entry_id", flat=True))


def test_a_disqualified_semifinal_winner_is_replaced_by_the_next_finisher_of_their_table(client):
    """Seed 8 won table 1 and is then disqualified for conduct (004 §1.2.4, at any time): the final used to seat
    them anyway, and its classification then failed ("The final table must seat exactly the semifinal winners").
    Now seed 1, second at that table, takes the place (001 §3), holds a top-4 place until the final, and the
    final's winner is the champion (004 §1.1.9)."""
    world, referee, by_seed = world_after_semifinals()
    record_penalty(by_seed[8], user=referee, kind="disqualification", ground="conduct", reason="Abused an opponent")
    top4 = [row["entry"] for row in compute_standings(world)[:4]]
    assert set(top4) == {by_seed[1], by_seed[7], by_seed[6], by_seed[5]}
    stage = world.stages.get(kind="final")
    final = seat_seeded_stage(stage.pk, user=make_admin())
    assert finalists(final) == set(top4)
    client.force_login(make_official(world, "organizer"))
    page = client.get(reverse("stage-seating", args=[world.slug, stage.pk])).content.decode()
    name = {e.pk: e.player.name for e in Entry.objects.filter(pk__in=[by_seed[1], by_seed[8]])}
    assert (f"<bdi>{name[by_seed[1]]}</bdi> plays in place of <bdi>{name[by_seed[8]]}</bdi>, who takes no further "
            "part: the next finisher of their semifinal table, as “the next best-ranked player from the same "
            "Qualifier will qualify in their place” (001 §3)." in page)
    assert [s.seed for s in final.tables.get().seats.order_by("seed")] == [1, 2, 3, 4]  # by preliminary rank
    publish_game(final.pk, user=make_admin())
    order = list(final.tables.get().seats.order_by("position").values_list("entry_id", flat=True))
    play(final.tables.get(), [7, 6, 10, 5], referee)
    rows = compute_standings(world)
    assert [row["entry"] for row in rows[:4]] == [order[2], order[0], order[1], order[3]]
    assert rows[-1]["entry"] == by_seed[8] and rows[-1]["disqualified"]
    client.force_login(referee)
    assert client.get(reverse("referee-desk", args=[world.slug])).status_code == 200


def test_a_disqualification_after_the_final_is_seated_asks_for_seating_it_again(client):
    """Decided (docs/rules.md §4, Penalties): as for a withdrawal, a finalist disqualified after the final was
    seated but before it started is replaced by seating the final again; the referee is told so, and a final that
    still seats them is not published. Once published (no result yet), the organizer takes it back first."""
    world, referee, by_seed = world_after_semifinals()
    stage = world.stages.get(kind="final")
    final = seat_seeded_stage(stage.pk, user=make_admin())
    assert by_seed[8] in finalists(final)
    client.force_login(referee)
    response = client.post(reverse("referee-penalties", args=[world.slug]), {
        "entry": by_seed[8], "kind": "disqualification", "ground": "conduct", "reason": "Abused an opponent"},
        follow=True)
    assert "is still seated in Final (game 6): an organizer seats it again by rank" in response.content.decode()
    with pytest.raises(ValidationError, match=r"no longer takes part: seat Final again by rank before publishing"):
        publish_game(final.pk, user=make_admin())
    final = seat_seeded_stage(stage.pk, user=make_admin())
    assert by_seed[8] not in finalists(final) and by_seed[1] in finalists(final)
    publish_game(final.pk, user=make_admin())
    # Withdrawn after publication, before any result: take it back, seat again (001 §3: the next of that table).
    Entry.objects.filter(pk=by_seed[7]).update(status=Entry.Status.WITHDRAWN)
    unpublish_game(final.pk, user=make_admin())
    with pytest.raises(ValidationError, match="no longer takes part"):
        publish_game(final.pk, user=make_admin())
    final = seat_seeded_stage(stage.pk, user=make_admin())
    assert by_seed[7] not in finalists(final) and by_seed[2] in finalists(final)  # second at table 2


def test_a_tie_for_a_disqualified_winners_place_waits_for_a_draw():
    """Lord of Catan (003): seeds 12 and 13, tied after the ranking round (equal tempo), finish second together at
    semifinal table 4, whose winner is then disqualified: who takes the place is a tie that matters (001 §4's
    draw), so the final waits for it, as the ties page says; the drawn one plays."""
    club = create_championship_from_preset("lord-of-catan", user=make_admin()).tournaments.get()
    referee = make_official(club)
    entries = [enter_player(make_player(f"L{i:02d}"), club, user=make_admin()) for i in range(16)]
    ranking_round = make_game(club, [entries[i:i + 4] for i in range(0, 16, 4)], number=1,
                              stage=club.stages.get(kind="preliminary"))
    for length, table in zip((60, 70, 80, 90), ranking_round.tables.order_by("number")):
        play(table, [10, 9, 8, 7], referee, time(10, 0), time(10 + length // 60, length % 60))
    seed = {row["entry"]: n for n, row in enumerate(compute_standings(club), start=1)}
    by_seed = {n: entry for entry, n in seed.items()}
    semifinal = seat_seeded_stage(club.stages.get(kind="semifinal").pk, user=make_admin())
    publish_game(semifinal.pk, user=make_admin())
    for table in semifinal.tables.order_by("number"):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        vps = [8 if seed[e] in (12, 13) else 10 if seed[e] == 4 else 5 for e in seats] if table.number == 4 else \
            [10, 9, 8, 7]
        play(table, vps, referee, time(14, 0), time(15, 0))
    record_penalty(by_seed[4], user=referee, kind="disqualification", ground="conduct", reason="Cheated")
    stage = club.stages.get(kind="final")
    with pytest.raises(ValidationError, match=r"tied where it matters: record the card draw first\. \(decides who "
                                              r"takes the place of L\d\d, who takes no further part, at Final"):
        seat_seeded_stage(stage.pk, user=make_admin())
    tied = [row for row in compute_standings(club) if row["entry"] in (by_seed[12], by_seed[13])]
    assert [row["rank"] for row in tied] == [tied[0]["rank"]] * 2 and all(row["tied"] for row in tied)
    record_draw(club, [by_seed[13], by_seed[12]], user=referee, method="lots")
    final = seat_seeded_stage(stage.pk, user=make_admin())
    assert by_seed[13] in finalists(final) and not {by_seed[12], by_seed[4]} & finalists(final)
