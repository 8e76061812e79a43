"""Qualifiers, replacements, the world-championship classification, Lord of Catan's 16 (docs/rules.md §1, §4)."""
import pytest

from engines.ranking.advancement import (
    SeatingTie,
    TieAtCutoff,
    final_classification,
    lord_of_catan_advancers,
    qualifiers,
    replacement,
    seating_ties,
    seeded_field,
    semifinal_finalists,
)
from engines.ranking.engine import SeatResult, TableResult, rank, tie_groups
from engines.seating.engine import final_table, seeded_tables


def tbl(game, table, scores, winner=None, minutes=None):
    """A table from {player: VP}; the winner defaults to the single player with 10 or more VP."""
    if winner is None:
        (winner,) = [p for p, vp in scores.items() if vp >= 10]
    seats = tuple(SeatResult(p, vp, p == winner) for p, vp in scores.items())
    return TableResult(game, table, seats, minutes)


# One qualifier game: winners by share (A 10/25, E 10/28, I 10/31), then the rest by VP.
QUALIFIER = [
    tbl(1, 1, {"A": 10, "B": 9, "C": 4, "D": 2}),
    tbl(1, 2, {"E": 10, "F": 8, "G": 6, "H": 4}),
    tbl(1, 3, {"I": 10, "J": 7, "K": 7, "L": 7}),
]
ORDER = ["A", "E", "I", "B", "F", "J", "K", "L", "G", "C", "H", "D"]  # J, K, L share 7 VP and 7/31


def test_the_fixture_order():
    standings = rank(QUALIFIER, "cnc-2022")
    assert [s.player for s in standings] == ORDER
    assert [s.rank for s in standings][5:8] == [6, 6, 6]


def test_qualifiers_are_the_top_n():
    assert qualifiers(rank(QUALIFIER, "cnc-2022"), 4) == ["A", "E", "I", "B"]


def test_already_qualified_players_are_passed_over_and_the_place_goes_down_the_ranking():
    standings = rank(QUALIFIER, "cnc-2022")
    assert qualifiers(standings, 3, already_qualified={"A", "I"}) == ["E", "B", "F"]


def test_disqualified_players_never_qualify():
    standings = rank(QUALIFIER, "cnc-2022", disqualified={"E"})
    assert qualifiers(standings, 3) == ["A", "I", "B"]


def test_a_tie_across_the_cut_must_be_drawn_first():
    standings = rank(QUALIFIER, "cnc-2022")
    with pytest.raises(TieAtCutoff, match="share rank 6") as caught:
        qualifiers(standings, 6)
    assert {s.player for s in caught.value.group} == {"J", "K", "L"}
    drawn = rank(QUALIFIER, "cnc-2022", draws=[["L", "J", "K"]])
    assert qualifiers(drawn, 6) == ["A", "E", "I", "B", "F", "L"]
    assert qualifiers(standings, 8) == ORDER[:8]


def test_replacement_is_the_next_best_not_yet_qualified_player_of_the_same_qualifier():
    standings = rank(QUALIFIER, "cnc-2022")
    # Top 2 qualified (A, E); I had qualified at an earlier qualifier; E cannot attend.
    assert replacement(standings, qualified={"A", "E", "I"}) == "B"
    # B declined too: F takes it.
    assert replacement(standings, qualified={"A", "E", "I"}, unavailable={"B"}) == "F"
    # After F, J, K and L share the next place: the referee's draw decides.
    with pytest.raises(TieAtCutoff):
        replacement(standings, qualified={"A", "E", "I"}, unavailable={"B", "F"})
    assert replacement(standings, qualified=set(ORDER)) is None


