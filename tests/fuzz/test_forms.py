"""Every form of the referee's and organizer's screens, and the sign-in, fed hostile input (issue 9, the harness).

Properties, for every POST: no server error (the test client re-raises any uncaught exception); when the
answer is a refusal (4xx, or an error or warning message) the database is exactly as before, and the
page says what is wrong. Hypothesis runs derandomized, so CI sees the same examples every time.
"""
import csv
import io
import uuid

import pytest
from django.contrib import messages
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from results.limits import SIGNATURE_IMAGE_MAX, TEXT_MAX
from tests import hostile_files as hostile
from tests.db_snapshot import changed, snapshot
from tests.fuzz.scale import SCALE
from tests.ssrf import LITERAL_HOSTS, SPECIAL_NAMES

pytestmark = pytest.mark.django_db


def fuzz(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


NASTY = ["", " ", "0", "-1", "1", "2", "999999999999999999999999", "-9223372036854775809", "NaN", "inf", "1e309",
         "1.5", "1_0", "０", "true", "null", "None", "[]", "{}", "\x00", "a\x00b", "<script>alert(1)</script>",
         "' OR 1=1 --", "=HYPERLINK(\"x\")", "\u202e", "😀" * 10, "x" * (TEXT_MAX + 1), "y" * 20_000,
         "00:00", "23:59", "24:00", "12:99", "-1:00", "2022-06-11", str(uuid.UUID(int=7)), "not-a-uuid"]
nasty = st.one_of(st.sampled_from(NASTY), st.text(max_size=40), st.integers(-10**20, 10**20).map(str))


def values(*good) -> st.SearchStrategy:
    """Mostly plausible values (so that whole forms pass and the services are reached), sometimes anything."""
    plausible = st.sampled_from([str(v) for v in good])
    return st.one_of(*[plausible] * 6, nasty) if good else nasty


@st.composite
def _near(draw, valid: list[dict], fields: dict) -> dict:
    """A valid body with a few of its fields changed to anything, or dropped."""
    data = dict(draw(st.sampled_from(valid)))
    for key in draw(st.lists(st.sampled_from(sorted(fields)), max_size=2, unique=True)):
        if draw(st.booleans()):
            data[key] = draw(st.one_of(fields[key], nasty))
        else:
            data.pop(key, None)
    return data


def body(fields: dict, valid: list[dict] | None = None) -> st.SearchStrategy:
    """A POST body: a valid one, one near it, every field or any subset of them (some maybe repeated), and
    perhaps a stray field."""
    every = st.fixed_dictionaries(fields)
    some = st.fixed_dictionaries({}, optional=fields)
    shapes = [every, every, some]
    if valid:
        shapes += [st.sampled_from(valid), _near(valid, fields), _near(valid, fields)]
    repeated = st.fixed_dictionaries({}, optional={k: st.lists(v, min_size=2, max_size=3) for k, v in fields.items()})
    stray = st.dictionaries(st.text(min_size=1, max_size=8), nasty, max_size=2)
    return st.builds(lambda a, b, c: {**c, **a, **b}, st.one_of(*shapes),
                     st.one_of(*[st.just({})] * 4, repeated), st.one_of(st.just({}), stray))


def valid_sheets(entries, version, results=((10, 8, 6, 4), (7, 10, 9, 3), (12, 0, 0, 0), (10, 9, 9, 9))):
    """Whole tables that pass (a winner with at least 10 VP), with and without clock times."""
    sheets = []
    for vps in results:
        winner = entries[vps.index(max(vps))]
        sheet = {"base_version": str(version), "winner": str(winner),
                 **{f"vp_{e}": str(v) for e, v in zip(entries, vps)}}
        sheets += [sheet, {**sheet, "start_time": "10:00", "end_time": "11:35"}]
    return sheets


def post(client: Client, path: str, data: dict, *, exclude=frozenset()):
    """POST, roll back, and check the properties; returns the response."""
    client.cookies.pop("messages", None)  # only this request's messages count
    with transaction.atomic():
        before = snapshot(exclude)
        response = client.post(path, data)
        after = snapshot(exclude)
        transaction.set_rollback(True)
    cache.clear()
    assert response.status_code < 500, response.status_code
    said = [(m.level, str(m)) for m in messages.get_messages(response.wsgi_request)]
    refused = response.status_code >= 400 or any(level >= messages.WARNING for level, _ in said)
    if currently_in_test_context():  # see --hypothesis-show-statistics
        event(f"{response.status_code}, {'refused' if refused else 'done'}")
    if refused:
        assert not changed(before, after), (path, data, response.status_code, said, changed(before, after))
        if response.status_code in (400, 422):
            content = response.content.decode()
            # an error list, or a message on top (role="alert" alone is not enough: the sheet always has one)
            assert said or 'class="errorlist' in content, (path, data, "no message shown")
    return response


@pytest.fixture
def organizer(fuzz_world):
    client = Client()
    client.force_login(fuzz_world.organizer)
    return client


def sheet_fields(world, entries, version):
    return {
        "base_version": values(version, version - 1, version + 1),
        "winner": values(*entries, world.locked_entries[0] if entries != world.locked_entries else entries[0]),
        "start_time": values("10:00", "13:30", "23:50"), "end_time": values("11:30", "00:10", "10:00"),
        **{f"vp_{e}": values(*range(0, 13), 13) for e in entries},
    }


@fuzz(25)
@given(data=st.data())
def test_score_entry(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-scores", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body(sheet_fields(w, w.open_entries, 1), valid_sheets(w.open_entries, 1))))


@fuzz(25)
@given(data=st.data())
def test_signatures(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-sign", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body({
        "entry": values(*w.open_entries, w.locked_entries[0]), "version": values(1, 0, 2),
        "method": values("tap", "drawn", "overruled", "TAP"),
        "image": values("M 0 0 L 10 10", "M0,0", "x" * (SIGNATURE_IMAGE_MAX + 1)),
        "decision": values("The scores match the paper sheet.", "x" * (TEXT_MAX + 1)),
    }, [{"entry": str(e), "version": "1", "method": method, "image": image, "decision": decision}
        for e in w.open_entries for method, image, decision in (
            ("tap", "", ""), ("drawn", "M 0 0 L 10 10", ""), ("overruled", "", "The player left."))])))


