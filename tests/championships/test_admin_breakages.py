"""The admin no longer errors on what issue 11 found: inline tournaments, staff before the first save, presets."""
import pytest
from django.urls import reverse

from championships.models import Championship, StaffRole, Tournament
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def championship_data(**extra) -> dict:
    data = {"name": "Gulf Cup", "slug": "gulf-cup", "scope": "club", "country": "", "year": "2030",
            "age_cutoff": "", "minimum_age": "18", "tournaments-TOTAL_FORMS": "0", "tournaments-INITIAL_FORMS": "0",
            "tournaments-MIN_NUM_FORMS": "0", "tournaments-MAX_NUM_FORMS": "1000"}
    return {**data, **extra}


def inline_tournament(n: int, **fields) -> dict:
    row = {"name": "Qualifier", "slug": "", "kind": "club", "ruleset": "cnc-2022", "city": "", "date": "",
           "status": "draft", "advance_count": "0", **fields}
    return {f"tournaments-{n}-{key}": value for key, value in row.items()}


def test_two_inline_tournaments_with_empty_slugs_get_distinct_slugs_and_the_home_page_works(admin_client):
    data = championship_data(**{"tournaments-TOTAL_FORMS": "2"}, **inline_tournament(0), **inline_tournament(1))
    response = admin_client.post(reverse("admin:championships_championship_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    slugs = sorted(Tournament.objects.values_list("slug", flat=True))
    assert slugs == ["gulf-cup-qualifier", "gulf-cup-qualifier-2"]
    assert admin_client.get(reverse("home")).status_code == 200


def test_an_inline_tournament_without_a_ruleset_is_refused_with_a_message(admin_client):
    data = championship_data(**{"tournaments-TOTAL_FORMS": "1"}, **inline_tournament(0, ruleset=""))
    response = admin_client.post(reverse("admin:championships_championship_add"), data)
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not Championship.objects.exists() and not Tournament.objects.exists()


def test_a_reserved_slug_is_refused(admin_client):
    response = admin_client.post(reverse("admin:championships_championship_add"), championship_data(slug="new"))
    assert response.status_code == 200 and "reserved" in response.content.decode()
    assert not Championship.objects.exists()


def test_the_format_preset_is_not_free_text_in_the_admin(admin_client):
    page = admin_client.get(reverse("admin:championships_championship_add")).content.decode()
    assert 'name="preset"' not in page


def test_a_staff_role_added_with_a_new_tournament_saves_without_an_error(admin_client):
    referee = make_user("ref-one")
    data = {"name": "Club night", "slug": "club-night", "kind": "club", "ruleset": "cnc-2022", "city": "",
            "venue": "", "date": "", "official_start": "", "status": "draft", "advance_count": "0", "capacity": "",
            "championship": "",
            "stages-TOTAL_FORMS": "1", "stages-INITIAL_FORMS": "0", "stages-0-order": "1",
            "stages-0-kind": "preliminary",
            "stages-0-name": "Round", "stages-0-games": "3", "stages-0-seating": "scheduled", "stages-0-players": "",
            "staff-TOTAL_FORMS": "1", "staff-INITIAL_FORMS": "0", "staff-0-user": str(referee.pk),
            "staff-0-role": "referee", "staff-0-championship": "",
            "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"}
    response = admin_client.post(reverse("admin:championships_tournament_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert StaffRole.objects.filter(user=referee, tournament__slug="club-night", role="referee").exists()
