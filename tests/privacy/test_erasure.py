"""Erasure (privacy/erasure.py): the name becomes a pseudonym everywhere, the details go, and standings, ratings and
the standings PDF are identical but for the name; asked from the player's page (confirmed by the emailed link) or
by an organizer of every tournament they played, on a written request; audited without the data."""
import io
import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from audit.models import AuditEntry
from backup.export import tournament_json
from championships.models import Player, PlayerLink, PushSubscription, Registration
from core.names import fold
from privacy.erasure import erase, pseudonym
from privacy.models import Erasure
from ranking.printing import standings_pdf
from ranking.standings import tournament_standings
from ratings.models import PlayerRating, RatingChange
from results.models import SheetRevision
from tests.factories import make_official, make_tournament
from tests.site import open_link

pytestmark = pytest.mark.django_db

OLD = ("Maria Vella", "p0@example.com", "1980-02-03", "Sliema")


def _figures(played):
    """Everything a result is: the standings, every rating and rating change, the PDF's text."""
    standings = json.dumps(tournament_standings(played.tournament), default=str, sort_keys=True)
    ratings = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "ordinal", "games"))
    changes = sorted(RatingChange.objects.values_list("player_id", "table_id", "mu_before", "mu", "sigma", "place"))
    pdf = "".join(page.extract_text() for page in PdfReader(io.BytesIO(standings_pdf(played.tournament, "a4"))).pages)
    pdf, printed = re.subn(r"Printed [^\n]*", "Printed …", pdf)  # when it was laid out: a minute may pass
    assert printed
    return standings, ratings, changes, pdf


def _nowhere(*texts) -> None:
    """None of `texts` is left in the activity log, the sheets' versions or a player row."""
    kept = json.dumps([list(AuditEntry.objects.values_list("before", "after", "reason")),
                       list(SheetRevision.objects.values_list("data", "reason")),
                       list(Player.objects.values_list("name", "email")),
                       list(Registration.objects.values_list("name", "email", "city"))], default=str)
    for text in texts:
        assert text.lower() not in kept.lower(), text


def test_an_erased_players_results_ratings_and_pdf_are_identical_but_for_the_name(
        played, django_capture_on_commit_callbacks):
    before = _figures(played)
    assert "Maria Vella" in before[3]
    with django_capture_on_commit_callbacks(execute=True):  # the cached standings and PDF are replaced on commit
        erase(played.player.pk, by=Erasure.By.ORGANIZER, user=played.organizer,
              reason="Letter of 30 Nov from Maria Vella")
    name = pseudonym(played.player.pk)
    after = _figures(played)
    assert after[0] == before[0].replace("Maria Vella", name)
    assert after[1:3] == before[1:3]
    assert after[3] == before[3].replace("Maria Vella", name)
    player = Player.objects.get(pk=played.player.pk)
    assert (player.name, player.email, player.date_of_birth, player.search_name) == (name, "", None, fold(name))
    assert not PlayerLink.objects.filter(player=player).exists()
    assert not PushSubscription.objects.filter(player=player).exists()
    registration = Registration.objects.get(player=player)
    assert (registration.name, registration.city) == (name, "") and "p0@" not in registration.email
    _nowhere(*OLD)
    # the others are untouched
    assert Player.objects.filter(email="p1@example.com", date_of_birth__year=1981).exists()
    logged = AuditEntry.objects.get(action="player.erased")
    assert logged.after == {"player": name, "by": "organizer"} and logged.reason == f"Letter of 30 Nov from {name}"
    assert logged.tournament == played.tournament and logged.user == played.organizer
    assert Erasure.objects.get().player_id == player.pk


def test_the_player_asks_from_their_page_and_confirms_by_the_emailed_link(client, played,
                                                                           django_capture_on_commit_callbacks):
    page = client.get(reverse("players-me-data", args=[played.token])).content.decode()
    assert reverse("players-me-erase", args=[played.token]) in page
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(reverse("players-me-erase", args=[played.token]))
    assert asked.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["p0@example.com"]
    link = re.search(r"https?://\S+/me/erase/\S+/", message.body).group(0)
    shown = open_link(client, link)  # a mail scanner opening it erases nothing
    assert shown.status_code == 200 and not Erasure.objects.exists()
    assert Player.objects.get(pk=played.player.pk).email == "p0@example.com"
    done = open_link(client, link, "post")
    assert done.status_code == 200 and Erasure.objects.get().by == "player"
    assert Player.objects.get(pk=played.player.pk).name == pseudonym(played.player.pk)
    assert client.get(reverse("players-me", args=[played.token])).status_code == 404
    assert open_link(client, link, "post").status_code == 404  # used
    _nowhere(*OLD)


def test_only_an_organizer_of_every_tournament_they_played_erases(played):
    elsewhere = make_official(make_tournament(slug="other"), "organizer")
    url = reverse("organize-player-erase", args=[played.tournament.slug, played.player.pk])
    outsider = Client()
    outsider.force_login(elsewhere)
    assert outsider.post(url, {"request": "x", "confirm": "on"}).status_code in (403, 404)
    organizer = Client()
    organizer.force_login(played.organizer)
    assert organizer.get(url).status_code == 200
    refused = organizer.post(url, {"request": ""})
    assert refused.status_code == 422 and not Erasure.objects.exists()
    assert organizer.post(url, {"request": "Email of 30 November", "confirm": "on"}).status_code == 302
    assert Player.objects.get(pk=played.player.pk).name == pseudonym(played.player.pk)


def test_an_older_export_does_not_bring_the_player_back(played, tmp_path):
    from tests.backup.test_backup import import_file, wipe

    file = tmp_path / "malta.json"
    file.write_text(tournament_json(played.tournament), encoding="utf-8")
    assert "Maria Vella" in file.read_text(encoding="utf-8")
    number = played.player.pk
    erase(number, by=Erasure.By.ORGANIZER, user=played.organizer)
    wipe()  # the database lost everything but the record of the erasure
    said = import_file(file)
    assert "erased" in said
    player = Player.objects.get(entries__tournament__slug="malta-cup", name=pseudonym(number))
    assert (player.email, player.date_of_birth) == ("", None)
    _nowhere(*OLD)
    assert Player.objects.filter(email="p1@example.com").exists()