# World championship, 16 players, one preliminary game so every place is easy to follow.
# E/A, F/B, G/C and H/D score identically; the recorded draws put E, B, C, D first.
PRELIM = [
    tbl(1, 1, {"A": 10, "B": 8, "C": 7, "D": 5}),
    tbl(1, 2, {"E": 10, "F": 8, "G": 7, "H": 5}),
    tbl(1, 3, {"I": 10, "J": 9, "K": 6, "L": 4}),
    tbl(1, 4, {"M": 10, "N": 9, "O": 3, "P": 2}),
]
DRAWS = [["E", "A"], ["B", "F"], ["C", "G"], ["D", "H"]]
PRELIM_ORDER = list("MIEANJBFCGKDHLOP")
SEED_CHART = [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
# Seed chart over PRELIM_ORDER: T1 M F C P · T2 I B G O · T3 E J K L · T4 A N D H.
SEMIS = [
    tbl(2, 1, {"F": 10, "M": 9, "C": 6, "P": 3}),
    tbl(2, 2, {"I": 11, "B": 7, "G": 7, "O": 2}),
    tbl(2, 3, {"E": 10, "J": 8, "K": 7, "L": 5}),
    tbl(2, 4, {"A": 10, "N": 8, "D": 7, "H": 5}),
]
FINAL = tbl(3, 1, {"F": 10, "I": 9, "E": 6, "A": 6})


def test_the_preliminary_fixture_and_seed_chart():
    prelim = rank(PRELIM, "cwc-2025", draws=DRAWS)
    assert [s.player for s in prelim] == PRELIM_ORDER and [s.rank for s in prelim] == list(range(1, 17))
    assert [{PRELIM_ORDER[i - 1] for i in seeds} for seeds in SEED_CHART] == [
        {p.player for p in t.seats} for t in SEMIS
    ]


def test_before_the_semifinals_the_classification_is_the_preliminary_ranking():
    classification = final_classification(PRELIM, ruleset="cwc-2025", draws=DRAWS)
    assert [(s.rank, s.player) for s in classification] == [
        (s.rank, s.player) for s in rank(PRELIM, "cwc-2025", draws=DRAWS)
    ]


def test_semifinal_winners_hold_places_1_to_4_and_5_to_16_are_re_ranked():
    classification = final_classification(PRELIM, SEMIS, ruleset="cwc-2025", draws=DRAWS)
    order = [s.player for s in classification]
    # I has two wins and the best percentages; E and A are identical, the preliminary draw puts E first;
    # F (one win) is 4th although M, N, J and B have more VP.
    assert order[:4] == ["I", "E", "A", "F"]
    combined = [s.player for s in rank([*PRELIM, *SEMIS], "cwc-2025", draws=DRAWS)]
    assert order[4:] == [p for p in combined if p not in {"I", "E", "A", "F"}]
    assert [s.rank for s in classification] == list(range(1, 17))
    assert classification[0].values["games"] == 2


def test_the_final_sets_places_1_to_4_and_equal_places_fall_back_to_the_tiebreakers_and_draws():
    classification = final_classification(PRELIM, SEMIS, FINAL, ruleset="cwc-2025", draws=DRAWS)
    assert [(s.rank, s.player) for s in classification[:4]] == [(1, "F"), (2, "I"), (3, "E"), (4, "A")]
    after_semis = final_classification(PRELIM, SEMIS, ruleset="cwc-2025", draws=DRAWS)
    assert [s.player for s in classification[4:]] == [s.player for s in after_semis[4:]]
    # Without the carried-forward draw, E and A (3rd equal at the final, identical before) share 3rd.
    undrawn = final_classification(PRELIM, SEMIS, FINAL, ruleset="cwc-2025", draws=DRAWS[1:])
    assert [(s.rank, s.player, s.tied) for s in undrawn[2:4]] == [(3, "A", True), (3, "E", True)]


def test_an_equal_final_place_is_broken_by_preliminary_and_semifinal_games():
    final = tbl(3, 1, {"E": 10, "I": 7, "F": 7, "A": 8})
    classification = final_classification(PRELIM, SEMIS, final, ruleset="cwc-2025", draws=DRAWS)
    # I and F both finish 3rd; I has two wins over preliminary + semifinal games, F one.
    assert [s.player for s in classification[:4]] == ["E", "A", "I", "F"]


def test_the_final_table_must_seat_the_semifinal_winners():
    with pytest.raises(ValueError, match="one player of each semifinal table: its winner"):
        final_classification(PRELIM, SEMIS, tbl(3, 1, {"F": 10, "I": 9, "E": 6, "M": 6}), ruleset="cwc-2025",
                             draws=DRAWS)


def test_a_disqualified_semifinal_winner_is_replaced_by_the_next_finisher_of_their_table():
    """004 §1.2.4: F, winner of semifinal table 1, is disqualified before the final: M, second at that table, takes
    the place (001 §3: "the next best-ranked player from the same Qualifier will qualify in their place"), holds a
    top-4 place until the final, and the final seating M is classified, its winner first (004 §1.1.9). Before, the
    classification refused any final without F ("must seat exactly the semifinal winners")."""
    field = semifinal_finalists(PRELIM, SEMIS, ruleset="cwc-2025", draws=DRAWS, disqualified={"F"})
    assert (field.players, dict(field.replaced), dict(field.undecided)) == (("M", "I", "E", "A"), {"M": "F"}, {})
    before = final_classification(PRELIM, SEMIS, ruleset="cwc-2025", draws=DRAWS, disqualified={"F"})
    assert {s.player for s in before[:4]} == {"M", "I", "E", "A"} and before[-1].player == "F"
    final = tbl(3, 1, {"M": 10, "I": 9, "E": 6, "A": 5})
    after = final_classification(PRELIM, SEMIS, final, ruleset="cwc-2025", draws=DRAWS, disqualified={"F"})
    assert [s.player for s in after[:4]] == ["M", "I", "E", "A"] and after[-1].player == "F"
    # Withdrawn (absent), not disqualified: replaced the same way, and ranked with the semifinalists, not last.
    absent = final_classification(PRELIM, SEMIS, final, ruleset="cwc-2025", draws=DRAWS, absent={"F"})
    assert [s.player for s in absent[:4]] == ["M", "I", "E", "A"] and absent[-1].player != "F"
    with pytest.raises(ValueError, match="one player of each semifinal table"):  # M, not the winner F, is no finalist
        final_classification(PRELIM, SEMIS, final, ruleset="cwc-2025", draws=DRAWS)


def test_next_finishers_tied_for_a_replaced_winners_place_hold_it_until_a_draw():
    """Lord of Catan (003): B and F finish second together behind A, disqualified, and are equal on every
    tiebreaker: both hold the place until a drawing of lots decides (001 §4, I-36)."""
    prelim = [tbl(1, 1, {"A": 10, "B": 8, "C": 7, "D": 5}, minutes=60),
              tbl(1, 2, {"E": 10, "F": 8, "G": 7, "H": 5}, minutes=60)]
    semis = [tbl(2, 1, {"A": 10, "B": 6, "F": 6, "H": 3}, minutes=50),
             tbl(2, 2, {"E": 10, "C": 6, "G": 5, "D": 3}, minutes=50)]
    field = semifinal_finalists(prelim, semis, ruleset="lord-of-catan", disqualified={"A"})
    assert field.players[1] == "E" and dict(field.undecided) == {field.players[0]: ("B", "F")}
    held = final_classification(prelim, semis, ruleset="lord-of-catan", disqualified={"A"})
    assert [(s.player, s.rank, s.tied) for s in held[1:3]] == [("B", 2, True), ("F", 2, True)]
    drawn = semifinal_finalists(prelim, semis, ruleset="lord-of-catan", disqualified={"A"}, draws=[["F", "B"]])
    assert (drawn.players, dict(drawn.undecided)) == (("F", "E"), {})


def test_a_disqualified_finalist_goes_last():
    classification = final_classification(PRELIM, SEMIS, FINAL, ruleset="cwc-2025", draws=DRAWS, disqualified={"F"})
    assert classification[-1].player == "F" and classification[-1].disqualified
    assert [s.player for s in classification[:3]] == ["I", "E", "A"]


def test_without_semifinals_the_final_tables_players_are_the_finalists():
    # CNC finals: games 1-2 for everyone, then the top 4 play one final game.
    games = [
        *PRELIM,
        tbl(2, 1, {"M": 10, "I": 8, "E": 7, "A": 6}), tbl(2, 2, {"N": 10, "J": 8, "B": 7, "F": 6}),
        tbl(2, 3, {"C": 10, "G": 8, "K": 7, "D": 6}), tbl(2, 4, {"H": 10, "L": 8, "O": 7, "P": 6}),
    ]
    top4 = [s.player for s in rank(games, "cnc-2022", draws=DRAWS)[:4]]
    final = tbl(3, 1, dict(zip(reversed(top4), (10, 9, 8, 7))))
    classification = final_classification(games, (), final, ruleset="cnc-2022", draws=DRAWS)
    assert [s.player for s in classification[:4]] == list(reversed(top4))


def lord_round(minutes, scores=(10, 8, 6, 4)):
    """One ranking-round game: table i seats Wi, Si, Ti, Fi scoring `scores`, lasting minutes[i - 1]."""
    return [
        tbl(1, i, dict(zip((f"W{i}", f"S{i}", f"T{i}", f"F{i}"), scores)), minutes=m)
        for i, m in enumerate(minutes, 1)
    ]


def by_tempo(players, vp, minutes):
    """Players of table i (by suffix) sorted by vp × 28 / minutes, the table total being 28."""
    return sorted(players, key=lambda p: -vp * 28 / minutes[int(p[1:]) - 1])


def test_more_than_16_winners_the_16_fastest_winners_advance():
    minutes = [61, 45, 88, 52, 47, 73, 66, 95, 41, 58, 49, 80, 55, 70, 63, 90, 44, 77, 69, 50]
    standings = rank(lord_round(minutes), "lord-of-catan")
    advancers = lord_of_catan_advancers(standings)
    winners = [f"W{i}" for i in range(1, 21)]
    assert advancers == by_tempo(winners, 10, minutes)[:16]
    assert set(advancers) <= set(winners)


def test_fewer_than_16_winners_the_best_second_placed_players_complete_the_field():
    minutes = [55, 41, 70, 48, 62, 45, 90, 52, 66, 38]
    advancers = lord_of_catan_advancers(rank(lord_round(minutes), "lord-of-catan"))
    seconds = by_tempo([f"S{i}" for i in range(1, 11)], 8, minutes)
    assert advancers == by_tempo([f"W{i}" for i in range(1, 11)], 10, minutes) + seconds[:6]


def test_still_short_after_the_seconds_the_rest_complete_by_tempo():
    minutes = [55, 41, 70, 48, 62, 45]
    advancers = lord_of_catan_advancers(rank(lord_round(minutes), "lord-of-catan"))
    rest = sorted([f"T{i}" for i in range(1, 7)] + [f"F{i}" for i in range(1, 7)],
                  key=lambda p: -(6 if p[0] == "T" else 4) * 28 / minutes[int(p[1:]) - 1])
    assert advancers[12:] == rest[:4] and len(advancers) == 16


def test_a_tempo_tie_at_place_16_needs_a_draw():
    minutes = [60, 60, *range(41, 56)]  # W1 and W2 are equal and the two slowest of 17 winners
    standings = rank(lord_round(minutes), "lord-of-catan")
    with pytest.raises(TieAtCutoff) as caught:
        lord_of_catan_advancers(standings)
    assert {s.player for s in caught.value.group} == {"W1", "W2"}
    drawn = rank(lord_round(minutes), "lord-of-catan", draws=[["W2", "W1"]])
    assert "W2" in lord_of_catan_advancers(drawn) and "W1" not in lord_of_catan_advancers(drawn)


def test_a_lord_of_catan_deduction_can_cost_the_place():
    minutes = [50, *range(41, 57)]  # W1 is 10th fastest of 17; 2 VP off its tempo makes it the slowest
    assert "W1" in lord_of_catan_advancers(rank(lord_round(minutes), "lord-of-catan"))
    fined = rank(lord_round(minutes), "lord-of-catan", deductions={"W1": 2})
    assert "W1" not in lord_of_catan_advancers(fined)


# --- Ties that change a stage seated by rank (issue 20 item 5) --------------------------------------------

# Two identical tables: A/E share rank 1, B/F rank 3, C/G rank 5, D/H rank 7.
TWINS = [tbl(1, 1, {"A": 10, "B": 8, "C": 6, "D": 4}), tbl(1, 2, {"E": 10, "F": 8, "G": 6, "H": 4})]


def ties_when_seating(standings, n, *, order_of_choice=True, passed_over=()):
    """The ties that change the top `n` seated by rank: one final table, or the seed chart."""
    ranked = seeded_field(standings, n, passed_over)
    tables = [final_table(ranked)] if n <= 4 else seeded_tables(ranked)
    return seating_ties(standings, ranked, tables, passed_over=passed_over, cut=True,
                        order_of_choice=order_of_choice)


def test_a_tie_for_seed_1_at_a_final_table_matters_where_seeds_choose_in_order():
    """Seed 004 §1.1.6 and I-19 (001 §3): at a final table the players choose chair, colour and play order
    in order of rank, so two players tied at rank 1 must be separated before seed 1 can choose first."""
    standings = rank(TWINS, "cnc-2022")
    assert ties_when_seating(standings, 4) == [
        SeatingTie(("A", "E"), seeds=(1, 2)), SeatingTie(("B", "F"), seeds=(3, 4))]
    # Seed 003: at a Lord of Catan final the players settle seats themselves: one table, nothing to decide.
    assert ties_when_seating(standings, 4, order_of_choice=False) == []


def test_a_tie_across_the_field_matters_even_where_nobody_chooses_in_order():
    standings = rank(TWINS, "cnc-2022")
    ties = ties_when_seating(standings, 4, order_of_choice=False, passed_over={"B"})  # C/G share the 4th place
    assert ties == [SeatingTie(("C", "G"), cutoff=4)]
    assert ties[0].matters
    assert ties_when_seating(standings, 4, passed_over={"B"}) == [
        SeatingTie(("A", "E"), seeds=(1, 2)), SeatingTie(("C", "G"), cutoff=4)]


def test_a_tie_over_two_tables_of_the_seed_chart_decides_the_table_and_a_tie_at_one_table_the_order():
    standings = rank(QUALIFIER, "cnc-2022")  # J, K, L share rank 6: seeds 6 and 7 sit at table 2, seed 8 at table 1
    assert ties_when_seating(standings, 8) == [SeatingTie(("J", "K", "L"), tables=True, seeds=(6, 7))]
    assert ties_when_seating(standings, 8, order_of_choice=False) == [SeatingTie(("J", "K", "L"), tables=True)]


def test_a_tie_inside_one_table_without_order_of_choice_changes_nothing():
    # 16 players; the only tie is seeds 12 and 13, who both sit at table 4 (4, 5, 12, 13).
    tables = [tbl(1, t, {f"{t}{p}": vp for p, vp in zip("abcd", scores)}) for t, scores in
              enumerate([[10, 9, 7, 4], [10, 7, 6, 4], [10, 6, 4, 4], [10, 8, 7, 1]], start=1)]
    standings = rank(tables, "cnc-2022")
    (group,) = [g for g in tie_groups(standings)]
    assert [s.rank for s in group] == [12, 12]
    assert ties_when_seating(standings, 16, order_of_choice=False) == []
    assert ties_when_seating(standings, 16) == [SeatingTie(tuple(s.player for s in group), seeds=(12, 13))]


def test_the_finals_order_of_choice_needs_only_the_ties_between_finalists():
    """The world final: the semifinal winners choose in order of preliminary rank (004 §1.1.6); players who
    did not reach the final do not take part, so a tie between a finalist and one of them changes nothing."""
    standings = rank(TWINS, "cwc-2025")
    ranked = ["A", "E", "C", "H"]  # the semifinal winners in preliminary order (A/E tied, C/G, D/H)
    assert seating_ties(standings, ranked, [ranked], cut=False, order_of_choice=True) == [
        SeatingTie(("A", "E"), seeds=(1, 2))]
