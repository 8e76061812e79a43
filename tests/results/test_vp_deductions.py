"""VP deductions: only those the tournament's rules have, in the registry, the form and the service (issue 32 item 8b).

Seeds: 001 §6 (national): the only VP off is the late arrival's, "1 victory point deducted from their total scores for
the first 15 minutes of tardiness"; 004 §1.2 (world): warnings and disqualification, no VP deduction; 003, Rule
clarifications and disputes (Lord of Catan): arguing loudly against a ruling costs "2 points off the final total"
(or removal), and cheating is fined at the organizers' discretion.
"""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from engines.rulesets import ruleset_for
from ranking.standings import compute_standings
from results.models import Penalty
from results.penalties import record_penalty
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


def test_the_registry_holds_each_rulesets_vp_deductions():
    """001 §6: lateness only (its own rule, 1 VP); 004: none; 003: 2 VP for arguing a ruling, any VP for cheating."""
    cnc, cwc, loc = (ruleset_for(key) for key in ("cnc-2022", "cwc-2025", "lord-of-catan"))
    assert (cnc.vp_deductions, cnc.lateness.vp) == ((), 1)
    assert (cwc.vp_deductions, cwc.lateness) == ((), None)
    assert [(d.key, d.vp) for d in loc.vp_deductions] == [("arguing", 2), ("cheating", None)]


@pytest.mark.parametrize(("ruleset", "why"), [
    ("cnc-2022", "deduct VP only for a late arrival"),
    ("cwc-2025", "have no VP deduction: their penalties are warnings and disqualification"),
])
def test_a_vp_deduction_the_rules_do_not_have_is_refused_by_the_service(ruleset, why):
    """001 §6 and 004 §1.2: a referee could take any number of VP off under every ruleset; now the service refuses
    it, whatever form sent it, and nothing is written."""
    tournament = make_tournament(ruleset=ruleset)
    (entry,) = make_entries(tournament, 1)
    referee = make_official(tournament)
    with pytest.raises(ValidationError) as refused:
        record_penalty(entry.pk, user=referee, kind=Penalty.Kind.VP_DEDUCTION, vp=3, reason="Slow play")
    assert why in refused.value.message_dict["kind"][0]
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action="penalty.vp_deduction").exists()


def test_lord_of_catan_deducts_two_points_for_arguing_and_the_organizers_fine_for_cheating():
    """003, Rule clarifications and disputes: "2 points off the player's final total" for arguing a ruling, exactly;
    the fine for cheating is the organizers' to decide; any other deduction is refused."""
    tournament = make_tournament(ruleset="lord-of-catan")
    arguing, cheating = make_entries(tournament, 2)
    referee = make_official(tournament)
    for deduction, vp, field in (("arguing", 3, "vp"), ("", 2, "deduction"), ("slow", 2, "deduction"),
                                 ("cheating", 0, "vp")):
        with pytest.raises(ValidationError) as refused:
            record_penalty(arguing.pk, user=referee, kind=Penalty.Kind.VP_DEDUCTION, vp=vp, deduction=deduction,
                           reason="Shouted at the referee")
        assert field in refused.value.message_dict
    with pytest.raises(ValidationError, match="Only a VP deduction names which deduction"):
        record_penalty(arguing.pk, user=referee, kind=Penalty.Kind.WARNING, deduction="arguing", reason="Loud")
    record_penalty(arguing.pk, user=referee, kind=Penalty.Kind.VP_DEDUCTION, vp=2, deduction="arguing",
                   reason="Shouted at the referee")
    record_penalty(cheating.pk, user=referee, kind=Penalty.Kind.VP_DEDUCTION, vp=5, deduction="cheating",
                   reason="Hid a card")
    assert sorted(Penalty.objects.values_list("deduction", "vp")) == [("arguing", 2), ("cheating", 5)]
    assert AuditEntry.objects.filter(action="penalty.vp_deduction", after__deduction="arguing").exists()


def test_the_penalty_form_offers_only_the_rulesets_deductions_and_a_crafted_post_is_refused(client):
    """The national form offers no VP deduction (lateness is recorded from the minutes); a post crafted by hand
    with one is refused and records nothing. The Lord of Catan form offers its two deductions, each with its VP."""
    national = make_tournament(ruleset="cnc-2022")
    (entry,) = make_entries(national, 1)
    client.force_login(make_official(national))
    url = reverse("referee-penalties", args=[national.slug])
    page = client.get(url)
    kinds = [value for value, _label in page.context["form"].fields["kind"].choices]
    assert "vp_deduction" not in kinds and "lateness" in kinds
    assert "deduction" not in page.context["form"].fields and 'name="vp"' not in page.content.decode()
    response = client.post(url, {"entry": entry.pk, "kind": "vp_deduction", "vp": 3, "reason": "Slow play"})
    assert response.status_code == 422 and not Penalty.objects.exists()

    club = make_tournament(ruleset="lord-of-catan")
    (player,) = make_entries(club, 1)
    client.force_login(make_official(club))
    url = reverse("referee-penalties", args=[club.slug])
    form = client.get(url).context["form"]
    assert list(form.fields["deduction"].choices) == [
        ("", "—"), ("arguing", "arguing against a ruling (2 VP)"),
        ("cheating", "cheating (the organizers' fine) (VP as the organizers decide)")]
    assert "lateness" not in [value for value, _label in form.fields["kind"].choices]
    response = client.post(url, {"entry": player.pk, "kind": "vp_deduction", "deduction": "arguing",
                                 "reason": "Argued the robber ruling loudly"})
    assert response.status_code == 302
    assert Penalty.objects.get(entry=player).vp == 2  # the fixed deduction fills in its VP
    listed = client.get(url).content.decode()
    assert "VP deduction (arguing against a ruling)" in listed


def test_a_deduction_recorded_before_the_rules_named_them_still_counts(django_user_model):
    """Deductions already recorded stay counted: a national VP deduction from before keeps its VP off the total
    (001 §6 "deducted from their total scores"), though no new one can be recorded."""
    tournament = make_tournament()
    referee = make_official(tournament)
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    play(game.tables.get(), [10, 8, 6, 4], referee)
    Penalty.objects.create(tournament=tournament, entry=entries[0], kind=Penalty.Kind.VP_DEDUCTION, vp=2,
                           reason="Recorded by an earlier version", recorded_by=referee)
    assert next(row["total_vp"] for row in compute_standings(tournament) if row["entry"] == entries[0].pk) == 8
