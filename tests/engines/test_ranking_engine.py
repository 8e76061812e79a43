"""The pure ranking engine against docs/rules.md §4: worked examples, caps, 3-player tables, penalties, ties."""
from fractions import Fraction

import pytest

from engines.metrics import METRICS, Metric, PlayerRecord
from engines.ranking.engine import (
    ResultError,
    SeatResult,
    Standing,
    TableResult,
    rank,
    table_total,
    tie_groups,
    ties_at_cutoff,
)
from engines.rulesets import RULESETS, Ruleset


def tbl(game, table, scores, winner=None, minutes=None):
    """A table from {player: VP}; the winner defaults to the single player with 10 or more VP."""
    if winner is None:
        (winner,) = [p for p, vp in scores.items() if vp >= 10]
    seats = tuple(SeatResult(p, vp, p == winner) for p, vp in scores.items())
    return TableResult(game, table, seats, minutes)


def by_player(standings):
    return {s.player: s for s in standings}


# docs/rules.md §4, cnc-2022: A scored 10, 8, 10 at tables totalling 32, 30, 36; B 10, 10, 8 at 33, 31, 35.
CNC_EXAMPLE = [
    tbl(1, 1, {"A": 10, "f1": 8, "f2": 7, "f3": 7}),
    tbl(1, 2, {"B": 10, "f4": 8, "f5": 8, "f6": 7}),
    tbl(2, 1, {"A": 8, "f7": 10, "f8": 6, "f9": 6}),
    tbl(2, 2, {"B": 10, "f10": 7, "f11": 7, "f12": 7}),
    tbl(3, 1, {"A": 10, "f13": 9, "f14": 9, "f15": 8}),
    tbl(3, 2, {"B": 8, "f16": 10, "f17": 9, "f18": 8}),
]

# docs/rules.md §4, cwc-2025: A 10/32 + 8/30 + 10/36 + 10/29; B 10/30 + 10/33 + 8/36 + 10/31.
CWC_EXAMPLE = [
    tbl(1, 1, {"A": 10, "f1": 8, "f2": 7, "f3": 7}),
    tbl(1, 2, {"B": 10, "f4": 8, "f5": 6, "f6": 6}),
    tbl(2, 1, {"A": 8, "f7": 10, "f8": 6, "f9": 6}),
    tbl(2, 2, {"B": 10, "f10": 8, "f11": 8, "f12": 7}),
    tbl(3, 1, {"A": 10, "f13": 9, "f14": 9, "f15": 8}),
    tbl(3, 2, {"B": 8, "f16": 10, "f17": 9, "f18": 9}),
    tbl(4, 1, {"A": 10, "f19": 7, "f20": 6, "f21": 6}),
    tbl(4, 2, {"B": 10, "f22": 8, "f23": 7, "f24": 6}),
]


def test_cnc_worked_example_vp_share_is_one_ratio():
    standings = rank(CNC_EXAMPLE, "cnc-2022")
    assert [(s.rank, s.player) for s in standings[:2]] == [(1, "A"), (2, "B")]
    a, b = standings[0].values, standings[1].values
    assert (a["wins"], a["total_vp"], b["wins"], b["total_vp"]) == (2, 28, 2, 28)
    assert a["vp_share"] == Fraction(28, 98)
    assert b["vp_share"] == Fraction(28, 99)


def test_cwc_worked_example_sums_percentages_at_full_precision():
    standings = rank(CWC_EXAMPLE, "cwc-2025")
    assert [(s.rank, s.player) for s in standings[:2]] == [(1, "A"), (2, "B")]
    a, b = standings[0].values, standings[1].values
    assert (a["wins"], a["total_vp"], b["wins"], b["total_vp"]) == (3, 38, 3, 38)
    F = Fraction
    assert a["vp_percent_sum"] == 100 * (F(10, 32) + F(8, 30) + F(10, 36) + F(10, 29))
    assert b["vp_percent_sum"] == 100 * (F(10, 30) + F(10, 33) + F(8, 36) + F(10, 31))
    assert round(float(a["vp_percent_sum"]), 4) == 120.1772
    assert round(float(b["vp_percent_sum"]), 4) == 118.1167


