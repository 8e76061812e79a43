"""The organizer sets up the embed for other websites (issue 38 item 4): lists the websites that may frame it on
the console page, is refused anything but origins, and copies the `<iframe>` snippet."""
import html

import pytest

from audit.actions import Action
from audit.models import AuditEntry
from championships.embedding import TEXT_MAX
from tests.factories import make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    return make_tournament(slug="cup", name="Dubai Cup")


def test_the_console_lists_the_websites_and_gives_the_snippet(client, cup):
    client.force_login(make_official(cup, "organizer"))
    assert 'href="/organize/cup/embed/"' in client.get("/organize/cup/").content.decode()
    page = client.get("/organize/cup/embed/").content.decode()
    assert "No website is listed yet" in page and f'maxlength="{TEXT_MAX}"' in page
    snippet = html.unescape(page.split('id="embed-snippet"')[1].split(">", 1)[1].split("</textarea>")[0])
    assert snippet == ('<iframe src="https://catan.example/t/cup/embed/" title="Dubai Cup: standings and seating" '
                       'width="100%" height="640" loading="lazy"></iframe>')
    response = client.post("/organize/cup/embed/", {"origins": "https://Federation.example/\nhttp://127.0.0.1:8123"})
    assert response.status_code == 302
    page = client.get("/organize/cup/embed/").content.decode()
    assert "https://federation.example\nhttp://127.0.0.1:8123</textarea>" in page and "No website is listed" not in page
    assert AuditEntry.objects.filter(tournament=cup, action=Action.TOURNAMENT_EMBED_ORIGINS.value).count() == 1
    assert "Websites allowed to show the embed changed" in client.get("/organize/cup/activity/").content.decode()
    assert "frame-ancestors https://federation.example http://127.0.0.1:8123" in client.get(
        "/t/cup/embed/")["Content-Security-Policy"]


@pytest.mark.parametrize("typed", [
    "https://example.org/page", "example.org", " ".join(f"https://s{n}.example" for n in range(11)),
    "https://a.example\n" + "x" * TEXT_MAX])
def test_anything_but_a_short_list_of_origins_is_refused_on_the_form(client, cup, typed):
    client.force_login(make_official(cup, "organizer"))
    response = client.post("/organize/cup/embed/", {"origins": typed})
    assert response.status_code == 422
    assert "errorlist" in response.content.decode()
    assert not AuditEntry.objects.filter(action=Action.TOURNAMENT_EMBED_ORIGINS.value).exists()


def test_a_referee_may_not_change_them(client, cup):
    client.force_login(make_official(cup, "referee"))
    assert client.post("/organize/cup/embed/", {"origins": "https://evil.example"}).status_code == 403
    assert "frame-ancestors 'none'" in client.get("/t/cup/embed/")["Content-Security-Policy"]
