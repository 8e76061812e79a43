"""The player's private link (championships/links.py): long, random, stored as a digest, rotated by an organizer."""
import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from championships import links
from championships.models import PlayerLink
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def test_a_link_is_long_random_and_only_its_digest_is_stored():
    player = make_entries(make_tournament(), 1, email="ann@example.com")[0].player
    first, second = links.issue(player), links.issue(player)
    assert first != second and len(first) >= 43
    stored = set(PlayerLink.objects.values_list("digest", flat=True))
    assert first not in stored and links.digest(first) in stored
    assert links.player_for(first) == player and links.player_for(second) == player
    for wrong in ("", "x", first[:-1] + ("A" if first[-1] != "A" else "B"), first + "/", "../" + first, "é" * 43):
        assert links.player_for(wrong) is None


def test_a_player_keeps_the_newest_links_only():
    player = make_entries(make_tournament(), 1)[0].player
    tokens = [links.issue(player) for _ in range(links.KEPT + 2)]
    assert links.player_for(tokens[0]) is None and links.player_for(tokens[1]) is None
    assert all(links.player_for(token) == player for token in tokens[2:])


def test_an_organizer_rotates_a_link_and_every_old_one_stops_working(django_capture_on_commit_callbacks):
    tournament = make_tournament()
    entry = make_entries(tournament, 1, email="ann@example.com")[0]
    old = [links.issue(entry.player) for _ in range(3)]
    organizer = make_official(tournament, "organizer")
    with django_capture_on_commit_callbacks(execute=True):
        player, new = links.rotate(entry.player_id, user=organizer, tournament=tournament)
    assert all(links.player_for(token) is None for token in old)
    assert links.player_for(token_of(new)) == player
    (sent,) = mail.outbox
    assert sent.to == ["ann@example.com"] and new in sent.body and "no longer works" in sent.body
    logged = AuditEntry.objects.get(action="player.link_rotated")
    assert logged.user == organizer and logged.after["links_removed"] == 3 and token_of(new) not in str(logged.after)


def test_only_an_organizer_of_a_tournament_the_player_is_in_may_rotate():
    tournament, elsewhere = make_tournament(), make_tournament()
    entry = make_entries(tournament, 1)[0]
    with pytest.raises(PermissionDenied):
        links.rotate(entry.player_id, user=make_official(tournament, "referee"), tournament=tournament)
    with pytest.raises(ValidationError):  # through their own tournament, a player they have not entered
        links.rotate(entry.player_id, user=make_official(elsewhere, "organizer"), tournament=elsewhere)


def test_a_link_is_sent_again_only_to_an_email_that_plays(django_capture_on_commit_callbacks):
    tournament = make_tournament()
    make_entries(tournament, 1, email="ann@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        assert links.send_again("ANN@example.com") is True
        assert links.send_again("nobody@example.com") is False
    (sent,) = mail.outbox
    assert sent.to == ["ann@example.com"] and "https://catan.example/me/" in sent.body
    assert AuditEntry.objects.get(action="player.link_sent").tournament == tournament
