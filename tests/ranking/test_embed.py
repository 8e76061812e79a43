"""The embed for a federation's website (issue 38 item 4): `/t/<slug>/embed/` shows the standings, the current
game's seating and "where do I sit?"; only the websites its organizers listed may frame it, every other page
refuses any frame; it is cached whole for anonymous readers like the other public pages."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.actions import Action
from audit.models import AuditEntry
from championships.embedding import frame_origins, normalized_origin, parse_origins, set_embed_origins
from tests.factories import make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(cup):
    return make_official(cup, "organizer")


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return {d.split()[0]: d.strip() for d in policy.split(";") if d.strip()}


def test_without_listed_sites_the_embed_is_framed_by_nobody(client, cup):
    response = client.get("/t/cup/embed/")
    assert response.status_code == 200
    assert directives(response)["frame-ancestors"] == "frame-ancestors 'none'"
    assert "X-Frame-Options" not in response  # the policy says it all; X-Frame-Options cannot name a site


def test_the_listed_sites_and_only_they_may_frame_the_embed(client, cup, organizer, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        set_embed_origins(cup.pk, "https://catan-federation.example\nhttp://127.0.0.1:8123", user=organizer)
    response = client.get("/t/cup/embed/")
    policy = directives(response)
    assert policy["frame-ancestors"] == "frame-ancestors https://catan-federation.example http://127.0.0.1:8123"
    assert policy["default-src"] == "default-src 'self'" and policy["script-src"] == "script-src 'self'"
    assert "X-Frame-Options" not in response
    for path in ("/t/cup/", "/t/cup/standings/", "/t/cup/where/?q=a", "/t/cup/games/1/", "/t/cup/overlay/"):
        other = client.get(path)
        assert other.status_code == 200, path
        assert directives(other)["frame-ancestors"] == "frame-ancestors 'none'", path
        assert other["X-Frame-Options"] == "DENY", path


def test_a_cached_answer_and_a_304_carry_the_listed_sites_too(client, cup, organizer,
                                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        set_embed_origins(cup.pk, "https://a.example", user=organizer)
    first = client.get("/t/cup/embed/")
    with CaptureQueriesContext(connection) as queries:
        again = client.get("/t/cup/embed/")
    assert again.content == first.content and len(queries) <= 1  # the page and the origins from the cache
    assert directives(again)["frame-ancestors"] == "frame-ancestors https://a.example"
    unchanged = client.get("/t/cup/embed/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304
    assert directives(unchanged)["frame-ancestors"] == "frame-ancestors https://a.example"
    with django_capture_on_commit_callbacks(execute=True):
        set_embed_origins(cup.pk, "https://b.example", user=organizer)
    assert directives(client.get("/t/cup/embed/"))["frame-ancestors"] == "frame-ancestors https://b.example"


def test_the_embed_shows_standings_seating_and_where_each_player_sits(client, cup):
    name = cup.entries.order_by("pk")[5].player.name
    page = client.get("/t/cup/embed/", {"q": name}).content.decode()
    assert "Standings" in page and "Game 1" in page and "1 of 2 tables signed off" in page
    assert page.count(name) >= 3  # in the answer to the search, at table 2 and in the standings
    assert "Table 2" in page and "position 2" in page
    assert 'target="_blank"' in page and "site-header" not in page
    assert client.get("/t/nowhere/embed/").status_code == 404


def test_before_any_game_the_embed_says_so(client):
    make_tournament(slug="early")
    page = client.get("/t/early/embed/").content.decode()
    assert "seating is published yet: look again" in page and "No results yet." in page


@pytest.mark.parametrize(("typed", "origin"), [
    ("https://Example.ORG", "https://example.org"), ("https://example.org/", "https://example.org"),
    ("https://example.org:443", "https://example.org"), ("http://localhost:8000", "http://localhost:8000"),
    ("http://127.0.0.1:80", "http://127.0.0.1"), ("https://[::1]:8443", "https://[::1]:8443"),
])
def test_an_origin_is_kept_as_a_browser_names_it(typed, origin):
    assert normalized_origin(typed) == origin


@pytest.mark.parametrize("typed", [
    "example.org", "ftp://example.org", "https://example.org/standings", "https://example.org?x=1",
    "https://user@example.org", "https://*.example.org", "javascript:alert(1)", "https://exa_mple.org",
    "https://example.org:99999", "'self'", "https://-bad-.org", "data:text/html,x",
])
def test_anything_but_an_origin_is_refused(typed):
    with pytest.raises(ValueError):
        normalized_origin(typed)
    with pytest.raises(ValidationError):
        parse_origins(typed)


def test_the_list_is_bounded_and_kept_once_per_origin():
    assert parse_origins("https://a.example, https://A.example/\n\nhttps://b.example") == [
        "https://a.example", "https://b.example"]
    with pytest.raises(ValidationError):
        parse_origins(" ".join(f"https://s{n}.example" for n in range(11)))


def test_only_an_organizer_changes_the_list_and_each_change_is_audited(cup, organizer):
    with pytest.raises(PermissionDenied):
        set_embed_origins(cup.pk, "https://a.example", user=make_user())
    with pytest.raises(PermissionDenied):
        set_embed_origins(cup.pk, "https://a.example", user=make_official(cup, "referee"))
    set_embed_origins(cup.pk, "https://a.example", user=organizer)
    set_embed_origins(cup.pk, "https://a.example/", user=organizer)  # the same list: nothing to record
    set_embed_origins(cup.pk, "", user=organizer)
    entries = AuditEntry.objects.filter(action=Action.TOURNAMENT_EMBED_ORIGINS.value).order_by("pk")
    assert [(e.before, e.after) for e in entries] == [
        ({"origins": []}, {"origins": ["https://a.example"]}), ({"origins": ["https://a.example"]}, {"origins": []})]
    assert all(e.user == organizer and e.tournament_id == cup.pk for e in entries)
    assert frame_origins(cup.pk) == []
