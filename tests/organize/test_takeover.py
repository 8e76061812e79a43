"""No organizer takes over another championship's player (issue 33 item 1).

The attack, as deployed: Bob, organizer of a championship of his own, guessed the birth date of a player of the UAE
qualifier who has no email, entered her in his tournament, replaced her private link from his registrations page,
was shown the new `/me/<token>/` (she has no email to send it to), and confirmed her table's result in the UAE
qualifier as her. Now only an organizer of every tournament a player is in sees a new link, and a link shown to an
organizer acts only in the tournaments that organizer runs.
"""
import re
from datetime import date

import pytest
from django.core import mail
from django.test import Client

from audit.models import AuditEntry
from championships import links
from championships.models import Entry, Player, PlayerLink
from results.models import Signature
from results.sheets import SheetInput, save_entry
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"/me/([\w-]{43})/")


class World:
    """The UAE qualifier (Alice) with Yara, who has no email, at a table whose result waits for signatures; Bob's
    tournament of another championship."""

    def __init__(self, client):
        self.uae = make_tournament(slug="uae-qualifier", name="UAE qualifier")
        self.alice = make_official(self.uae, "organizer", "alice")
        self.yara = make_player("Yara Saleh", email="", born=date(1993, 7, 14))
        mine = Entry.objects.create(tournament=self.uae, player=self.yara)
        table = make_game(self.uae, [[mine, *make_entries(self.uae, 3)]]).tables.get()
        self.sheet = save_entry(table.sheet.pk, SheetInput(dict(zip(
            table.seats.order_by("position").values_list("entry_id", flat=True), [10, 8, 6, 4]))),
            user=self.alice, base_version=0)
        self.her_link = links.issue(self.yara)  # the one Alice handed her
        self.bobs = make_tournament(slug="bobs-cup", name="Bob's Cup")
        self.bob = make_official(self.bobs, "organizer", "bob")
        self.a, self.b = Client(), client
        self.a.force_login(self.alice)
        self.b.force_login(self.bob)

    def confirm(self, client, token: str, sheet):
        return client.post(f"/me/{token}/sheets/{sheet.pk}/", {"action": "confirm", "version": sheet.version})


@pytest.fixture
def world(client):
    return World(client)


def test_the_takeover_through_the_pages_fails_at_the_link(world):
    """The attack end to end: entering her works (her name and birth date are what Bob typed), but replacing her link
    is refused, nothing is shown, her own link keeps working, and no result of the UAE qualifier is signed as her."""
    world.b.post("/organize/bobs-cup/entries/add/", {"name": "yara saleh", "born": "1993-07-14"})
    assert Entry.objects.filter(tournament=world.bobs, player=world.yara).exists()
    page = world.b.post("/organize/bobs-cup/private-links/", {"player": world.yara.pk}, follow=True)
    body = page.content.decode()
    assert "has no email, and plays in tournaments you do not organize too" in body
    for token in TOKEN.findall(body):  # whatever link the page shows, the attacker tries it
        world.confirm(world.b, token, world.sheet)
    assert not Signature.objects.exists()
    assert links.player_for(world.her_link) == world.yara
    assert not AuditEntry.objects.filter(action="player.link_rotated").exists()


def test_an_organizer_of_every_tournament_she_is_in_hands_her_a_link_that_acts_only_where_they_organize(world):
    """Alice may replace and see Yara's link while Yara plays only in Alice's tournaments; once Bob has entered her
    too, the link Alice saw still confirms the UAE result but not one of Bob's tournament, and the page says why."""
    page = world.a.post("/organize/uae-qualifier/private-links/", {"player": world.yara.pk}, follow=True)
    (shown,) = set(TOKEN.findall(page.content.decode()))
    assert links.player_for(world.her_link) is None and links.player_for(shown) == world.yara
    assert PlayerLink.objects.get(player=world.yara).shown_to == world.alice
    world.b.post("/organize/bobs-cup/entries/add/", {"name": "Yara Saleh", "born": "1993-07-14"})
    entry = Entry.objects.get(tournament=world.bobs, player=world.yara)
    table = make_game(world.bobs, [[entry, *make_entries(world.bobs, 3)]]).tables.get()
    theirs = save_entry(table.sheet.pk, SheetInput(dict(zip(
        table.seats.order_by("position").values_list("entry_id", flat=True), [10, 7, 5, 3]))),
        user=world.bob, base_version=0)
    refused = world.confirm(world.a, shown, theirs)
    assert refused.status_code == 302 and not Signature.objects.exists()
    own_page = world.a.get(f"/me/{shown}/").content.decode()
    assert "handed to you by the organizers of another event" in own_page
    assert f"/me/{shown}/sheets/{theirs.pk}/" not in own_page and f"/me/{shown}/sheets/{world.sheet.pk}/" in own_page
    world.confirm(world.a, shown, world.sheet)
    assert Signature.objects.get().sheet == world.sheet


def test_a_player_with_an_email_gets_the_new_link_by_email_only_and_every_championship_logs_it(
        world, django_capture_on_commit_callbacks):
    """Bob may replace the link of a player he entered who has an email (a lost phone): it goes to her email, not to
    his page, and the replacement is in the activity log of each tournament she plays in, the UAE's included."""
    Player.objects.filter(pk=world.yara.pk).update(email="yara@example.org")
    world.b.post("/organize/bobs-cup/entries/add/", {"email": "yara@example.org"})
    with django_capture_on_commit_callbacks(execute=True):
        page = world.b.post("/organize/bobs-cup/private-links/", {"player": world.yara.pk}, follow=True)
    body = page.content.decode()
    assert "the new one was emailed to them" in body and not TOKEN.search(body)
    (sent,) = [m for m in mail.outbox if m.subject == "Your new private link"]
    assert sent.to == ["yara@example.org"] and TOKEN.search(sent.body)
    assert PlayerLink.objects.get(player=world.yara).shown_to is None
    assert set(AuditEntry.objects.filter(action="player.link_rotated").values_list("tournament_id", flat=True)) == {
        world.uae.pk, world.bobs.pk}
    log = world.a.get("/organize/uae-qualifier/activity/?kind=player").content.decode()
    assert "replaced from <bdi>Bob&#x27;s Cup</bdi>" in log or "replaced from <bdi>Bob's Cup</bdi>" in log