def test_cwc_orders_by_seconds_then_thirds_after_percentages():
    # X and Y: 1 win, 15 VP and 50 % each; X came 2nd once, Y came 4th.
    tables = [
        tbl(1, 1, {"X": 10, "a": 10, "b": 10, "c": 10}, winner="X"),
        tbl(2, 1, {"X": 5, "d": 10, "e": 3, "f": 2}),
        tbl(1, 2, {"Y": 10, "g": 8, "h": 7, "i": 5}),
        tbl(2, 2, {"Y": 5, "j": 10, "k": 8, "l": 7}),
    ]
    s = by_player(rank(tables, "cwc-2025"))
    assert s["X"].values["vp_percent_sum"] == s["Y"].values["vp_percent_sum"] == 50
    assert (s["X"].values["seconds"], s["Y"].values["seconds"]) == (1, 0)
    assert s["X"].rank < s["Y"].rank and not s["X"].tied


@pytest.mark.parametrize(("counted", "total"), [
    ((10, 7, 6), 31), ((10, 7, 5), 29), ((10, 8, 6), 32), ((10, 9, 8, 8), 35),
])
def test_three_player_tables_add_the_mean_rounded_half_up(counted, total):
    # 23/3 = 7.67 → 8; 22/3 = 7.33 → 7; 24/3 = 8 exactly; four players add nothing.
    assert table_total(counted) == total


def test_three_player_table_total_enters_shares():
    s = by_player(rank([tbl(1, 1, {"A": 10, "B": 7, "C": 6})], "cnc-2022"))
    assert s["B"].values["vp_share"] == Fraction(7, 31)
    assert s["A"].values["vp_percent_sum"] == Fraction(1000, 31)


def test_only_ten_vp_count_for_the_winner():
    s = by_player(rank([tbl(1, 1, {"A": 11, "B": 8, "C": 7, "D": 5})], "cnc-2022"))
    assert s["A"].values["total_vp"] == 10
    assert s["A"].values["vp_share"] == Fraction(10, 30)
    assert s["B"].values["vp_share"] == Fraction(8, 30)


def test_non_winner_with_hidden_vp_cards_is_capped_at_ten_and_places_second():
    s = by_player(rank([tbl(1, 1, {"A": 10, "B": 12, "C": 7, "D": 7}, winner="A")], "cnc-2022"))
    assert s["B"].values["total_vp"] == 10
    assert (s["B"].values["seconds"], s["C"].values["thirds"], s["D"].values["thirds"]) == (1, 1, 1)


def test_lord_of_catan_caps_non_winners_at_nine_and_ranks_by_tempo():
    tables = [
        tbl(1, 1, {"A": 11, "B": 10, "C": 7, "D": 5}, winner="A", minutes=60),
        tbl(1, 2, {"E": 10, "F": 9, "G": 9, "H": 2}, minutes=90),
    ]
    s = by_player(rank(tables, "lord-of-catan"))
    # Table 1 counts 10 + 9 + 7 + 5 = 31: B's 10 VP count 9 and B still places 2nd.
    assert s["B"].values["total_vp"] == 9 and s["B"].values["seconds"] == 1
    assert s["A"].values["tempo"] == Fraction(10 * 31, 60)
    assert s["E"].values["tempo"] == Fraction(10 * 30, 90)
    # Both winners: A's faster game gives the better tempo; then the 2nd places (F and G share it).
    assert [x.player for x in rank(tables, "lord-of-catan")[:5]] == ["A", "E", "B", "F", "G"]
    assert s["F"].rank == s["G"].rank == 4 and s["F"].tied


def test_tempo_is_none_without_durations_outside_lord_of_catan():
    s = by_player(rank(CNC_EXAMPLE, "cnc-2022"))
    assert s["A"].values["tempo"] is None
    assert s["A"].as_json()["tempo"] is None


def test_deduction_comes_off_total_vp_only():
    plain = by_player(rank(CNC_EXAMPLE, "cnc-2022"))
    fined = by_player(rank(CNC_EXAMPLE, "cnc-2022", deductions={"A": 1}))
    assert fined["A"].values["total_vp"] == plain["A"].values["total_vp"] - 1 == 27
    for key in ("vp_share", "vp_percent_sum", "wins", "seconds"):
        assert fined["A"].values[key] == plain["A"].values[key]
    assert fined["f1"].values == plain["f1"].values
    # 27 VP now trails B's 28: the deduction decides the order.
    assert [(fined[p].rank) for p in ("B", "A")] == [1, 2]


