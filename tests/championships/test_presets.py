"""Format presets create the championships of docs/rules.md §1 with their numbers."""
from datetime import date

import pytest
from django.core.exceptions import ValidationError

from championships.models import RULESET_CHOICES
from championships.presets import PRESETS
from championships.services import create_championship_from_preset
from tests.factories import make_admin

pytestmark = pytest.mark.django_db


def outline(championship):
    return [
        (t.kind, t.city, t.date, t.advance_count, t.capacity,
         [(s.kind, s.games, s.seating, s.players) for s in t.stages.order_by("order")])
        for t in championship.tournaments.order_by("date", "pk")
    ]


def test_uae_2022():
    championship = create_championship_from_preset("uae-2022", user=make_admin())
    assert championship.country.code == "AE"
    assert championship.age_cutoff == date(2022, 11, 17)
    assert outline(championship) == [
        ("qualifier", "Dubai", date(2022, 6, 11), 8, None, [("preliminary", 3, "scheduled", None)]),
        ("qualifier", "Abu Dhabi", date(2022, 9, 3), 8, None, [("preliminary", 3, "scheduled", None)]),
        ("finals", "Dubai", date(2022, 9, 10), 0, 16,
         [("preliminary", 3, "scheduled", None), ("final", 1, "seeded", 4)]),
    ]


def test_ksa_2022_finals_is_one_game_of_four():
    championship = create_championship_from_preset("ksa-2022", user=make_admin())
    qualifiers = [t for t in outline(championship) if t[0] == "qualifier"]
    assert [(q[1], q[2], q[3]) for q in qualifiers] == [
        ("Jeddah", date(2022, 6, 18), 2), ("Riyadh", date(2022, 6, 24), 2),
    ]
    assert outline(championship)[-1] == ("finals", "Riyadh", date(2022, 9, 9), 0, 4,
                                         [("preliminary", 1, "scheduled", None)])


def test_jordan_2022_has_no_qualifiers():
    assert outline(create_championship_from_preset("jordan-2022", user=make_admin())) == [
        ("finals", "Amman", date(2022, 8, 5), 0, None,
         [("preliminary", 3, "scheduled", None), ("final", 1, "seeded", 4)]),
    ]


def test_lebanon_2022_has_three_qualifiers_and_24_finalists():
    rows = outline(create_championship_from_preset("lebanon-2022", user=make_admin()))
    assert [r[2] for r in rows] == [date(2022, 7, 2), date(2022, 7, 23), date(2022, 8, 20), date(2022, 9, 3)]
    assert [r[3] for r in rows[:3]] == [8, 8, 8] and rows[3][4] == 24


def test_ksa_2022_edition_000_plays_the_riyadh_qualifier_the_day_before_the_finals():
    """Seed 000 §3 KSA CNC Format: Jeddah 18 June, Riyadh 10 September, finals in Riyadh on 11 September."""
    rows = outline(create_championship_from_preset("ksa-2022-edition-000", user=make_admin()))
    assert rows == [
        ("qualifier", "Jeddah", date(2022, 6, 18), 2, None, [("preliminary", 3, "scheduled", None)]),
        ("qualifier", "Riyadh", date(2022, 9, 10), 2, None, [("preliminary", 3, "scheduled", None)]),
        ("finals", "Riyadh", date(2022, 9, 11), 0, 4, [("preliminary", 1, "scheduled", None)]),
    ]


def test_jordan_2022_edition_000_finals_on_2_september():
    """Seed 000 §3 JORDAN CNC Format: no qualifiers, finals in Amman on 2 September (001: 5 August)."""
    assert outline(create_championship_from_preset("jordan-2022-edition-000", user=make_admin())) == [
        ("finals", "Amman", date(2022, 9, 2), 0, None,
         [("preliminary", 3, "scheduled", None), ("final", 1, "seeded", 4)]),
    ]


def test_lebanon_2022_edition_000_has_batroun_and_beirut_and_16_finalists():
    """Seed 000 §3 LEBANON CNC Format: Batroun 9 July, Beirut 27 August, top 8 each, 16 finalists on 10 September.

    The English text names no city for the finals; the Arabic text beside it says Beirut.
    """
    championship = create_championship_from_preset("lebanon-2022-edition-000", user=make_admin())
    assert championship.country.code == "LB" and championship.preset == "lebanon-2022-edition-000"
    assert outline(championship) == [
        ("qualifier", "Batroun", date(2022, 7, 9), 8, None, [("preliminary", 3, "scheduled", None)]),
        ("qualifier", "Beirut", date(2022, 8, 27), 8, None, [("preliminary", 3, "scheduled", None)]),
        ("finals", "Beirut", date(2022, 9, 10), 0, 16,
         [("preliminary", 3, "scheduled", None), ("final", 1, "seeded", 4)]),
    ]
    assert list(championship.tournaments.order_by("date").values_list("name", flat=True)) == [
        "Batroun qualifier", "Beirut qualifier", "Championship finals"]


