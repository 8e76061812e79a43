"""The players' pages on their phones (web/players): register and confirm, the private link and its resend, the
check-in QR code, confirming a result, calendar files; what each page keeps private."""
import logging
import re
from datetime import date, time
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from attendance import self_checkin
from championships import links
from championships.models import Entry, Player, Registration
from results.models import Signature
from results.sheets import SheetInput, save_entry
from tests.factories import make_entries, make_game, make_official, make_tournament
from tests.site import open_link
from tests.test_get_never_writes import WRITE

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    tournament = make_tournament(slug="phone-cup", name="Phone Cup", self_registration=True, capacity=8,
                                 date=timezone.localdate(), official_start=time(23, 59))
    entries = make_entries(tournament, 8)
    for n, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(email=f"p{n}@example.com", date_of_birth=date(1980 + n, 2, 3))
    return tournament, entries, make_official(tournament, "organizer")


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if WRITE.match(q["sql"]) and "django_session" not in q["sql"]]


def test_register_then_confirm_by_the_emailed_link(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="reg-cup", name="Reg Cup", self_registration=True, capacity=10)
    page = client.get("/t/reg-cup/register/")
    html = page.content.decode()
    assert page.status_code == 200 and 'maxlength="200"' in html and 'maxlength="1000"' in html
    assert all(f'for="id_{name}"' in html for name in ("name", "email", "date_of_birth", "country", "city",
                                                         "friends", "media_opt_out"))
    assert "no-store" in page["Cache-Control"]
    data = {"name": "Lina Haddad", "email": "lina@example.com", "date_of_birth": "1991-04-05", "country": "JO",
            "city": "Amman", "friends": "Omar Haddad", "media_opt_out": "on", "consent": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/ar/t/reg-cup/register/", data)
    assert response.status_code == 302 and response["Location"].endswith("/t/reg-cup/register/?sent=1")
    (message,) = mail.outbox
    link = re.search(r"https?://\S+/register/confirm/\S+/", message.body).group(0)
    assert "/ar/t/reg-cup/register/confirm/" in link  # in the language they registered in
    assert Registration.objects.get().language == "ar"

    assert link.startswith("https://catan.example/ar/t/reg-cup/register/confirm/")  # the site's, not the request's
    with CaptureQueriesContext(connection) as queries:
        shown = open_link(client, link)  # a mail scanner opening the link confirms nothing
    with translation.override("ar"):
        assert shown.status_code == 200 and _("Confirm my registration") in shown.content.decode()
    assert writes(queries) == [] and Registration.objects.get().status == "unconfirmed"
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = open_link(client, link, "post")
    assert confirmed.status_code == 303 and "/ar/me/" in confirmed["Location"]
    me = open_link(client, confirmed["Location"])
    assert me.status_code == 200 and "Lina Haddad" in me.content.decode() and "Reg Cup" in me.content.decode()
    assert Entry.objects.filter(tournament=tournament, player__email="lina@example.com").exists()
    assert client.get("/t/reg-cup/register/confirm/" + "x" * 43 + "/").status_code == 404


def test_a_refused_registration_form_names_the_field(client):
    make_tournament(slug="reg-cup", self_registration=True)
    response = client.post("/t/reg-cup/register/", {"consent": "on", "name": "A" * 201, "email": "not-an-email",
                                                     "date_of_birth": "2012-01-01"})
    html = response.content.decode()
    assert response.status_code == 422 and "at most 200 characters" in html and "valid email" in html
    make_tournament(slug="shut-cup")
    assert "organizers enter them" in client.get("/t/shut-cup/register/").content.decode()
    assert client.post("/t/shut-cup/register/", {"consent": "on", "name": "A"}).status_code == 422


@override_settings(REGISTRATIONS_PER_ADDRESS=2)
def test_registrations_are_limited_per_address(client):
    make_tournament(slug="reg-cup", self_registration=True)
    answers = [client.post("/t/reg-cup/register/", {"consent": "on", "name": f"N{n}", "email": f"n{n}@example.com",
                                                     "date_of_birth": "1990-01-01"}).status_code for n in range(3)]
    assert answers[:2] == [302, 302] and answers[2] == 429


def test_the_resend_page_answers_the_same_whatever_the_email(client, cup, django_capture_on_commit_callbacks):
    answers = []
    for email in ("p1@example.com", "stranger@example.com"):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/me/", {"email": email})
        answers.append((response.status_code, re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "",
                                                      response.content.decode())))
    assert answers[0] == answers[1]
    (sent,) = mail.outbox
    assert sent.to == ["p1@example.com"]
    # asked on the test client's host, sent on the site's address: the link opens the player's page as written
    link = re.search(r"https?://\S+/me/[\w-]{43}/", sent.body).group(0)
    assert link.startswith("https://catan.example/me/")
    assert open_link(client, link).status_code == 200