def test_lord_of_catan_deduction_comes_off_the_last_games_tempo_never_below_zero():
    tables = [
        tbl(1, 1, {"A": 10, "B": 8, "C": 7, "D": 5}, minutes=60),
        tbl(2, 1, {"A": 3, "B": 10, "C": 9, "D": 8}, minutes=30),
    ]
    s = by_player(rank(tables, "lord-of-catan", deductions={"A": 2, "B": 12}))
    assert s["A"].values["tempo"] == Fraction(10 * 30, 60) + Fraction((3 - 2) * 30, 30)
    assert s["B"].values["tempo"] == Fraction(8 * 30, 60) + 0
    assert (s["A"].values["total_vp"], s["B"].values["total_vp"]) == (11, 6)
    # Places and table totals are untouched: C's tempo is as without any deduction.
    assert s["C"].values["tempo"] == Fraction(7 * 30, 60) + Fraction(9 * 30, 30)
    assert s["A"].values["wins"] == 1 and s["A"].values["seconds"] == 0


def test_disqualified_players_come_last_ranked_among_themselves_and_stay_in_table_totals():
    plain = by_player(rank(CNC_EXAMPLE, "cnc-2022"))
    standings = rank(CNC_EXAMPLE, "cnc-2022", disqualified={"A", "f7"})
    assert [s.player for s in standings[-2:]] == ["A", "f7"]
    assert [s.rank for s in standings[-2:]] == [len(standings) - 1, len(standings)]
    assert all(s.disqualified == (s.player in {"A", "f7"}) for s in standings)
    assert standings[0].player == "B" and standings[0].rank == 1
    assert by_player(standings)["f1"].values["vp_share"] == plain["f1"].values["vp_share"]


def test_entrants_without_games_rank_with_zeros():
    s = by_player(rank([tbl(1, 1, {"A": 10, "B": 8, "C": 7})], "cwc-2025", players=["Z"]))
    assert s["Z"].values["games"] == 0 and s["Z"].values["vp_share"] == 0 and s["Z"].rank == 4


X_Y_Z = [
    # X: 10/30 then 5/30 (1/3 + 1/6); Y: 10/40 then 5/20 (1/4 + 1/4); Z: X's games in the other order.
    tbl(1, 1, {"X": 10, "a": 7, "b": 7, "c": 6}),
    tbl(2, 1, {"X": 5, "d": 10, "e": 8, "f": 7}),
    tbl(1, 2, {"Y": 10, "g": 10, "h": 10, "i": 10}, winner="Y"),
    tbl(2, 2, {"Y": 5, "j": 10, "k": 3, "l": 2}),
    tbl(1, 3, {"Z": 5, "m": 10, "n": 8, "o": 7}),
    tbl(2, 3, {"Z": 10, "p": 7, "q": 7, "r": 6}),
]


def test_equal_values_reached_through_different_fractions_tie():
    standings = rank(X_Y_Z, "cnc-2022")
    s = by_player(standings)
    assert {s[p].values["vp_share"] for p in "XYZ"} == {Fraction(1, 4)}
    assert s["X"].rank == s["Y"].rank == s["Z"].rank
    assert s["X"].tied and s["Y"].tied and s["Z"].tied
    assert [x.rank for x in standings].count(s["X"].rank) == 3


def test_percentage_sums_equal_through_different_fractions_tie():
    percent_only = Ruleset("percent-only", "test", ("wins", "total_vp", "vp_percent_sum"))
    s = by_player(rank(X_Y_Z, percent_only))
    assert {s[p].values["vp_percent_sum"] for p in "XYZ"} == {50}
    assert s["X"].rank == s["Y"].rank == s["Z"].rank and s["Y"].tied


def test_cwc_exact_tie_through_different_fractions_shares_a_rank():
    # X: 10/10 + 10/15 = 5/3; Y: 10/12 + 10/12 = 5/3 — two wins, 20 VP, no 2nd or 3rd places each.
    tables = [
        tbl(1, 1, {"X": 10, "a": 0, "b": 0, "c": 0}),
        tbl(2, 1, {"X": 10, "d": 0, "e": 0, "f": 5}),
        tbl(1, 2, {"Y": 10, "g": 0, "h": 0, "i": 2}),
        tbl(2, 2, {"Y": 10, "j": 0, "k": 0, "l": 2}),
    ]
    standings = rank(tables, "cwc-2025")
    assert [(s.rank, s.player, s.tied) for s in standings[:2]] == [(1, "X", True), (1, "Y", True)]
    assert standings[2].rank == 3


def test_standard_competition_ranking_skips_after_a_tie():
    standings = rank(X_Y_Z, "cnc-2022")
    ranks = [s.rank for s in standings]
    tied_rank = by_player(standings)["X"].rank
    assert ranks[ranks.index(tied_rank) + 3] == tied_rank + 3