@fuzz(10)
@given(data=st.data())
def test_sign_off(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-sign-off", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body({"version": values(1, 0, 2)})))


@fuzz(25)
@given(data=st.data())
def test_corrections_with_reasons(fuzz_world, organizer, data):
    w = fuzz_world
    w.locked_table.sheet.refresh_from_db()
    path = reverse("referee-correct", args=[w.tournament.slug, w.locked_table.pk])
    version = w.locked_table.sheet.version
    post(organizer, path, data.draw(body({
        **sheet_fields(w, w.locked_entries, version),
        "reason": values("The paper sheet says 7 VP.", "   ", "x" * (TEXT_MAX + 1)),
    }, [{**sheet, "reason": "The paper sheet says so."} for sheet in valid_sheets(w.locked_entries, version)])))


@fuzz(10)
@given(data=st.data())
def test_play_order(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-play-order", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body({f"position_{n}": values(*w.open_entries) for n in range(1, 5)})))


@fuzz(10)
@given(data=st.data())
def test_banker(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-banker", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body({
        "banker": values("referee", *w.open_entries, w.locked_entries[0]),
        "was": values(w.open_entries[0], "referee", w.open_entries[1]),
    }, [{"banker": str(w.open_entries[2]), "was": str(w.open_entries[0])}, {"banker": "referee",
                                                                             "was": str(w.open_entries[0])}])))