def test_both_editions_of_the_national_rules_are_offered_and_named_by_edition():
    """Seeds 000 and 001 §3: the formats differ for KSA, Jordan and Lebanon, so each has a preset per edition;
    UAE is the same in both. The plain keys (used by the demo and older championships) follow edition 001."""
    for country in ("ksa", "jordan", "lebanon"):
        edition_001, edition_000 = PRESETS[f"{country}-2022"], PRESETS[f"{country}-2022-edition-000"]
        assert str(edition_001.title).endswith("(edition 001)") and edition_001.source.startswith("seed 001, §3")
        assert str(edition_000.title).endswith("(edition 000)") and edition_000.source.startswith("seed 000, §3")
        assert edition_001.tournaments != edition_000.tournaments
    assert str(PRESETS["lebanon-2022-edition-000"].title) == "Lebanon 2022 (edition 000)"
    assert all(preset.title and preset.source for preset in PRESETS.values())
    assert len({str(preset.title) for preset in PRESETS.values()}) == len(PRESETS)


def test_uae_has_a_preset_per_edition_with_the_same_format_and_edition_000s_one_minute():
    """Seed 000 §3 (UAE CNC Format, in English and in Arabic) gives the UAE exactly 001 §3's format: qualifiers in
    Dubai on 11 June and Abu Dhabi on 3 September, three games, the top 8 of each to a finals of 16 in Dubai on
    10 September, three games then the top 4 at a final game. What differs is 000 §5, "Timed turn length is limited
    to one minute" (001 §5: three minutes): one `uae-2022` preset for both editions could not give a UAE event of
    edition 000 its limit (issue 32 item 8e)."""
    edition_001, edition_000 = PRESETS["uae-2022"], PRESETS["uae-2022-edition-000"]
    assert (str(edition_001.title), edition_001.source) == ("UAE 2022 (edition 001)", "seed 001, §3 UAE CNC Format")
    assert (str(edition_000.title), edition_000.source) == ("UAE 2022 (edition 000)", "seed 000, §3 UAE CNC Format")
    assert edition_000.tournaments == edition_001.tournaments
    assert (edition_001.turn_seconds_max, edition_000.turn_seconds_max) == (None, 60)
    championship = create_championship_from_preset("uae-2022-edition-000", user=make_admin())
    assert championship.preset == "uae-2022-edition-000" and championship.country.code == "AE"
    assert [t[1:5] for t in outline(championship)] == [
        ("Dubai", date(2022, 6, 11), 8, None), ("Abu Dhabi", date(2022, 9, 3), 8, None),
        ("Dubai", date(2022, 9, 10), 0, 16)]


def test_world_championship_stages():
    championship = create_championship_from_preset("world-championship", user=make_admin())
    (world,) = championship.tournaments.all()
    assert world.ruleset == "cwc-2025" and world.kind == "world"
    assert outline(championship)[0][5] == [
        ("preliminary", 4, "scheduled", None), ("semifinal", 1, "seeded", 16), ("final", 1, "seeded", 4),
    ]


def test_lord_of_catan_stages():
    championship = create_championship_from_preset("lord-of-catan", user=make_admin())
    (club,) = championship.tournaments.all()
    assert club.ruleset == "lord-of-catan"
    assert outline(championship)[0][5] == [
        ("preliminary", 1, "scheduled", None), ("semifinal", 1, "seeded", 16), ("final", 1, "seeded", 4),
    ]


def test_preset_moved_to_another_year_keeps_day_and_month():
    championship = create_championship_from_preset("uae-2022", year=2026, user=make_admin())
    assert championship.name == "CATAN National Championship UAE 2026"
    assert championship.age_cutoff == date(2026, 11, 17)
    assert [t[2] for t in outline(championship)] == [date(2026, 6, 11), date(2026, 9, 3), date(2026, 9, 10)]


def test_same_preset_twice_gets_distinct_slugs():
    first = create_championship_from_preset("uae-2022", user=make_admin())
    second = create_championship_from_preset("uae-2022", user=make_admin())
    assert first.slug != second.slug
    assert not set(first.tournaments.values_list("slug", flat=True)) & set(
        second.tournaments.values_list("slug", flat=True))


def test_unknown_preset_is_refused():
    with pytest.raises(ValidationError, match="Unknown format preset"):
        create_championship_from_preset("nope", user=make_admin())


def test_every_preset_uses_a_known_ruleset():
    assert {p.ruleset for p in PRESETS.values()} <= {key for key, _ in RULESET_CHOICES}