def test_a_recorded_draw_resolves_a_tie_and_is_reported():
    s = by_player(rank(X_Y_Z, "cnc-2022", draws=[["Z", "X", "Y"]]))
    r = s["Z"].rank
    assert (s["X"].rank, s["Y"].rank) == (r + 1, r + 2)
    assert not any(s[p].tied for p in "XYZ")
    assert [s[p].values["draw"] for p in "ZXY"] == [1, 2, 3]
    assert s["a"].values["draw"] is None


def test_a_draw_must_name_the_whole_group_and_the_latest_one_counts():
    stale = by_player(rank(X_Y_Z, "cnc-2022", draws=[["Z", "X"]]))
    assert stale["X"].tied and stale["X"].rank == stale["Z"].rank == stale["Y"].rank
    redrawn = by_player(rank(X_Y_Z, "cnc-2022", draws=[["Z", "X", "Y"], ["Y", "Q", "X", "Z"]]))
    assert redrawn["Y"].rank < redrawn["X"].rank < redrawn["Z"].rank


def test_draws_are_ignored_by_a_ruleset_without_the_draw_metric():
    no_draw = Ruleset("no-draw", "test", ("wins", "total_vp", "vp_share"))
    s = by_player(rank(X_Y_Z, no_draw, draws=[["Z", "X", "Y"]]))
    assert s["X"].tied and s["X"].values["draw"] is None


def test_tie_groups_and_ties_at_cutoff():
    standings = rank(X_Y_Z, "cnc-2022")
    group_rank = by_player(standings)["X"].rank
    groups = tie_groups(standings)
    assert {"X", "Y", "Z"} in [{s.player for s in g} for g in groups]
    # The group holds places group_rank .. group_rank + 2: a cut after its first or second member splits it.
    for cutoff in (group_rank, group_rank + 1):
        assert [{s.player for s in g} for g in ties_at_cutoff(standings, cutoff)] == [{"X", "Y", "Z"}]
    assert ties_at_cutoff(standings, group_rank - 1) == []
    assert ties_at_cutoff(standings, group_rank + 2) == []
    resolved = rank(X_Y_Z, "cnc-2022", draws=[["X", "Y", "Z"]])
    assert ties_at_cutoff(resolved, group_rank) == []


def test_ties_at_cutoff_passes_over_already_qualified_players():
    standings = rank(X_Y_Z, "cnc-2022")
    assert by_player(standings)["X"].rank == 1
    # X already qualified: one place still splits Y and Z, who alone must draw; two places take both.
    assert [{s.player for s in g} for g in ties_at_cutoff(standings, 1, passed_over={"X"})] == [{"Y", "Z"}]
    assert ties_at_cutoff(standings, 2, passed_over={"X"}) == []
    assert ties_at_cutoff(standings, 1, passed_over={"X", "Y"}) == []


def test_json_has_the_public_keys_and_floats_for_fractions():
    row = rank(CNC_EXAMPLE, "cnc-2022")[0].as_json()
    assert {"rank", "player", "wins", "total_vp", "games", "vp_share", "vp_percent_sum", "seconds", "thirds",
            "tempo", "tied", "disqualified"} <= set(row)
    assert isinstance(row["vp_share"], float) and abs(row["vp_share"] - 28 / 98) < 1e-12
    assert row["rank"] == 1 and row["player"] == "A" and row["tied"] is False


def test_integer_player_ids_work():
    s = by_player(rank([tbl(1, 1, {7: 10, 3: 8, 5: 6})], "cnc-2022"))
    assert s[7].rank == 1 and s[3].rank == 2


def test_a_custom_ruleset_with_a_new_metric_is_a_few_lines(monkeypatch):
    points = {1: 5, 2: 3, 3: 2, 4: 1}

    def placement_points(r: PlayerRecord) -> int:
        return sum(points.get(g.place, 0) for g in r.games)

    monkeypatch.setitem(METRICS, "placement_points",
                        Metric("placement_points", "Placement points", placement_points))
    german = Ruleset("de-placement", "Placement points 5-3-2-1", ("placement_points", "total_vp", "draw"))
    tables = [
        tbl(1, 1, {"A": 10, "B": 9, "C": 4, "D": 2}),
        tbl(2, 1, {"A": 2, "B": 9, "C": 10, "D": 8}),
        tbl(1, 2, {"E": 10, "F": 3, "G": 2, "H": 2}),
        tbl(2, 2, {"E": 10, "F": 3, "G": 2, "H": 2}),
    ]
    s = by_player(rank(tables, german))
    assert s["E"].values["placement_points"] == 10 and s["E"].rank == 1
    # B (3 + 3 = 6 points, 18 VP) is above A (5 + 1 = 6, 12 VP); C (2 + 5 = 7) is above both.
    assert [p for p in sorted("ABC", key=lambda p: s[p].rank)] == ["C", "B", "A"]


