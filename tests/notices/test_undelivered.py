"""An email that could not be sent is visible to the organizers in the console (issue 32, item 3): who it was to, what
it was, why it failed, scoped to the tournament or championship it concerns; exportable; sent again once the cause
is fixed. It was only a "background task failed" line in a log."""
import io
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from audit.models import AuditEntry
from championships import links
from championships.models import Player, StaffRole
from core import mail as site_mail
from core.sealed import unseal
from notices.models import UndeliveredEmail
from notices.undelivered import for_tournament, send_again
from tests.factories import make_championship, make_entries, make_official, make_tournament, make_user
from tests.smtp import free_port, smtp_server

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    tournament = make_tournament(slug="mail-cup", name="Mail Cup")
    (entry,) = make_entries(tournament, 1)
    Player.objects.filter(pk=entry.player_id).update(email="gone@example.com", name="Gone Player")
    return tournament, entry.player, make_official(tournament, "organizer", "mail-organizer")


@pytest.fixture
def smtp_refusing(settings, tmp_path):
    """The site's mail server, a real one on loopback, refusing gone@example.com as a provider does."""
    with smtp_server(tmp_path, refused={"gone@example.com"}) as (inbox, port, _cert):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 5
        yield inbox


def refusing(error):
    """A mail server that fails every message with `error`."""
    def deliver(message):
        raise error
    return deliver


def organizer_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_refused_email_is_shown_on_the_tournaments_page_with_who_what_and_why(cup, smtp_refusing,
                                                                                 django_capture_on_commit_callbacks):
    tournament, player, organizer = cup
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)  # the new link, emailed: refused
    assert smtp_refusing.messages == []
    (failed,) = UndeliveredEmail.objects.all()
    assert (failed.tournament, failed.to, failed.subject) == (tournament, "gone@example.com", "Your new private link")
    assert failed.reason == "550 5.1.1 <gone@example.com>: no such user here"  # the mail server's own words
    client = organizer_client(organizer)
    console = client.get(reverse("organize-tournament", args=[tournament.slug])).content.decode()
    assert "1 email could not be sent." in console and reverse("organize-emails", args=[tournament.slug]) in console
    page = client.get(reverse("organize-emails", args=[tournament.slug])).content.decode()
    assert "gone@example.com" in page and "Your new private link" in page and "no such user here" in page
    assert 'name="send_again"' in page


def test_the_message_is_kept_sealed_not_readable_in_the_database(cup, smtp_refusing,
                                                                 django_capture_on_commit_callbacks):
    tournament, player, organizer = cup
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)
    link = links.private_link(player)  # the one the email carries: the organizer is not shown it
    token = link.rstrip("/").rsplit("/", 1)[1]
    failed = UndeliveredEmail.objects.get()
    assert token not in failed.message and "private link" not in failed.message
    assert token in unseal(failed.message)["body"]


def test_sent_again_it_goes_out_as_written_once_and_audited(cup, smtp_refusing, django_capture_on_commit_callbacks):
    tournament, player, organizer = cup
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)
    link = links.private_link(player)  # the one the email carries: the organizer is not shown it
    failed = UndeliveredEmail.objects.get()
    smtp_refusing.refused.clear()  # the address fixed at the provider
    client = organizer_client(organizer)
    page = reverse("organize-emails", args=[tournament.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page, {"send_again": failed.pk})
        client.post(page, {"send_again": failed.pk})  # a double tap: sent once
    assert response.status_code == 302
    (sent,) = smtp_refusing.messages
    assert sent["To"] == "gone@example.com" and sent["Subject"] == "Your new private link"
    assert link in sent.get_payload(decode=True).decode()
    failed.refresh_from_db()
    assert failed.sent_again_by == organizer and failed.sent_again_at is not None and failed.message == ""
    entry = AuditEntry.objects.get(action="email.sent_again")
    assert entry.tournament == tournament and entry.after == {"to": "gone@example.com",
                                                              "subject": "Your new private link"}
    shown = client.get(page).content.decode()
    assert "by <bdi>mail-organizer</bdi>" in shown and 'name="send_again"' not in shown


def test_the_same_email_failing_again_is_counted_on_its_row(cup, monkeypatch):
    tournament, player, organizer = cup
    monkeypatch.setattr(site_mail, "deliver", refusing(ConnectionRefusedError(111, "refused")))
    about = [["championships.Tournament", tournament.pk]]
    for _ in range(3):
        site_mail.send_email({"to": "gone@example.com", "subject": "Start time: Mail Cup", "body": "10:00",
                              "attachments": [], "record": None, "about": about})
    (failed,) = UndeliveredEmail.objects.all()
    assert failed.failures == 3 and failed.reason == "ConnectionRefusedError: [Errno 111] refused"


def test_no_organizer_sees_another_championships_failures(cup, django_capture_on_commit_callbacks, monkeypatch):
    tournament, player, organizer = cup
    other = make_tournament(slug="other-cup")
    stranger = make_official(other, "organizer", "other-organizer")
    monkeypatch.setattr(site_mail, "deliver", refusing(OSError("down")))
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)
    assert for_tournament(other, stranger).count() == 0
    theirs = organizer_client(stranger)
    for path in ("emails/", "emails.csv", "emails.xlsx"):
        assert b"gone@example.com" not in theirs.get(f"/organize/{other.slug}/{path}").content
        assert theirs.get(f"/organize/{tournament.slug}/{path}").status_code == 403
    failed = UndeliveredEmail.objects.get()
    with pytest.raises(Exception, match="not one of this tournament"):
        send_again(other, failed.pk, user=stranger)
    assert theirs.post(f"/organize/{other.slug}/emails/", {"send_again": failed.pk}).status_code == 302
    failed.refresh_from_db()
    assert failed.sent_again_at is None


