"""Every page and action of the site opened with hostile addresses and query strings (issue 9, the harness).

Huge or unknown ids in the path, junk in `?game=`, `?page=`, `?q=`, `?kind=` and the like: never a server
error (the test client re-raises any uncaught exception) and, for GET, nothing written. And every form a
page shows, posted with other values: never a server error, and nothing written when refused.
"""
from html.parser import HTMLParser

import pytest
from django.contrib import messages
from django.db import transaction
from django.test import Client
from django.urls import NoReverseMatch, reverse
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.db_snapshot import changed, snapshot
from tests.fuzz.scale import SCALE
from tests.test_permission_matrix import SITE_URLS

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=3 * SCALE, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

BIG = [0, 1, 2, 2**31, 2**63, 10**30]
text = st.one_of(st.text(max_size=30), st.sampled_from(["", "0", "-1", "1", "2", "999999999999999999999", "NaN",
                                                        "x" * 3000, "\x00", "%00", "../", "<b>", "1e309"]))
PARAMS = ["game", "page", "q", "kind", "task", "next", "table", "stage", "format", "lang", "sort", "status", "day",
          "part"]


def kwarg(world, name: str):
    ids = {"stage_id": world.stage.pk, "game_id": world.game.pk, "table_id": world.open_table.pk,
           "entry_id": world.all_entries[0], "number": world.game.number}
    if name == "slug":
        return st.sampled_from([world.tournament.slug, "no-such-tournament", "a" * 300])
    if name.endswith("slug"):
        return st.one_of(st.sampled_from([world.tournament.championship.slug, "a" * 300]),
                         st.from_regex(r"[-a-zA-Z0-9_]{1,20}", fullmatch=True))
    if name.endswith("_id") and name != "task_id" or name == "number":
        return st.sampled_from([ids.get(name, 1), *BIG])
    if name == "address":  # any other address under /api/v1/, segment by segment
        segment = st.text(st.characters(blacklist_characters="/", blacklist_categories=["Cs"]), min_size=1, max_size=20)
        return st.lists(st.one_of(segment, st.sampled_from(["tournaments", "championships", "players", "%00"])),
                        max_size=3).map(lambda parts: "".join(f"{part}/" for part in parts))
    if name == "uidb64":
        return st.sampled_from(["MQ", "x", "A" * 200])
    return st.text(st.characters(blacklist_characters="/", blacklist_categories=["Cs"]), min_size=1, max_size=40)


@pytest.fixture
def organizer(fuzz_world):
    client = Client()
    client.force_login(fuzz_world.organizer)
    return client


@pytest.mark.parametrize("url", SITE_URLS, ids=lambda url: url.name)
@FUZZ
@given(data=st.data())
def test_no_address_or_query_breaks_a_page(fuzz_world, organizer, url, data):
    try:
        path = reverse(url.name, kwargs={name: data.draw(kwarg(fuzz_world, name)) for name in url.kwargs})
    except NoReverseMatch:
        reject()  # a value the URL's converter does not take never reaches a view
    query = data.draw(st.dictionaries(st.sampled_from(PARAMS), text, max_size=3))
    with transaction.atomic():
        before = snapshot()
        response = organizer.get(path, query)
        after = snapshot()
        transaction.set_rollback(True)
    assert response.status_code < 500
    assert not changed(before, after), (path, query, changed(before, after))


class _Forms(HTMLParser):
    """The POST forms of a page: action, and per field name the values the page offers (inputs, options)."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, dict[str, list[str]]]] = []
        self._fields: dict[str, list[str]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._fields = {}
            self.forms.append((attrs.get("action") or "", self._fields))
        elif self._fields is not None and attrs.get("name") and tag in ("input", "textarea", "select", "button"):
            if attrs.get("type") != "file":
                self._fields.setdefault(attrs["name"], []).append(attrs.get("value") or "")
            self._select = attrs["name"] if tag == "select" else None
        elif tag == "option" and self._fields is not None and self._select:
            self._fields[self._select].append(attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._fields = None


def forms_of(content: str, page: str) -> list[tuple[str, dict[str, list[str]]]]:
    parser = _Forms()
    parser.feed(content)
    common = (reverse("set_language"), reverse("logout"))  # on every page, and fuzzed on their own
    return [(action or page, fields) for action, fields in parser.forms
            if (action or page).startswith("/") and "csrfmiddlewaretoken" in fields and action not in common]


@pytest.mark.parametrize("url", [u for u in SITE_URLS if u.name not in ("login", "logout", "password_change",
                                                                         "set_language")], ids=lambda url: url.name)
def test_every_form_a_page_shows_survives_hostile_values(fuzz_world, organizer, url):
    """Whatever the forms of a page are (new ones included), posting them with changed values never breaks
    the site, and a refusal writes nothing."""
    kwargs = {"slug": fuzz_world.tournament.slug, "stage_id": fuzz_world.stage.pk, "game_id": fuzz_world.game.pk,
              "table_id": fuzz_world.open_table.pk, "number": fuzz_world.game.number,
              "championship_slug": fuzz_world.tournament.championship.slug}
    if set(url.kwargs) - kwargs.keys():
        return  # pages about one player, penalty, job...: their forms are those of the pages above
    page = reverse(url.name, kwargs={k: kwargs[k] for k in url.kwargs})
    response = organizer.get(page)
    forms = forms_of(response.content.decode(errors="replace"), page) if response.status_code == 200 else []
    if not forms:
        return

    @settings(FUZZ, max_examples=4 * len(forms) * SCALE)
    @given(data=st.data())
    def post_one(data):
        action, fields = data.draw(st.sampled_from(forms))
        body = {name: data.draw(st.one_of(st.sampled_from(offered), st.sampled_from(offered), text))
                for name, offered in fields.items()
                if name != "csrfmiddlewaretoken" and data.draw(st.integers(0, 5))}
        organizer.cookies.pop("messages", None)
        with transaction.atomic():
            before = snapshot(exclude={"scheduling.PlanningJob"})
            response = organizer.post(action, body)
            after = snapshot(exclude={"scheduling.PlanningJob"})
            transaction.set_rollback(True)
        assert response.status_code < 500
        said = [m for m in messages.get_messages(response.wsgi_request) if m.level >= messages.WARNING]
        if response.status_code >= 400 or said:
            assert not changed(before, after), (action, body, response.status_code, said, changed(before, after))

    post_one()
