"""A country is shown in the reader's language (django-countries' translations) wherever its name appears; the
stored English name stays for search and backups, and the CSV downloads keep the ISO code."""
import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

EMIRATES = {"en": "United Arab Emirates", "ar": "الإمارات العربية المتحدة", "he": "איחוד האמירויות",
            "fa": "امارات متحده عربی"}


@pytest.fixture
def event():
    tournament = make_tournament(slug="names-cup")  # championship and players in the UAE
    entry = make_entries(tournament, 1)[0]
    organizer = make_official(tournament, "organizer")
    client = Client()
    client.force_login(organizer)
    return tournament, entry, client


def _pages(tournament, entry) -> dict[str, str]:
    return {
        "public player": reverse("public-player", args=[tournament.slug, entry.player_id]),
        "public championship": reverse("public-championship", args=[tournament.championship.slug]),
        "organizer championship": reverse("organize-championship", args=[tournament.championship.slug]),
        "players": reverse("organize-players", args=[tournament.slug]),
        "entries": reverse("organize-entries", args=[tournament.slug]),
        "check-in": reverse("organize-checkin", args=[tournament.slug]),
    }


@pytest.mark.parametrize("language", ["en", "ar", "he", "fa"])
def test_pages_name_countries_in_the_readers_language(event, language):
    tournament, entry, client = event
    prefix = "" if language == "en" else f"/{language}"
    for page, path in _pages(tournament, entry).items():
        html = client.get(prefix + path).content.decode()
        assert EMIRATES[language] in html, f"{page} ({language})"
        if language != "en":
            assert "United Arab Emirates" not in html, f"{page} ({language})"


def test_csv_keeps_the_iso_code(event):
    tournament, _entry, client = event
    paths = [reverse(name, args=[tournament.slug])
             for name in ("organize-players-csv", "organize-entries-csv", "organize-checkin-csv")]
    for path in paths:
        body = client.get("/ar" + path).content.decode()
        assert ",AE," in body and "الإمارات" not in body, path
