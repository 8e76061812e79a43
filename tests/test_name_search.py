"""One name search (issue 24 item 5): every page where a person types a name finds it the same way, and every list
by name is in one multilingual order.

The public "where do I sit?" folded accents and Arabic/Persian letter variants; the check-in desk did not ("tomas"
did not find "Tomás", ی did not find ي); the stage page only casefolded; the import had its own NFKC fold. Now
`core.names.fold` is the one fold, kept by each player in an indexed column, and `core.names.sort_key` (the Unicode
Collation Algorithm) orders names: "Émile" next to "Emile", not after "Z".
"""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from attendance import checkin
from championships import rosters
from championships.models import Player
from championships.services import assign_staff
from core.names import fold, sort_key
from scheduling.selectors import stage_page
from tests.factories import make_admin, make_game, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db

NAMES = ["Zoe Adams", "Tomás Ruiz", "علی رضایی", "كريم حداد", "Emile Durand", "Adam Smith", "Émile Zola", "émile Roy"]
"""Stored as typed: Persian yeh in علی, Arabic kaf in كريم, the accents and the lower case as given."""
SEARCHES = [
    ("tomas", "Tomás Ruiz"),
    ("TOMÁS", "Tomás Ruiz"),
    ("علي", "علی رضایی"),  # Arabic yeh typed, Persian stored
    ("رضائي", "علی رضایی"),  # the hamza seat ئ read as the yeh under it, as Persian spells رضائی and رضایی
    ("tomasz", None),
    ("کریم", "كريم حداد"),  # Persian keheh and yeh typed, Arabic kaf and yeh stored
    ("كريم", "كريم حداد"),
]


def _seated(slug: str, names: list[str]):
    """A running tournament of these players, seated at two tables, and its organizer."""
    tournament = make_tournament(slug=slug, status="running")
    entries = [tournament.entries.create(player=make_player(name)) for name in names]
    game = make_game(tournament, [entries[:4], entries[4:]])
    return tournament, entries, game, make_official(tournament, "organizer")


@pytest.fixture
def hall():
    return _seated("hall", NAMES)


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.mark.parametrize("typed, found", SEARCHES)
def test_the_check_in_desk_finds_a_name_as_it_is_typed(client, hall, typed, found):
    tournament, _entries, _game, organizer = hall
    assert [e.player.name for e in checkin.entries(tournament, typed)] == ([found] if found else [])
    client.force_login(organizer)
    page = text(client.get(reverse("organize-checkin", args=[tournament.slug]), {"q": typed}))
    assert all((name in page) == (name == found) for name in NAMES)


@pytest.mark.parametrize("typed, found", SEARCHES)
def test_where_do_i_sit_finds_a_name_as_it_is_typed(client, hall, typed, found):
    page = text(client.get(reverse("public-where", args=["hall"]), {"q": typed}))
    assert all((name in page) == (name == found) for name in NAMES)


@pytest.mark.parametrize("typed, found", SEARCHES)
def test_the_stage_page_finds_a_name_as_it_is_typed(hall, typed, found):
    tournament, _entries, _game, _organizer = hall
    page = stage_page(tournament.stages.get(), query=typed)
    assert [p.name for p in page.found] == ([found] if found else [])


@pytest.mark.parametrize("typed, found", SEARCHES)
def test_the_players_and_entries_lists_find_a_name_as_it_is_typed(client, hall, typed, found):
    tournament, _entries, _game, organizer = hall
    assert [p.name for p in rosters.players(tournament, organizer, typed)] == ([found] if found else [])
    assert [e.player.name for e in rosters.entries(tournament, make_admin(), typed)] == ([found] if found else [])
    client.force_login(organizer)
    for page in ("organize-players", "organize-entries-csv"):
        html = text(client.get(reverse(page, args=[tournament.slug]), {"q": typed}))
        assert all((name in html) == (name == found) for name in NAMES), page
    other = make_tournament(championship=tournament.championship)
    entered_elsewhere = other.entries.create(player=make_player("Tomasz Nowák")).player
    assign_staff(organizer, "organizer", tournament=other, user=make_admin())
    candidates = text(client.get(reverse("organize-entries", args=[tournament.slug]), {"q": "nowak"}))
    assert entered_elsewhere.name in candidates


ORDER = ["Adam Smith", "Emile Durand", "émile Roy", "Émile Zola", "Tomás Ruiz", "Zoe Adams", "علی رضایی", "كريم حداد"]
"""The collation's order: accents and case second to the letters (émile Roy between Emile Durand and Émile Zola:
"roy" < "zola"), Latin before Arabic script."""


