"""A player's own copy (privacy/export.py, /me/<token>/data/): every row the registry names about them, and no
one else's."""
import json

import pytest
from django.db.models import Model
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import override

from core.personal_data import holdings
from privacy.export import FIELD_LABELS, _fields, label

pytestmark = pytest.mark.django_db

EXPECTED = {"championships.player", "championships.entry", "championships.registration", "championships.playerlink",
            "championships.pushsubscription", "scheduling.seat", "results.score", "results.signature",
            "results.penalty", "results.sheetrevision", "ratings.playerrating", "ratings.ratingchange",
            "audit.auditentry"}
"""What the fixture leaves about the player: identity, entries, results, penalties, ratings, registrations, push
subscriptions and the activity log's entries about them."""


def test_the_json_holds_every_row_the_registry_names_about_the_player(client, played):
    response = client.get(reverse("players-me-data-json", args=[played.token]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)["data"]
    for holding in holdings():
        rows: list[Model] = list(holding.of(played.player))
        exported = data.get(holding.label, {"rows": []})["rows"]
        assert sorted(row[holding.model._meta.pk.attname] for row in exported) == sorted(r.pk for r in rows), \
            holding.label
    assert set(data) >= EXPECTED
    assert data["championships.player"]["rows"][0]["email"] == "p0@example.com"
    assert data["championships.player"]["rows"][0]["name"] == "Maria Vella"
    assert {"digest", "secret"}.isdisjoint(data["championships.playerlink"]["rows"][0])
    assert len(data["championships.entry"]["rows"]) == 1 and len(data["scheduling.seat"]["rows"]) == 2
    assert any(row["action"] == "player.updated" for row in data["audit.auditentry"]["rows"])
    others = {f"p{n}@example.com" for n in range(1, 8)}
    assert not any(email in response.content.decode() for email in others)


def test_the_readable_page_shows_the_same_and_links_the_download(client, played):
    me = client.get(reverse("players-me", args=[played.token])).content.decode()
    assert reverse("players-me-data", args=[played.token]) in me
    page = client.get(reverse("players-me-data", args=[played.token]))
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert "p0@example.com" in html and "Sliema" in html and "Slow play, told twice" in html
    assert reverse("players-me-data-json", args=[played.token]) in html
    assert client.get(reverse("players-me-data", args=["x" * 43])).status_code == 404


def test_every_field_on_the_readable_page_has_a_label_in_the_readers_language():
    """A field whose model gives no label would be shown by its name, in English on every page (the Arabic copy
    read "Tournament", "Created at"): each gets one of FIELD_LABELS, a translation."""
    for holding in holdings():
        for field in _fields(holding):
            assert isinstance(field.verbose_name, Promise) or field.name in FIELD_LABELS, (holding.label, field.name)
    seat = next(h for h in holdings() if h.label == "scheduling.seat")
    with override("de"):
        assert [label(f) for f in _fields(seat)][:4] == ["ID", "Tisch", "Partie", "Teilnahme"]
