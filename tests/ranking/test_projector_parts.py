"""The projector at championship scale (issue 23 item 3): a big game's "find your table" slides come in parts,
one page each, so a page stays small; every part is reachable without JavaScript, and the script moves on."""
import re

import pytest
from django.core.cache import cache

from ranking.public import screen as public
from tests.factories import make_entries, make_game, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(monkeypatch, django_capture_on_commit_callbacks):
    """20 players seated; 3 names a slide and 2 slides a part: 7 slides in 4 parts."""
    monkeypatch.setattr(public, "NAMES_PER_SLIDE", 3)
    monkeypatch.setattr(public, "SEATING_SLIDES_PER_PART", 2)
    tournament = make_tournament(slug="hall", name="Hall", status="running")
    entries = make_entries(tournament, 20)
    with django_capture_on_commit_callbacks(execute=True):
        make_game(tournament, [entries[i:i + 4] for i in range(0, 20, 4)])
    return tournament


def names_shown(page: str) -> list[str]:
    return re.findall(r'<bdi class="screen-name">([^<]+)</bdi>', page)


def test_each_part_shows_its_slides_numbered_across_the_parts(client, hall, monkeypatch):
    with monkeypatch.context() as one_part:
        one_part.setattr(public, "SEATING_SLIDES_PER_PART", 100)
        everyone = names_shown(client.get("/t/hall/screen/").content.decode())  # in the projector's order
    cache.clear()  # that page was stored as part 1
    assert sorted(everyone) == sorted(hall.entries.values_list("player__name", flat=True))
    seen = []
    for part in (1, 2, 3, 4):
        page = client.get(f"/t/hall/screen/?part={part}").content.decode()
        shown = names_shown(page)
        assert len(shown) == (6 if part < 4 else 2)
        seen += shown
        first = 2 * (part - 1) + 1
        assert f"<small>{first}/7</small>" in page
        assert f'data-next-part="/t/hall/screen/?part={part % 4 + 1}"' in page
        assert f'href="/t/hall/screen/?part={part}" aria-current="page"' in page  # the other parts, without script
    assert seen == everyone


@pytest.mark.parametrize("asked, shown", [("", 1), ("0", 1), ("x", 1), ("99", 4), ("3", 3)])
def test_a_part_out_of_range_shows_the_nearest(client, hall, asked, shown):
    page = client.get(f"/t/hall/screen/?part={asked}").content.decode()
    assert f'href="/t/hall/screen/?part={shown}" aria-current="page"' in page


def test_a_game_that_fits_one_part_has_no_parts(client, hall, monkeypatch):
    monkeypatch.setattr(public, "SEATING_SLIDES_PER_PART", 8)
    page = client.get("/t/hall/screen/").content.decode()
    assert len(names_shown(page)) == 20 and "data-next-part" not in page and "screen-parts" not in page