def test_lists_by_name_follow_the_collation(client, hall):
    tournament, _entries, game, organizer = hall
    assert [p.name for p in rosters.players(tournament, organizer)] == ORDER
    assert [e.player.name for e in rosters.entries(tournament, make_admin())] == ORDER
    assert [e.player.name for e in checkin.entries(tournament)] == ORDER
    assert [name for _pk, name in rosters.entered_players(tournament, make_admin())] == ORDER
    client.force_login(organizer)
    page = text(client.get(reverse("organize-players", args=[tournament.slug])))
    assert [page.index(name) for name in ORDER] == sorted(page.index(name) for name in ORDER)
    from ranking.printing import seating_sheet
    assert [seat.name for seat, _table in seating_sheet(tournament, game).alphabetical] == ORDER


def test_the_keys_are_kept_on_every_write_of_a_name(hall):
    player = make_player("Zoë Ångström")
    assert (player.search_name, bytes(player.sort_key)) == ("zoe angstrom", sort_key("Zoë Ångström"))
    player.name = "Ἀριστοτέλης"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert player.search_name == "αριστοτελησ" and bytes(player.sort_key) == sort_key("Ἀριστοτέλης")
    made = Player.objects.bulk_create([Player(name="Łukasz Nowak"), Player(name="Jürgen Groß")])
    for one in made:
        one.name = one.name.upper()
    Player.objects.bulk_update(made, ["name"])
    Player.objects.filter(pk=player.pk).update(name="Ægir")
    kept = dict(Player.objects.filter(pk__in=[player.pk, *(p.pk for p in made)]).values_list("name", "search_name"))
    assert kept == {"ŁUKASZ NOWAK": "lukasz nowak", "JÜRGEN GROSS": "jurgen gross", "Ægir": "aegir"}
    assert all(bytes(k) == sort_key(n) for n, k in Player.objects.values_list("name", "sort_key"))


def test_an_imported_list_keeps_the_keys_and_matches_a_registered_player_by_the_fold():
    from championships.list_file import read_upload
    from championships.people import import_list
    other = make_tournament()
    organizer = make_official(other, "organizer")
    records, _problems = read_upload("list.csv", b"name,date_of_birth\nNadia Ferreira,1991-02-03\n")
    import_list(other, records, user=organizer)
    nadia = Player.objects.get(name="Nadia Ferreira")
    assert nadia.search_name == "nadia ferreira" and bytes(nadia.sort_key) == sort_key("Nadia Ferreira")
    records, _problems = read_upload("again.csv", "name,date_of_birth\nnádia ferreira,1991-02-03\n".encode())
    import_list(other, records, user=organizer)
    assert Player.objects.filter(search_name="nadia ferreira").count() == 1  # the same person, linked


def test_the_migration_fills_the_keys_of_registered_players(hall):
    from importlib import import_module

    from django.apps import apps
    migration = import_module("championships.migrations.0008_player_search_name_and_sort_key")
    Player.objects.all().update(search_name="", sort_key=b"")
    migration.fill_name_keys(apps, None)
    assert all(s == fold(n) and bytes(k) == sort_key(n)
               for n, s, k in Player.objects.values_list("name", "search_name", "sort_key"))


def test_the_check_in_search_takes_no_more_queries(client, hall):
    tournament, _entries, _game, organizer = hall
    client.force_login(organizer)
    path = reverse("organize-checkin", args=[tournament.slug])
    client.get(path, {"q": "tomas"})
    with CaptureQueriesContext(connection) as plain:
        client.get(path)
    with CaptureQueriesContext(connection) as searched:
        client.get(path, {"q": "tomas"})
    assert len(searched) <= len(plain)


LATIN = ["Michał Wiśniewski", "Søren Hansen", "Đorđe Petrović", "Ægir Jónsson", "Łukasz Kowalski", "Þóra Björk",
         "Oğuz Işık", "Jürgen Groß"]
