"""The tablet's offline queue on the server (issue 28): each queued action applied once, conflicts answered with the
server's sheet, sign-out empties what the tablet kept, and the worker, manifest and icons served at the root."""
import io
import json
import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from audit.models import AuditEntry
from results.models import RecordSheet, SheetRevision, Signature, TabletReport
from tests.factories import make_entries, make_game, make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(slug="dubai")
    return make_game(tournament, [make_entries(tournament, 4)]).tables.get()


@pytest.fixture
def referee(client, table):
    user = make_official(table.game.tournament)
    client.force_login(user)
    return user


def send(client, table, kind, **fields):
    return client.post(reverse("referee-offline-send", args=["dubai", table.pk]), {"kind": kind, **fields})


def scores(table, vps, version=0):
    entries = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    return {**{f"vp_{e}": str(vp) for e, vp in zip(entries, vps)}, "base_version": str(version),
            "start_time": "10:00", "end_time": "11:20"}


def queue(client, table, vps):
    """What a tablet queued offline for one table: the scores, every player's tap, the sign-off; each sent twice,
    as after answers lost on the way back."""
    answers = []
    for _ in range(2):
        answers.append(send(client, table, "scores", **scores(table, vps)))
    for entry in table.seats.values_list("entry_id", flat=True):
        for _ in range(2):
            answers.append(send(client, table, "sign", entry=entry, version=1, method="tap"))
    for _ in range(2):
        answers.append(send(client, table, "sign-off", version=1))
    return answers


def test_a_queue_sent_twice_is_applied_once(client, table, referee):
    answers = queue(client, table, [10, 7, 6, 5])
    assert [a.status_code for a in answers] == [200] * len(answers)
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.status == RecordSheet.Status.SIGNED_OFF and sheet.version == 2
    assert answers[-1].json()["server"] == {
        "version": 2, "status": "signed_off", "status_label": "signed off", "locked": True,
        "scores": [{"entry": s.seat.entry_id, "player": s.seat.entry.player.name, "vp": vp, "winner": vp == 10}
                   for s, vp in zip(sheet.scores.order_by("seat__position"), [10, 7, 6, 5])],
        "start_time": "10:00", "end_time": "11:20", "signed": list(table.seats.order_by("position")
                                                                    .values_list("entry_id", flat=True)),
    }
    assert SheetRevision.objects.filter(sheet=sheet).count() == 2  # entered, signed off
    assert Signature.objects.filter(sheet=sheet).count() == 4
    actions = list(AuditEntry.objects.filter(object_id=sheet.pk, action__startswith="sheet.")
                   .values_list("action", flat=True))
    assert sorted(actions) == sorted(["sheet.entered", *["sheet.signature.tap"] * 4, "sheet.signed_off"])


def test_a_sheet_changed_meanwhile_answers_with_the_server_version(client, table, referee):
    other = Client()
    other.force_login(make_official(table.game.tournament, role="organizer", username="organizer"))
    assert send(other, table, "scores", **scores(table, [6, 10, 7, 5])).status_code == 200
    answer = send(client, table, "scores", **scores(table, [10, 7, 6, 5]))
    assert answer.status_code == 409
    body = answer.json()
    assert "changed meanwhile" in body["conflict"]
    assert [s["vp"] for s in body["server"]["scores"]] == [6, 10, 7, 5] and body["server"]["version"] == 1
    signature = send(client, table, "sign", entry=table.seats.first().entry_id, version=0, method="tap")
    assert signature.status_code == 409  # signed on the version the tablet saw, not the server's
    assert list(RecordSheet.objects.get(table=table).scores.order_by("seat__position")
                .values_list("vp", flat=True)) == [6, 10, 7, 5]


def test_values_the_server_refuses_answer_with_the_reasons(client, table, referee):
    answer = send(client, table, "scores", **scores(table, [9, 7, 6, 5]))
    assert answer.status_code == 422
    assert answer.json()["errors"] and answer.json()["server"]["version"] == 0
    assert send(client, table, "sign-off", version=0).status_code == 422
    assert send(client, table, "dance").status_code == 422


def test_only_the_tables_officials_send_and_never_by_get(client, table):
    client.force_login(make_user("stranger"))
    assert send(client, table, "scores", **scores(table, [10, 7, 6, 5])).status_code == 403
    client.force_login(make_official(table.game.tournament))
    assert client.get(reverse("referee-offline-send", args=["dubai", table.pk])).status_code == 405
    assert RecordSheet.objects.get(table=table).version == 0