def test_a_championships_own_emails_are_shown_to_its_organizers_only(monkeypatch):
    """A webhook turned off tells the championship's organizers: a tournament's organizer is not one of them."""
    championship = make_championship(slug="hooked")
    tournament = make_tournament(slug="hooked-cup", championship=championship)
    boss, local = make_user("boss"), make_official(tournament, "organizer", "local-organizer")
    StaffRole.objects.create(user=boss, role=StaffRole.Role.ORGANIZER, championship=championship)
    monkeypatch.setattr(site_mail, "deliver", refusing(OSError("down")))
    site_mail.send_email({"to": "boss@example.com", "subject": "Webhook turned off: Hooked", "body": "…",
                          "attachments": [], "record": None,
                          "about": [["championships.Championship", championship.pk]]})
    assert [e.subject for e in for_tournament(tournament, boss)] == ["Webhook turned off: Hooked"]
    assert list(for_tournament(tournament, local)) == []
    assert "about the whole championship" in organizer_client(boss).get(
        reverse("organize-emails", args=[tournament.slug])).content.decode()


def test_an_email_about_nothing_of_an_organizers_is_only_logged(caplog, monkeypatch):
    monkeypatch.setattr(site_mail, "deliver", refusing(OSError("down")))
    site_mail.send_email({"to": "staff@example.com", "subject": "Password reset", "body": "…", "attachments": [],
                          "record": None, "about": []})
    assert UndeliveredEmail.objects.count() == 0 and "was not sent (OSError)" in caplog.text


def test_the_list_downloads_as_csv_and_xlsx(cup, monkeypatch, django_capture_on_commit_callbacks):
    tournament, player, organizer = cup
    monkeypatch.setattr(site_mail, "deliver", refusing(OSError("down")))
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)
    client = organizer_client(organizer)
    csv = client.get(reverse("organize-emails-csv", args=[tournament.slug])).content.decode("utf-8-sig")
    header, row = csv.splitlines()[:2]
    assert header == "failed_at,to,subject,reason,failures,about,sent_again_at,sent_again_by"
    assert "gone@example.com,Your new private link" in row and ",1,tournament,," in row
    workbook = client.get(reverse("organize-emails-xlsx", args=[tournament.slug])).content
    sheet = load_workbook(io.BytesIO(workbook)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("failed_at", "to", "subject") and rows[1][1] == "gone@example.com"


def test_the_reason_names_what_went_wrong():
    import smtplib

    assert site_mail.reason(smtplib.SMTPRecipientsRefused({"a@b": (550, b"5.1.1 unknown")})) == "550 5.1.1 unknown"
    assert site_mail.reason(smtplib.SMTPAuthenticationError(535, b"5.7.8 bad")) == "535 5.7.8 bad"
    assert site_mail.reason(TimeoutError("timed out")) == "TimeoutError: timed out"
    assert site_mail.reason(PermissionError(13, "denied")) == "PermissionError: [Errno 13] denied"
    assert len(site_mail.reason(OSError("x" * 2000))) == 500


def test_a_failure_with_nothing_listening_is_recorded_by_the_queue_itself(cup, settings,
                                                                           django_capture_on_commit_callbacks):
    """The whole way: the queue, the backend the settings name, a port with no server."""
    tournament, player, organizer = cup
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()
    with django_capture_on_commit_callbacks(execute=True):
        links.rotate(player.pk, user=organizer, tournament=tournament)
    assert re.fullmatch(r"ConnectionRefusedError: \[Errno 111\] .*", UndeliveredEmail.objects.get().reason)
    assert mail.outbox == []
