"""A championship's tournaments are listed in the order they happen, wherever they are listed (issue 20 item 11).

On the trial day every tournament had the same date, so the name decided: Abu Dhabi, the finals, Dubai.
"""
import pytest
from django.urls import reverse

from championships.models import StaffRole
from championships.services import create_championship_from_preset
from tests.factories import make_admin, make_user

pytestmark = pytest.mark.django_db

IN_ORDER = ["Dubai qualifier", "Abu Dhabi qualifier", "Championship finals"]
"""The UAE preset's order (seed 001 §3): both qualifiers, then the finals; alphabetically the finals come second."""


def first_positions(page: str, names: list[str]) -> list[str]:
    """`names` in the order they first appear in the page."""
    assert all(name in page for name in names), [name for name in names if name not in page]
    return sorted(names, key=page.index)


@pytest.fixture(params=["one day", "no dates"])
def championship(request):
    championship = create_championship_from_preset("uae-2022", user=make_admin(), year=2030)
    day = championship.tournaments.order_by("pk").first().date if request.param == "one day" else None
    championship.tournaments.update(date=day)
    return championship


def test_a_championships_tournaments_are_listed_qualifiers_first_even_on_one_day(client, championship):
    organizer = make_user()
    StaffRole.objects.create(user=organizer, role="organizer", championship=championship)
    referee = make_user()
    for tournament in championship.tournaments.all():
        StaffRole.objects.create(user=referee, role="referee", tournament=tournament)

    assert [t.name for t in championship.tournaments.all()] == IN_ORDER
    public = [reverse("public-championship", args=[championship.slug]), reverse("home")]
    for url in public:
        assert first_positions(client.get(url).content.decode(), IN_ORDER) == IN_ORDER, url
    assert [row["name"] for row in client.get("/api/tournaments/").json()] == IN_ORDER
    client.force_login(organizer)
    for url in (reverse("organize-home"), reverse("organize-championship", args=[championship.slug])):
        assert first_positions(client.get(url).content.decode(), IN_ORDER) == IN_ORDER, url
    client.force_login(referee)  # the referee's list is latest first
    page = client.get(reverse("referee-home")).content.decode()
    assert first_positions(page, IN_ORDER) == IN_ORDER[::-1]
