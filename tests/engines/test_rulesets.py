"""The one ruleset registry: every ruleset is defined there, and everything else reads it."""
import pytest

from engines.metrics import METRICS
from engines.rulesets import RULESETS, Ruleset, register_ruleset, ruleset_for


def test_seating_goals_come_from_the_registry():
    assert ruleset_for("cwc-2025").distinct_positions and ruleset_for("cwc-2025").spread_countries
    for name in ("cnc-2022", "lord-of-catan"):
        assert not ruleset_for(name).distinct_positions and not ruleset_for(name).spread_countries


def test_only_lord_of_catan_players_choose_the_play_order_of_every_game():
    """Seed 003: in every round the players settle seats and a 2d6 roll decides who starts; seeds 001 §3 and
    004 §1.1.4: a scheduled game's play order is the organizer's schedule."""
    assert ruleset_for("lord-of-catan").players_choose_play_order
    assert not ruleset_for("cnc-2022").players_choose_play_order
    assert not ruleset_for("cwc-2025").players_choose_play_order


def test_an_unknown_ruleset_is_an_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown ruleset 'chess'; known: cnc-2022, cwc-2025, lord-of-catan"):
        ruleset_for("chess")


def test_caps_and_columns():
    assert ruleset_for("lord-of-catan").non_winner_cap == 9 and ruleset_for("cnc-2022").non_winner_cap == 10
    assert ruleset_for("cnc-2022").columns == ("games", "wins", "total_vp", "vp_share")
    assert ruleset_for("lord-of-catan").columns == ("games", "wins", "total_vp", "seconds", "tempo")
    assert all(r.table_sizes == (3, 4) for r in RULESETS.values())


def test_every_metric_has_a_label_and_reads_in_its_unit():
    assert all(m.label for m in METRICS.values())
    from fractions import Fraction
    assert METRICS["vp_share"].display(Fraction(5, 14), places=2) == "35.71 %"
    assert METRICS["vp_percent_sum"].display(Fraction(250, 3), places=1) == "83.3 %"
    assert METRICS["tempo"].display(Fraction(7, 3)) == "2.3333"
    assert METRICS["wins"].display(3) == "3" and METRICS["wins"].display(None) == "–"


def test_a_key_is_registered_once():
    with pytest.raises(ValueError, match="already registered"):
        register_ruleset(Ruleset("cnc-2022", "again", ("wins",)))


def test_adding_a_ruleset_is_one_entry(monkeypatch):
    monkeypatch.setitem(RULESETS, "placement", Ruleset("placement", "Placement", ("wins", "seconds", "draw")))
    assert ruleset_for("placement").columns == ("games", "wins", "total_vp", "seconds")
    assert ruleset_for("placement").uses_draws and not ruleset_for("placement").requires_minutes


@pytest.mark.django_db
def test_the_tournament_model_offers_exactly_the_registered_rulesets():
    from championships.models import Tournament

    assert [key for key, _label in Tournament._meta.get_field("ruleset").choices] == list(RULESETS)


def test_only_the_national_rules_have_a_lateness_penalty():
    """001 §6 (and 000 §6): "1 victory point deducted from their total scores for the first 15 minutes of
    tardiness. The tournament will start after 15 minutes from official time and late comers cannot
    participate." Seeds 004 (world) and 003 (Lord of Catan) have no lateness rule at all."""
    rule = ruleset_for("cnc-2022").lateness
    assert (rule.vp, rule.admitted_minutes) == (1, 15)
    assert rule.admits(1) and rule.admits(15) and not rule.admits(16)
    assert ruleset_for("cwc-2025").lateness is None and ruleset_for("lord-of-catan").lateness is None