def test_signing_out_clears_what_the_tablet_kept(client, referee):
    response = client.post(reverse("logout"))
    assert response["Clear-Site-Data"] == '"cache", "storage"'


def test_the_worker_manifest_and_icons_are_served_from_the_root():
    client = Client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Service-Worker-Allowed"] == "/"
    assert worker["Content-Type"].startswith("text/javascript") and "no-cache" in worker["Cache-Control"]
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == "/referee/" and data["display"] == "standalone"
    for icon in data["icons"][:2]:
        png = client.get(icon["src"])
        assert png["Content-Type"] == "image/png" and png.content.startswith(b"\x89PNG")
        assert Image.open(io.BytesIO(png.content)).size == tuple(int(n) for n in icon["sizes"].split("x"))
    assert client.get("/app-icon-64.png").status_code == 404  # only the sizes the manifest names


def test_a_tablet_reports_what_waits_on_it_and_the_organizer_sees_it(client, table, referee):
    pending = reverse("referee-pending", args=["dubai"])
    assert client.post(pending, {"tables": [table.pk]}).json()["tables"] == [table.pk]
    organizer = Client()
    organizer.force_login(make_official(table.game.tournament, role="organizer"))
    page = organizer.get(reverse("organize-missing", args=["dubai"])).content.decode()
    assert f"Result waiting on the tablet of {referee.username}, not yet sent" in page
    assert client.post(pending).json()["tables"] == []  # everything sent: the next report says so
    page = organizer.get(reverse("organize-missing", args=["dubai"])).content.decode()
    assert "waiting on the tablet" not in page


def test_a_report_names_only_the_tournaments_published_tables(client, table, referee):
    pending = reverse("referee-pending", args=["dubai"])
    other = make_tournament(slug="elsewhere")
    elsewhere = make_game(other, [make_entries(other, 4)]).tables.get()
    assert client.post(pending, {"tables": [elsewhere.pk]}).status_code == 422
    assert client.post(pending, {"tables": ["x"]}).status_code == 422
    assert not TabletReport.objects.exists()


def test_the_desk_marks_tables_waiting_on_another_referees_tablet(client, table, referee):
    other = Client()
    other.force_login(make_official(table.game.tournament, username="second-referee"))
    other.post(reverse("referee-pending", args=["dubai"]), {"tables": [table.pk]})
    client.post(reverse("referee-pending", args=["dubai"]), {"tables": [table.pk]})
    desk = client.get(reverse("referee-desk", args=["dubai"])).content.decode()
    assert desk.count("Result waiting on the tablet of") == 1  # this tablet marks its own tables itself
    assert "Result waiting on the tablet of second-referee, not yet sent" in desk


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js to run the worker's script")
def test_the_worker_knows_the_routes_from_the_url_configuration():
    """sw.js spells no route: it is sent after the routes reverse() gives, so a renamed sign-out still wipes the
    tablet. Its patterns, run in Node, match those addresses under every language prefix, and nothing else."""
    from catan_tournaments import pwa
    source = Client().get("/sw.js").content.decode()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", pwa.WORKER.read_text(), flags=re.S)
    for spelled in ("referee/", "accounts/", "/me/", "/static/", "app-icon"):
        assert spelled not in code, spelled
    addresses = [reverse("referee-home"), f"/ar{reverse('referee-home')}dubai/", reverse("logout"),
                 f"/ar{reverse('login')}", reverse("players-me", args=["a" * 43]), "/static/css/site.css",
                 "/t/dubai/", f"{reverse('logout')}x/", "/me/a/b/", "/xx/referee/"]
    probe = ("const self = {addEventListener() {}, location: {origin: 'https://catan.example'}};\n" + source
             + f"\nconsole.log(JSON.stringify({json.dumps(addresses)}.map((path) => "
               "[REFEREE_PAGE, SIGN_OUT, SIGN_IN, PLAYER_PAGE, STATIC_FILE].map((pattern) => pattern.test(path)))));")
    matched = json.loads(subprocess.run(["node", "-e", probe], capture_output=True, text=True, check=True).stdout)
    assert matched == [[True, False, False, False, False], [True, False, False, False, False],
                       [False, True, False, False, False], [False, False, True, False, False],
                       [False, False, False, True, False], [False, False, False, False, True],
                       [False] * 5, [False] * 5, [False] * 5, [False] * 5]
    assert source.startswith("const ROUTES = ") and json.dumps(reverse("app-icon-192")) in source