@override_settings(EMAILS_PER_RECIPIENT_HOUR=2, PLAYER_LINKS_PER_ADDRESS=6)
def test_the_resend_is_limited_per_email_and_per_address(cup):
    client = Client(REMOTE_ADDR="203.0.113.7")
    codes = [client.post("/me/", {"email": "P1@example.com"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    others = [client.post("/me/", {"email": f"x{n}@example.com"}).status_code for n in range(3)]
    assert others == [200, 200, 200] and client.post("/me/", {"email": "y@example.com"}).status_code == 429
    assert Client(REMOTE_ADDR="198.51.100.1").post("/me/", {"email": "y@example.com"}).status_code == 200


def opened(client: Client, url: str, method: str = "get", **data):
    """An emailed address opened exactly as written: its scheme and host too, not only its path."""
    parts = urlsplit(url)
    return getattr(client, method)(parts.path, data, headers={"host": parts.netloc}, secure=parts.scheme == "https")


def test_twenty_resends_leave_the_first_link_and_the_check_in_cookie_working(django_capture_on_commit_callbacks):
    """Issue 33 item 6: a flood of "send my link again" made the player's first link answer 404 (only the newest
    10 were kept), and the check-in cookie died with it, while each email said "the links you had keep working"."""
    tournament = make_tournament(slug="link-cup", name="Link Cup", self_registration=True, capacity=8,
                                 date=timezone.localdate(), official_start=time(23, 59))
    organizer = make_official(tournament, "organizer")
    phone = Client()
    with django_capture_on_commit_callbacks(execute=True):
        phone.post("/t/link-cup/register/", {"consent": "on", "name": "Maya Levi", "email": "maya@example.com",
                                             "date_of_birth": "1994-02-03"})
    confirm = re.search(r"https?://\S+/register/confirm/\S+/", mail.outbox[-1].body).group(0)
    with django_capture_on_commit_callbacks(execute=True):
        assert opened(phone, confirm, "post").status_code == 303
    first = re.search(r"https?://\S+/me/\S+/", mail.outbox[-1].body).group(0)
    assert opened(phone, first).status_code == 200  # the phone keeps the check-in cookie

    for _resend in range(20):
        with django_capture_on_commit_callbacks(execute=True):
            assert links.send_again("maya@example.com")
    assert opened(Client(), first).status_code == 200
    code = self_checkin.open_window(tournament, user=organizer).code
    assert "Check me in: <bdi>Maya Levi</bdi>" in phone.get(f"/t/link-cup/check-in/{code}/").content.decode()
    assert phone.post(f"/t/link-cup/check-in/{code}/").status_code == 200
    assert Entry.objects.get(tournament=tournament, player__email="maya@example.com").status == "checked_in"
    resent = {re.search(r"https?://\S+/me/\S+/", m.body).group(0) for m in mail.outbox[-20:]}
    assert resent == {first} and all("the links you had keep working" in m.body for m in mail.outbox[-20:])


def test_the_private_page_shows_the_players_own_data_and_keeps_the_token_private(client, cup):
    tournament, entries, organizer = cup
    token = links.issue(entries[0].player)
    game = make_game(tournament, [entries[:4], entries[4:]])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/me/{token}/")
    html = response.content.decode()
    assert response.status_code == 200 and writes(queries) == []
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert response["X-Robots-Tag"].startswith("noindex") and response["Referrer-Policy"] == "same-origin"
    assert '<meta name="robots" content="noindex' in html
    assert entries[0].player.name in html and "Game 1: table 1" in html and entries[1].player.name in html
    assert "p1@example.com" not in html and "1981-02-03" not in html  # nobody else's personal data
    assert response.cookies["catan_me"]["httponly"]
    assert '<html lang="en" dir="ltr">' in html
    for language in ("ar", "he", "fa"):  # the page in all four languages
        translated = client.get(f"/{language}/me/{token}/").content.decode()
        assert f'<html lang="{language}" dir="rtl">' in translated and entries[0].player.name in translated
    for wrong in ("x" * 43, token[:-2], token + "A"):
        assert client.get(f"/me/{wrong}/").status_code == 404
    assert game


def test_a_token_opens_only_its_players_table(client, cup, django_capture_on_commit_callbacks):
    tournament, entries, organizer = cup
    game = make_game(tournament, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    sheet = save_entry(first.sheet.pk, SheetInput(dict(zip((e.pk for e in entries[:4]), [10, 8, 6, 4]))),
                       user=organizer, base_version=0)
    mine, theirs = links.issue(entries[0].player), links.issue(entries[5].player)
    page = client.get(f"/me/{mine}/").content.decode()
    assert "The result is right: confirm it" in page and f"/sheets/{sheet.pk}/" in page
    assert client.post(f"/me/{theirs}/sheets/{sheet.pk}/", {"action": "confirm", "version": sheet.version}
                       ).status_code == 403
    assert not Signature.objects.exists()
    done = client.post(f"/me/{mine}/sheets/{sheet.pk}/", {"action": "confirm", "version": sheet.version})
    assert done.status_code == 302 and Signature.objects.get().method == "phone"
    assert "You confirmed this result" in client.get(f"/me/{mine}/").content.decode()
    objected = client.post(f"/me/{links.issue(entries[1].player)}/sheets/{sheet.pk}/",
                           {"action": "object", "version": sheet.version, "note": "x" * 600})
    assert objected.status_code == 302 and not sheet.objections.exists()  # too long: refused with a message


def test_checking_in_from_the_qr_code_on_the_phone_that_opened_the_link(cup):
    tournament, entries, organizer = cup
    window = self_checkin.open_window(tournament, user=organizer)
    url = f"/t/{tournament.slug}/check-in/{window.code}/"
    phone = Client()
    assert "Open the private link from your email" in phone.get(url).content.decode()
    assert phone.post(url).status_code == 403
    phone.get(f"/me/{links.issue(entries[2].player)}/")  # the player opens their link on this phone
    with CaptureQueriesContext(connection) as queries:
        shown = phone.get(url)
    assert writes(queries) == [] and f"Check me in: <bdi>{entries[2].player.name}</bdi>" in shown.content.decode()
    assert "no-store" in shown["Cache-Control"]
    done = phone.post(url)
    assert done.status_code == 200 and "you are checked in" in done.content.decode()
    entry = Entry.objects.get(pk=entries[2].pk)
    assert entry.status == "checked_in" and entry.checked_in_by_self
    expired = Client()
    expired.cookies = phone.cookies
    self_checkin.open_window(tournament, user=organizer)  # a new window: the photographed code is dead
    assert expired.post(url).status_code == 410
    desk = Client()
    desk.force_login(organizer)
    assert "by themselves (QR code)" in desk.get(f"/organize/{tournament.slug}/check-in/").content.decode()


def test_calendar_files(client, cup):
    tournament, entries, organizer = cup
    make_game(tournament, [entries[:4], entries[4:]])
    public = client.get(f"/t/{tournament.slug}/calendar.ics")
    text = public.content.decode()
    assert public["Content-Type"].startswith("text/calendar") and "BEGIN:VEVENT" in text and "SUMMARY:Phone Cup" in text
    assert "\r\n" in text and "table" not in text.lower()
    own = client.get(f"/me/{links.issue(entries[5].player)}/calendar.ics")
    assert "Game 1: table 2\\, position 2." in own.content.decode().replace("\r\n ", "")
    assert "no-store" in own["Cache-Control"]
    assert client.get("/me/" + "x" * 43 + "/calendar.ics").status_code == 404


def test_a_token_in_a_refused_address_never_reaches_the_log(client, caplog):
    secret = "S3cretTokenThatMustNotBeLogged-1234567890ab"
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/me/{secret}/")
        client.get(f"/t/nowhere/register/confirm/{secret}/")
    assert "Not Found" in caplog.text and secret not in caplog.text


def test_tokens_that_open_nothing_are_limited_per_address(cup, monkeypatch):
    """Nobody tries tokens or check-in codes at speed: past the misses one address may have in an hour, every token
    it sends waits (the good one too), players elsewhere are not affected, and a good token is never counted."""
    from core.ratelimit import RateLimit
    from web.players import tokens

    tournament, entries, organizer = cup
    monkeypatch.setattr(tokens, "TOKEN_MISSES", RateLimit("player-token-miss", 3, 3600))
    good = links.issue(entries[0].player)
    window = self_checkin.open_window(tournament, user=organizer)
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    assert [guesser.get(f"/me/{good}/").status_code for _ in range(5)] == [200] * 5
    misses = [guesser.get("/me/" + "x" * 43 + "/").status_code,
              guesser.get(f"/t/{tournament.slug}/register/confirm/" + "y" * 43 + "/").status_code,
              guesser.get(f"/t/{tournament.slug}/check-in/not-the-code/").status_code]
    assert misses == [404, 404, 200]  # the check-in page says the code does not work
    refused = guesser.get("/me/" + "z" * 43 + "/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert "Too many links that open nothing" in refused.content.decode() and "no-store" in refused["Cache-Control"]
    assert guesser.get(f"/me/{good}/").status_code == 429
    assert guesser.get(f"/me/{good}/calendar.ics").status_code == 429
    assert guesser.post(f"/me/{good}/sheets/1/", {"action": "confirm", "version": 1}).status_code == 429
    assert guesser.get(f"/t/{tournament.slug}/check-in/{window.code}/").status_code == 429
    assert guesser.post(f"/me/{good}/").status_code == 405  # a wrong method is still just that
    assert Client(REMOTE_ADDR="198.51.100.2").get(f"/me/{good}/").status_code == 200


def test_the_seating_email_names_the_table_with_a_calendar_file(cup, django_capture_on_commit_callbacks):
    from results.publishing import publish_game
    from scheduling.services import generate_seating

    tournament, entries, organizer = cup
    Player.objects.filter(pk=entries[3].player_id).update(language="ar")
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        publish_game(tournament.games.get(number=1).pk, user=organizer)
    assert len(mail.outbox) == 8
    by_player = {m.to[0]: m for m in mail.outbox}
    english = by_player["p0@example.com"]
    assert re.match(r"Game 1: table \d · Phone Cup", english.subject)
    name, ics, mimetype = english.attachments[0]
    assert name == "phone-cup.ics" and "BEGIN:VCALENDAR" in ics and mimetype.startswith("text/calendar")
    assert "/me/" in english.body and "/me/" + "x" not in english.body
    assert "/ar/t/phone-cup/games/1/" in by_player["p3@example.com"].body  # in the language they registered in
    assert "/ar/" not in english.body


def test_the_access_log_never_holds_a_token():
    """Gunicorn writes every request line (the Dockerfile's --access-logfile): gunicorn.conf.py, which gunicorn reads
    from the folder it starts in (the image's /app, the repository's root), gives it a logger that writes "…" for
    the token of /me/<token>/, in the path and in a referrer."""
    import runpy
    from datetime import timedelta
    from pathlib import Path
    from types import SimpleNamespace

    from gunicorn.config import Config

    from catan_tournaments.gunicorn_logging import RedactingLogger

    secret = "S3cretTokenThatMustNotBeLogged-1234567890ab"
    config = Config()
    for name, value in runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")).items():
        if name in config.settings:  # as gunicorn reads its config file
            config.set(name, value)
    assert config.logger_class is RedactingLogger
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/ar/me/{secret}/", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": f"/ar/me/{secret}/", "QUERY_STRING": "", "HTTP_REFERER": f"https://x/me/{secret}/"}
    atoms = config.logger_class(config).atoms(SimpleNamespace(status="200 OK", sent=10, headers=[]),
                                              [("REFERER", f"https://x/me/{secret}/")], environ,
                                              timedelta(seconds=0))
    assert secret not in repr(atoms)
    assert atoms["U"] == "/ar/me/…/" and atoms["r"] == "GET /ar/me/…/ HTTP/1.1" and atoms["f"] == "https://x/me/…/"


def test_the_private_page_speaks_to_the_player(client, cup, django_capture_on_commit_callbacks):
    """Issue 32 item 5: before any game "Rank 1 =" (everyone ties at 0); after confirming "(confirmed on their phone,
    23:10)"; after objecting the next step still said "confirm it, or say what is wrong"; "(0 waiting before you)"
    on a full register page; the status line's separators written in the text, so a wrapped line began with "·"."""
    tournament, entries, organizer = cup
    game = make_game(tournament, [entries[:4], entries[4:]])
    mine, theirs = links.issue(entries[0].player), links.issue(entries[1].player)
    Entry.objects.filter(pk=entries[0].pk).update(minutes_late=12)
    page = client.get(f"/me/{mine}/").content.decode()
    summary = page[page.index('class="report own-summary"'):page.index("</dl>", page.index("own-summary"))]
    assert "No rank yet" in summary and "tie-mark" not in summary
    public = client.get(f"/t/{tournament.slug}/players/{entries[0].player_id}/").content.decode()
    assert "No rank yet" in public and "tie-mark" not in public.split("player-summary")[1].split("</dl>")[0]
    status = page[page.index('<ul class="subtitle">'):page.index("</ul>", page.index('<ul class="subtitle">'))]
    assert "·" not in status and "<li>12 minutes late</li>" in status

    first = game.tables.get(number=1)
    sheet = save_entry(first.sheet.pk, SheetInput(dict(zip((e.pk for e in entries[:4]), [10, 8, 6, 4]))),
                       user=organizer, base_version=0)
    client.post(f"/me/{mine}/sheets/{sheet.pk}/", {"action": "confirm", "version": sheet.version})
    at = timezone.localtime(Signature.objects.get().signed_at).strftime("%H:%M")
    confirmed = client.get(f"/me/{mine}/").content.decode()
    assert f"You confirmed this result at {at}. The referee signs it off." in confirmed
    assert "on their phone" not in confirmed

    client.post(f"/me/{theirs}/sheets/{sheet.pk}/", {"action": "object", "version": sheet.version, "note": "8 not 6"})
    objected = client.get(f"/me/{theirs}/").content.decode()
    steps = objected[objected.index('class="next-steps"'):objected.index("</ul>", objected.index("next-steps"))]
    assert "the referee decides" in steps and "confirm it, or say what is wrong" not in steps

    full = make_tournament(slug="full-cup", self_registration=True, capacity=2)
    make_entries(full, 2)
    register = client.get("/t/full-cup/register/").content.decode()
    assert "0 waiting before you" not in register and "you go first on the waiting list" in register

