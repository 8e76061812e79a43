"""The player's private link (championships/links.py): long, random, stored as a digest, the same in every email,
rotated by an organizer."""
import re
import threading

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from audit.models import AuditEntry
from championships import links
from championships.models import PlayerLink
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def test_a_link_is_long_random_and_only_its_digest_is_stored():
    player, other = (entry.player for entry in make_entries(make_tournament(), 2))
    token = links.issue(player)
    assert len(token) >= 43 and links.issue(other) != token
    (stored,) = PlayerLink.objects.filter(player=player).values("digest", "secret")
    assert token not in stored.values() and stored["digest"] == links.digest(token)
    assert links.player_for(token) == player
    for wrong in ("", "x", token[:-1] + ("A" if token[-1] != "A" else "B"), token + "/", "../" + token, "é" * 43):
        assert links.player_for(wrong) is None


def test_every_email_carries_the_same_link_and_asking_again_stores_nothing():
    """Issue 33 item 6: a resend never stops a link working, and the stored links do not grow with the asking."""
    player = make_entries(make_tournament(), 1)[0].player
    first = links.issue(player)
    assert {links.issue(player) for _ in range(20)} == {first}
    assert PlayerLink.objects.filter(player=player).count() == 1 and links.player_for(first) == player


def test_the_link_is_derived_with_the_sites_secret_key(settings):
    """The stored secret alone (a copy of the database) makes another token; a new SECRET_KEY leaves the old link
    working and makes the one emails carry from then on."""
    player = make_entries(make_tournament(), 1)[0].player
    first = links.issue(player)
    settings.SECRET_KEY = "another key, as after a leak" + "x" * 40
    second = links.issue(player)
    assert second != first and links.issue(player) == second
    assert links.player_for(first) == player and links.player_for(second) == player
    assert PlayerLink.objects.filter(player=player).count() == 2
    assert PlayerLink.objects.filter(player=player).exclude(secret="").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)")
def test_emails_sent_at_once_to_a_new_player_carry_one_link():
    player = make_entries(make_tournament(), 1)[0].player
    barrier, tokens = threading.Barrier(8), []

    def send():
        barrier.wait()
        try:
            tokens.append(links.issue(player))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(tokens) == 8 and len(set(tokens)) == 1
    assert PlayerLink.objects.filter(player=player).count() == 1


def test_an_organizer_rotates_a_link_and_every_old_one_stops_working(django_capture_on_commit_callbacks):
    tournament = make_tournament()
    entry = make_entries(tournament, 1, email="ann@example.com")[0]
    PlayerLink.objects.create(player=entry.player, digest=links.digest("made-before-the-stable-link" + "x" * 20))
    old = [links.issue(entry.player), "made-before-the-stable-link" + "x" * 20]
    organizer = make_official(tournament, "organizer")
    with django_capture_on_commit_callbacks(execute=True):
        player, shown = links.rotate(entry.player_id, user=organizer, tournament=tournament)
    assert shown is None  # emailed, not shown
    assert all(links.player_for(token) is None for token in old)
    (sent,) = mail.outbox
    new = re.search(r"http\S+/me/\S+/", sent.body).group(0)
    assert sent.to == ["ann@example.com"] and "no longer works" in sent.body
    assert links.player_for(token_of(new)) == player
    logged = AuditEntry.objects.get(action="player.link_rotated")
    assert logged.user == organizer and logged.after["links_removed"] == 2 and token_of(new) not in str(logged.after)


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