def test_rulesets_name_their_chains():
    assert RULESETS["cnc-2022"].metrics == ("wins", "total_vp", "vp_share", "draw")
    assert RULESETS["cwc-2025"].metrics == ("wins", "total_vp", "vp_percent_sum", "seconds", "thirds", "draw")
    assert RULESETS["lord-of-catan"].metrics == ("wins", "seconds", "tempo", "draw")
    assert RULESETS["lord-of-catan"].requires_minutes and not RULESETS["cwc-2025"].requires_minutes
    with pytest.raises(ValueError, match="unknown metric"):
        Ruleset("bad", "bad", ("wins", "luck"))
    with pytest.raises(ValueError, match="last"):
        Ruleset("bad", "bad", ("draw", "wins"))


@pytest.mark.parametrize(("table", "ruleset", "message"), [
    (tbl(1, 2, {"A": 10, "B": 8}), "cnc-2022", "3 or 4 players; this one has 2"),
    (tbl(1, 2, {"A": 10, "B": 8, "C": 7, "D": 6, "E": 5}), "cnc-2022", "this one has 5"),
    (TableResult(1, 2, (SeatResult("A", 10, False), SeatResult("B", 8, False), SeatResult("C", 7, False))),
     "cnc-2022", "No winner"),
    (TableResult(1, 2, (SeatResult("A", 10, True), SeatResult("B", 10, True), SeatResult("C", 7, False))),
     "cnc-2022", "A and B are marked as winners"),
    (tbl(1, 2, {"A": 9, "B": 8, "C": 7}, winner="A"), "cnc-2022", "A won with 9 VP"),
    (tbl(1, 2, {"A": 10, "B": 13, "C": 7}, winner="A"), "cnc-2022", "B: VP must be a whole number from 0 to"),
    (tbl(1, 2, {"A": 10, "B": -1, "C": 7}), "cnc-2022", "not -1"),
    (tbl(1, 2, {"A": 10, "B": "8", "C": 7}, winner="A"), "cnc-2022", "not '8'"),
    (TableResult(1, 2, (SeatResult("A", 10, True), SeatResult("A", 8, False), SeatResult("C", 7, False))),
     "cnc-2022", "A is entered twice"),
    (tbl(1, 2, {"A": 10, "B": 8, "C": 7}), "lord-of-catan", "minutes is required by lord-of-catan"),
    (tbl(1, 2, {"A": 10, "B": 8, "C": 7}, minutes=0), "cnc-2022", "positive whole number of minutes"),
])
def test_invalid_tables_raise_result_error_naming_game_and_table(table, ruleset, message):
    with pytest.raises(ResultError, match="game 1, table 2: ") as caught:
        rank([table], ruleset)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError) and (caught.value.game, caught.value.table) == (1, 2)


def test_a_player_at_two_tables_of_one_game_is_an_error():
    tables = [tbl(1, 1, {"A": 10, "B": 8, "C": 7}), tbl(1, 2, {"D": 10, "A": 8, "E": 7})]
    with pytest.raises(ResultError, match="game 1, table 2: A is also seated at table 1"):
        rank(tables, "cnc-2022")


def test_a_table_entered_twice_is_an_error():
    with pytest.raises(ResultError, match="entered twice"):
        rank([tbl(1, 1, {"A": 10, "B": 8, "C": 7}), tbl(1, 1, {"D": 10, "E": 8, "F": 7})], "cnc-2022")


def test_bad_deductions_disqualifications_and_rulesets_are_errors():
    tables = [tbl(1, 1, {"A": 10, "B": 8, "C": 7})]
    with pytest.raises(ValueError, match="Q, who has no result"):
        rank(tables, "cnc-2022", deductions={"Q": 1})
    with pytest.raises(ValueError, match="positive whole number"):
        rank(tables, "cnc-2022", deductions={"A": 0})
    with pytest.raises(ValueError, match="disqualified"):
        rank(tables, "cnc-2022", disqualified={"Q"})
    with pytest.raises(ValueError, match="unknown ruleset 'chess'"):
        rank(tables, "chess")


def test_standing_is_plain_data():
    s = rank([tbl(1, 1, {"A": 10, "B": 8, "C": 7})], "cnc-2022")[0]
    assert isinstance(s, Standing) and s.values["games"] == 1 and s.disqualified is False