"""Latin letters that Unicode does not decompose (issue 32 item 7): ł, ø, đ, æ, þ and ı have no accent to drop."""
LATIN_SEARCHES = [
    ("michal", "Michał Wiśniewski"), ("MICHAŁ", "Michał Wiśniewski"),
    ("soren", "Søren Hansen"), ("SØREN", "Søren Hansen"),
    ("dorde", "Đorđe Petrović"), ("ĐORĐE", "Đorđe Petrović"), ("đorđe", "Đorđe Petrović"),
    ("aegir", "Ægir Jónsson"), ("ÆGIR", "Ægir Jónsson"),
    ("lukasz", "Łukasz Kowalski"), ("ŁUKASZ", "Łukasz Kowalski"), ("łukasz", "Łukasz Kowalski"),
    ("thora", "Þóra Björk"), ("ÞÓRA", "Þóra Björk"),
    ("isik", "Oğuz Işık"), ("IŞIK", "Oğuz Işık"),
    ("gross", "Jürgen Groß"), ("GROẞ", "Jürgen Groß"),
]


def test_every_latin_letter_of_the_table_folds_plain_in_both_cases():
    from core.names import LATIN_LETTERS
    for letter, plain in LATIN_LETTERS.items():
        assert fold(letter) == fold(letter.upper()) == plain, letter
    assert fold("Straße") == fold("STRASSE") == fold("STRAẞE") == "strasse"
    assert fold("İstanbul") == fold("istanbul") == "istanbul"


@pytest.fixture
def latin():
    return _seated("latin", LATIN)


@pytest.mark.parametrize("typed, found", LATIN_SEARCHES)
def test_the_desk_and_the_players_list_find_latin_letters_typed_plain(client, latin, typed, found):
    tournament, _entries, _game, organizer = latin
    client.force_login(organizer)
    for page in ("organize-checkin", "organize-players"):
        html = text(client.get(reverse(page, args=[tournament.slug]), {"q": typed}))
        assert [name for name in LATIN if name in html] == [found], page


@pytest.mark.parametrize("typed, found", [("lukasz", "Łukasz Kowalski"), ("SOREN", "Søren Hansen")])
def test_every_other_search_finds_latin_letters_typed_plain(client, latin, typed, found):
    """Entries, "where do I sit?", the stage page: the same fold (the ratings search compares the same column)."""
    tournament, _entries, _game, organizer = latin
    assert [e.player.name for e in rosters.entries(tournament, organizer, typed)] == [found]
    assert [p.name for p in stage_page(tournament.stages.get(), query=typed).found] == [found]
    page = text(client.get(reverse("public-where", args=["latin"]), {"q": typed}))
    assert [name for name in LATIN if name in page] == [found]


def test_the_import_and_the_namesakes_match_latin_letters_typed_plain(latin):
    from championships.list_file import read_upload
    from championships.namesakes import entry_numbers
    from championships.people import import_list
    tournament, entries, _game, organizer = latin
    records, _problems = read_upload("list.csv", b"name,date_of_birth\nLukasz Kowalski,1990-01-01\n")
    other = make_tournament(championship=tournament.championship)
    assign_staff(organizer, "organizer", tournament=other, user=make_admin())
    import_list(other, records, user=organizer)
    assert Player.objects.filter(search_name="lukasz kowalski").count() == 1  # the same person, linked
    soren = tournament.entries.create(player=make_player("Soren Hansen"))
    numbers = entry_numbers([(e.pk, e.player.name) for e in [*entries, soren]])
    assert numbers == {entries[1].pk: 1, soren.pk: 2}


def test_the_migration_refolds_the_search_names_already_stored(latin):
    """Rows stored by the earlier fold ("łukasz kowalski") are recomputed; the others are left as they are."""
    from importlib import import_module

    from django.apps import apps
    migration = import_module("championships.migrations.0012_refold_latin_letters")
    Player.objects.filter(name="Łukasz Kowalski").update(search_name="łukasz kowalski")
    Player.objects.filter(name="Ægir Jónsson").update(search_name="ægir jonsson")
    assert not rosters.entries(latin[0], latin[3], "lukasz")
    with CaptureQueriesContext(connection) as queries:
        migration.refold(apps, None)
    assert dict(Player.objects.filter(name__in=["Łukasz Kowalski", "Ægir Jónsson", "Jürgen Groß"])
                .values_list("name", "search_name")) == {
        "Łukasz Kowalski": "lukasz kowalski", "Ægir Jónsson": "aegir jonsson", "Jürgen Groß": "jurgen gross"}
    assert [e.player.name for e in rosters.entries(latin[0], latin[3], "lukasz")] == ["Łukasz Kowalski"]
    assert sum(q["sql"].startswith("UPDATE") for q in queries) == 1  # the two changed rows, in one statement