@fuzz(10)
@given(data=st.data())
def test_timed_turns(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-timed-turns", args=[w.tournament.slug, w.open_table.pk])
    post(organizer, path, data.draw(body({
        "turns": values("on", "off"), "seconds": values(10, 120, 180, 181, 9, 0),
        "placement_seconds": values(60, ""),
    }, [{"turns": "on", "seconds": "120"}, {"turns": "off"}])))


@fuzz(30)
@given(data=st.data())
def test_penalties_and_rulings(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-penalties", args=[w.tournament.slug])
    ruling = f"ruling{w.ruling_id}"
    post(organizer, path, data.draw(body({
        "entry": values(*w.all_entries), "partner": values(*w.all_entries),
        "kind": values("lateness", "warning", "collusion", "vp_deduction", "disqualification"),
        "minutes": values(0, 5, 15, 16, 300), "vp": values(1, 2, 40, 41), "ground": values("rules", "conduct"),
        "deduction": values("", "arguing", "cheating"),
        "game": values(w.game.pk), "reason": values("Slow play.", "x" * (TEXT_MAX + 1)),
        "request_key": values(uuid.UUID(int=1), uuid.UUID(int=2)),
        "ruling": values(w.ruling_id, w.ruling_id + 1000), f"{ruling}-disqualify": values("yes", "no"),
        f"{ruling}-reason": values("Third time.", "x" * (TEXT_MAX + 1)),
    }, [{"entry": str(w.all_entries[4]), "kind": "vp_deduction", "vp": "2", "reason": "Slow play."},
        {"entry": str(w.all_entries[5]), "kind": "lateness", "minutes": "7"},
        {"entry": str(w.all_entries[5]), "kind": "warning", "reason": "Loud.", "request_key": str(uuid.UUID(int=3))},
        {"entry": str(w.all_entries[6]), "kind": "collusion", "partner": str(w.all_entries[7]), "reason": "Trade."},
        {"entry": str(w.all_entries[9]), "kind": "disqualification", "ground": "conduct", "reason": "Abuse."},
        {"ruling": str(w.ruling_id), f"{ruling}-disqualify": "no", f"{ruling}-reason": "First offence."}])))


@fuzz(20)
@given(data=st.data())
def test_draws(fuzz_world, organizer, data):
    w = fuzz_world
    path = reverse("referee-draws", args=[w.tournament.slug])
    ranks = (1, 3, 5, 7)
    fields = {"rank": values(*ranks, 2, 99)}
    for rank in ranks:
        fields |= {f"tie{rank}-method": values("cards", "lots"), f"tie{rank}-note": values("Drawn at the desk."),
                   **{f"tie{rank}-place_{n}": values(*w.all_entries) for n in (1, 2)}}
    post(organizer, path, data.draw(body(fields, [
        {"rank": str(rank), f"tie{rank}-method": "cards", f"tie{rank}-place_1": str(w.all_entries[first]),
         f"tie{rank}-place_2": str(w.all_entries[first + 4])} for rank, first in zip(ranks, range(4))])))


@fuzz(5)
@given(data=st.data())
def test_generate(fuzz_world, organizer, data):
    """Every game is published, so planning is refused; the planning job's own row records that refusal."""
    w = fuzz_world
    path = reverse("stage-generate", args=[w.tournament.slug, w.stage.pk])
    post(organizer, path, data.draw(body({"seed": values(0, 1, 2**31 - 1, 2**31)})),
         exclude={"scheduling.PlanningJob"})


@fuzz(12)
@given(data=st.data())
def test_swap(fuzz_world, organizer, data):
    """Seats named as the page shows them ("table.position"), ticked or typed."""
    w = fuzz_world
    path = reverse("game-swap", args=[w.tournament.slug, w.stage.pk, w.game.pk])
    seat = values("1.1", "2.4", "3.2", "1.9", "99.1", "٣.١", "1-2", "12 3")
    post(organizer, path, data.draw(body({"seat": st.lists(seat, max_size=3), "first": seat, "second": seat,
                                          "layout": values("", "3x4", "x" * 17)},
                                         [{"first": a, "second": b, "layout": "3x4"} for a, b in (("1.1", "2.4"),
                                                                                                 ("3.1", "3.2"))])))


ACTIONS = ["game-publish", "game-unpublish", "game-repair-status", "stage-seed", "stage-clear",
           "qualification-advance", "qualification-replace"]


@pytest.mark.parametrize("name", ACTIONS)
@fuzz(4)
@given(data=st.data())
def test_publish_and_qualification_actions(fuzz_world, organizer, name, data):
    w = fuzz_world
    kwargs = {"slug": w.tournament.slug, "stage_id": w.stage.pk, "game_id": w.game.pk,
              "entry_id": w.all_entries[0]}
    route = {"game-publish": ("slug", "stage_id", "game_id"), "game-unpublish": ("slug", "stage_id", "game_id"),
             "game-repair-status": ("slug", "stage_id", "game_id"), "stage-seed": ("slug", "stage_id"),
             "stage-clear": ("slug", "stage_id"),
             "qualification-advance": ("slug",), "qualification-replace": ("slug", "entry_id")}[name]
    post(organizer, reverse(name, kwargs={k: kwargs[k] for k in route}), data.draw(body({"confirm": values("1")})))


@fuzz(12)
@given(data=st.data())
def test_announcements(fuzz_world, organizer, data):
    path = reverse("referee-announce", args=[fuzz_world.tournament.slug])
    post(organizer, path, data.draw(body({"text": values("Lunch until 13:30.", "x" * 5000)})))


@fuzz(15)
@given(data=st.data())
def test_sign_in(fuzz_world, data):
    """Wrong sign-ins are counted by django-axes (that write is the point), nothing else changes."""
    response = post(Client(), reverse("login"), data.draw(body({
        "username": values("fuzz-organizer", "FUZZ-ORGANIZER", "nobody"),
        "password": values("pw-for-tests-only", "wrong"),
        "next": values("/organize/", "https://evil.example/", "//evil.example", "javascript:alert(1)"),
    })), exclude={"axes.AccessAttempt", "axes.AccessLog", "axes.AccessFailureLog", "auth.User"})
    if response.status_code == 302:  # never away from the site
        assert url_has_allowed_host_and_scheme(response["Location"], {"testserver"}), response["Location"]


ROSTER_HEADERS = [["name", "email", "date_of_birth", "country", "friends_or_family"], ["name"], ["Name", "Country"],
                  ["name", "name"], ["email"], []]
roster_cell = st.one_of(
    st.sampled_from(["Ann Lee", "Bob", "ann@example.com", "not-an-email", "1990-01-01", "2019-01-01", "1990-02-30",
                     "01/02/1990", "AE", "DE", "Germany", "ZZ", "Bob; Ann Lee", "Ann Lee;Ann Lee", "=cmd|'/c calc'!A1",
                     "", " ", "x" * 300, "\x00", "😀", "9" * 40]),
    st.text(max_size=20),
)


def _roster_csv(header, rows, delimiter=",") -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\n").writerows([header, *rows])
    return buffer.getvalue().encode()


valid_rosters = st.builds(lambda n, extra: _roster_csv(ROSTER_HEADERS[0], [
    [f"Fuzz Player {k}", f"fuzz{k}@example.com", "1990-01-01", "AE", ""] for k in range(n)] + extra),
    st.integers(1, 6), st.one_of(st.just([]), st.lists(st.lists(roster_cell, min_size=5, max_size=5), max_size=1)))
roster_files = st.one_of(
    st.binary(max_size=300),
    st.builds(_roster_csv, st.sampled_from(ROSTER_HEADERS), st.lists(st.lists(roster_cell, max_size=6), max_size=8)),
    st.builds(_roster_csv, st.sampled_from(ROSTER_HEADERS[:1]), st.lists(st.lists(roster_cell, min_size=5,
                                                                                  max_size=5), max_size=8),
              st.sampled_from([",", ";", "\t"])),
    st.builds(lambda b: "\ufeff".encode() + b, st.builds(_roster_csv, st.sampled_from(ROSTER_HEADERS[:1]),
                                                        st.lists(st.lists(roster_cell, min_size=5, max_size=5)))),
    st.just(b""), st.just(b"PK\x03\x04not really a zip"), st.just("name\nÄnn\n".encode("latin-1")),
    st.just("name\nAnn\n".encode("utf-16")),
    st.sampled_from(hostile.ROSTERS).map(lambda build: build()),
)


@fuzz(25)
@given(data=st.data())
def test_roster_upload_and_import(fuzz_world, organizer, data):
    """A preview never writes; its confirmation imports everything or nothing."""
    path = reverse("organize-player-import", args=[fuzz_world.tournament.slug])
    name = data.draw(st.sampled_from(["players.csv"] * 4 + ["players.xlsx", "players.txt", "x" * 190 + ".csv"]))
    upload = SimpleUploadedFile(name, data.draw(valid_rosters if data.draw(st.booleans()) else roster_files))
    enter = data.draw(st.sampled_from(["on", "", "junk"]))
    organizer.cookies.pop("messages", None)
    with transaction.atomic():
        before = snapshot()
        response = organizer.post(path, {"file": upload, "enter": enter})
        after = snapshot()
        assert response.status_code < 500
        assert not changed(before, after), ("a preview wrote", changed(before, after))
        if response.status_code == 422:
            content = response.content.decode()
            assert 'class="errorlist' in content or 'class="message error' in content, "a refused upload says why"
        confirm = response.context and response.context.get("confirm_form")
        if confirm is not None:
            token = confirm.initial.get("token") or confirm["token"].value()
            before = snapshot()
            response = organizer.post(path, {"token": token})
            after = snapshot()
            assert response.status_code < 500
            said = [m for m in messages.get_messages(response.wsgi_request) if m.level >= messages.WARNING]
            if response.status_code >= 400 or said:
                assert not changed(before, after), ("a refused import wrote", changed(before, after))
        transaction.set_rollback(True)
    event(f"{response.status_code}{' previewed' if confirm is not None else ''}")


INSIDE = [f"https://{host}/hook" for host in LITERAL_HOSTS + SPECIAL_NAMES]
"""Webhook addresses that lead back into the server's network, in every form (tests/ssrf.py)."""


@fuzz(20)
@given(data=st.data())
def test_webhook_addresses(fuzz_world, data, settings):
    """The championship's webhook form: hostile values never break it, and an address that leads inside is always
    refused with a message, nothing written (issue 33, item 7)."""
    settings.OUTBOUND_LOCAL_ALLOWED, settings.OUTBOUND_LOCAL_HOSTS = False, []
    client = Client()
    client.force_login(fuzz_world.chief)
    path = reverse("organize-webhooks", args=[fuzz_world.tournament.championship.slug])
    sent = data.draw(body({"url": values("https://hooks.example.org/catan", *INSIDE),
                           "events": values("game.published", "sheet.signed_off", "nonsense")},
                          [{"url": url, "events": "game.published"} for url in INSIDE]))
    response = post(client, path, sent)
    if sent.get("url") in INSIDE:
        assert response.status_code == 422, (sent, response.status_code)


@pytest.mark.parametrize("build", hostile.ROSTERS, ids=["huge-row", "many-cells", "lying-dimension",
                                                         "lying-zip-size", "million-lines", "wide-header"])
def test_hostile_rosters_are_refused_and_say_so(fuzz_world, organizer, build):
    """Issue 22 item 5: each is refused with the file named (a lying dimension: the row it hid is named), or read
    within its limits (the wide header), and nothing is written."""
    path = reverse("organize-player-import", args=[fuzz_world.tournament.slug])
    name = "hostile.csv" if build in hostile.ROSTERS[-2:] else "hostile.xlsx"
    before = snapshot()
    response = organizer.post(path, {"file": SimpleUploadedFile(name, build())})
    assert not changed(before, snapshot())
    content = response.content.decode()
    if build is hostile.ROSTERS[-1]:
        assert response.status_code == 200 and "Ann Lee" in content
    else:
        assert response.status_code == 422
        assert name in content or "line 1" in content, content


@pytest.mark.parametrize("sent", [{"method": "tap"}, {"entry": "1", "version": "1", "method": "tap"}],
                         ids=["unreadable", "not-at-this-table"])
def test_a_refused_signature_says_why(fuzz_world, organizer, sent):
    """The error was only shown inside the panel of the player who signed: a signature without a readable
    player, or of a player of another table, came back 422 with no message at all (found by fuzzing)."""
    w = fuzz_world
    sent = {**sent, "entry": str(w.locked_entries[0])} if "entry" in sent else sent
    response = post(organizer, reverse("referee-sign", args=[w.tournament.slug, w.open_table.pk]), sent)
    assert response.status_code == 422
    said = [str(m) for m in messages.get_messages(response.wsgi_request)]
    assert said in (["The signature could not be read; try again."],
                    ["Only players seated at this table sign its sheet."]), said
    assert said[0] in response.content.decode()


def test_withdrawing_a_penalty_refuses_a_nul_character(fuzz_world, organizer):
    """The reason went to PostgreSQL unchecked: a NUL character was a server error (found by fuzzing)."""
    path = reverse("penalty-withdraw", args=[fuzz_world.tournament.slug, fuzz_world.ruling_id])
    response = post(organizer, path, {"reason": "Recorded\x00by mistake."})
    assert response.status_code == 302
    said = [str(m) for m in messages.get_messages(response.wsgi_request)]
    assert said == ["Null characters are not allowed."], said


@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_a_very_long_username_is_a_failed_sign_in_not_a_server_error(fuzz_world, page):
    """django-axes stored the whole username tried in a 255-character column: a longer one was a server
    error on both sign-in pages (found by fuzzing). The failure still counts, under the first 255 characters."""
    from axes.models import AccessAttempt

    username = "x" * 2001
    response = Client().post(reverse(page), {"username": username, "password": "wrong"})
    assert response.status_code == 200
    assert AccessAttempt.objects.get().username == username[:255]
