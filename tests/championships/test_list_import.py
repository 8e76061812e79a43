"""Registration lists from CSV or XLSX: read, previewed against the database, imported all or nothing."""
import io
from datetime import date, datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from audit.models import AuditEntry
from championships.list_file import MAX_ROWS, read_upload
from championships.list_import import preview_list
from championships.models import Entry, Player, Relationship
from championships.people import add_player, import_list
from engines.csv_input import InputError
from tests.factories import make_admin, make_official, make_player, make_tournament, make_user

HEADER = "name,email,date_of_birth,country,friends_or_family\n"


def xlsx(rows) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def problems_of(preview) -> list[str]:
    return [str(p) for p in preview.problems]


def test_csv_with_semicolons_bom_aliases_and_country_names_in_four_languages():
    text = ("\ufeffName;E-mail;Date of birth;Nationality;Friends\n"
            "Ann;ANN@example.org;1990-01-31;الإمارات العربية المتحدة;Bob\n"
            "Bob;;1991-02-02;לבנון;\n"
            "Cyrus;;;ایران;\n"
            "Dana;;;lbn;\n")
    records, problems = read_upload("list.csv", text.encode("utf-8"))
    assert problems == []
    assert [(line, cells["name"], cells["country"]) for line, cells in records][:2] == [
        (2, "Ann", "الإمارات العربية المتحدة"), (3, "Bob", "לבנון")]
    from championships.list_file import check_records
    lines = check_records(records)
    assert [item.row.country for item in lines] == ["AE", "LB", "IR", "LB"]
    assert lines[0].row.email == "ann@example.org" and lines[0].row.friends_or_family == ("Bob",)


def test_utf16_text_is_read_and_other_encodings_are_refused_with_the_line():
    assert read_upload("a.csv", ("name\nÉlodie\n").encode("utf-16"))[0] == [(2, {"name": "Élodie"})]
    with pytest.raises(InputError) as error:
        read_upload("a.csv", "name\nAnn\nÉlodie\n".encode("latin-1"))
    assert str(error.value).startswith("line 3: This is not UTF-8 text")


def test_xlsx_rows_are_numbered_as_in_excel_and_date_cells_read_as_dates():
    data = xlsx([("Name", "Date of birth", "Country", "Email"),
                 ("Ann", datetime(1990, 5, 31), "AE", None),  # noqa: DTZ001 - Excel cells hold no time zone
                 (None, None, None, None),
                 ("Bob", "31/05/1990", "Lebanon", 12345.0)])
    records, _problems = read_upload("list.xlsx", data)
    assert records == [(2, {"name": "Ann", "date_of_birth": "1990-05-31", "country": "AE", "email": ""}),
                       (4, {"name": "Bob", "date_of_birth": "31/05/1990", "country": "Lebanon", "email": "12345"})]


@pytest.mark.parametrize("data", [b"PK\x03\x04not a zip", b"PK\x03\x04" + bytes(200), xlsx([("email",), ("a@b.c",)])])
def test_broken_or_headerless_workbooks_are_a_clear_message(data):
    with pytest.raises(InputError) as error:
        read_upload("list.xlsx", data)
    assert "workbook" in str(error.value) or "line 1" in str(error.value)


def test_huge_cells_and_old_excel_files_are_a_clear_message():
    with pytest.raises(InputError, match="line 3: this is not readable CSV"):
        read_upload("a.csv", ("name\nAnn\n\"" + "x" * 200_000 + "\"\n").encode())
    with pytest.raises(InputError, match=r"Old Excel files \(.xls\)"):
        read_upload("a.xls", b"\xd0\xcf\x11\xe0" + bytes(100))
    records, _ = read_upload("a.csv", ("name\n" + "x" * 300 + "\n").encode())
    from championships.list_file import check_records
    assert [str(p) for p in check_records(records)[0].problems] == ["line 2, name: longer than 200 characters"]


def test_a_sheet_reaching_far_below_the_list_is_refused_not_truncated():
    workbook = Workbook()
    workbook.active.append(["name"])
    workbook.active.cell(row=30_000, column=1, value="Far away")
    out = io.BytesIO()
    workbook.save(out)
    with pytest.raises(InputError, match="reaches row 30000"):
        read_upload("far.xlsx", out.getvalue())


def test_too_many_rows_are_refused():
    text = "name\n" + "".join(f"P{n}\n" for n in range(MAX_ROWS + 1))
    with pytest.raises(InputError, match="split it"):
        read_upload("big.csv", text.encode())


@pytest.mark.django_db
def test_preview_names_every_problem_by_line():
    tournament = make_tournament()  # age cut-off 2022-11-17, minimum 18
    referee = make_official(tournament, "referee")
    referee.email = "ref@example.org"
    referee.save()
    Entry.objects.create(tournament=tournament, player=make_player("Old Friend"))
    make_player("Stranger")  # registered, but in none of this organizer's tournaments
    twin = make_player("Twin", email="twin@example.org")
    text = (HEADER
            + "Ann,ann@example.org,1990-01-01,AE,Old Friend\n"     # fine: the friend plays here
            + "Young,,2010-01-01,AE,\n"                           # under 18 on the cut-off
            + "Ref,ref@example.org,1980-01-01,AE,\n"              # staff of the tournament
            + "ann,,1990-01-01,AE,\n"                             # same name as line 2, nothing tells them apart
            + "Cara,,1990-99-01,AE,Nobody; Stranger\n"            # bad date, unknown friends
            + "Twin,,1990-01-01,AE,\n")                           # the registered Twin: same name and birth date
    records, problems = read_upload("list.csv", text.encode())
    preview = preview_list(records, tournament, user=make_official(tournament, "organizer"), read_problems=problems)
    assert not preview.ok
    assert problems_of(preview) == [
        "line 3, date_of_birth: under 18 on the cut-off date 2022-11-17",
        f"line 4, email: Ref is on the staff of {tournament.name} and cannot play in it.",
        "line 5, name: ann is already on line 2: give each an email or a date of birth to tell them apart",
        "line 6, date_of_birth: '1990-99-01' is not a date like 1990-05-31",
        "line 6, friends_or_family: Nobody is neither in the file nor a player of your tournaments",
        "line 6, friends_or_family: Stranger is neither in the file nor a player of your tournaments",
    ]
    assert preview.matches[7].player == twin
    assert not Player.objects.filter(name__in=["Ann", "Young"]).exists()


@pytest.mark.django_db
def test_import_reuses_registered_players_and_keeps_what_the_file_leaves_blank():
    tournament = make_tournament()
    known = make_player("Ann Lee", email="ann@example.org", born=date(1990, 1, 1), country="LB")
    records, _ = read_upload("l.csv", (HEADER + "Ann Lee,ANN@example.org,,,Bob\nBob,,1991-01-01,Germany,\n").encode())
    preview = preview_list(records, tournament, user=make_admin())
    assert preview.ok and {line: m.player for line, m in preview.matches.items()} == {2: known}
    assert preview.lines[0].notes[0] == "Already registered: this player is reused."
    result = import_list(tournament, records, user=make_admin())
    assert (result.created, result.linked, result.updated, result.entered, result.relationships) == (1, 1, 0, 2, 1)
    known.refresh_from_db()
    assert (known.date_of_birth, known.country.code) == (date(1990, 1, 1), "LB")
    assert Player.objects.get(name="Bob").country.code == "DE"
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {
        "player.registered", "relationship.declared", "entry.registered"}
    assert not AuditEntry.objects.filter(tournament=None).exists()


@pytest.mark.django_db
def test_import_checks_again_at_confirmation_and_writes_nothing_on_a_problem():
    tournament = make_tournament()
    records, _ = read_upload("l.csv", (HEADER + "Ann,ann@example.org,1990-01-01,AE,\n"
                                       "Bob,bob@example.org,1990-01-01,AE,Ann\n").encode())
    assert preview_list(records, tournament, user=make_admin()).ok
    bob = make_user("bob", email="bob@example.org")  # Bob becomes a referee between preview and confirmation
    make_official(tournament, "referee").delete()
    from championships.services import assign_staff
    assign_staff(bob, "referee", tournament=tournament, user=make_admin())
    before = AuditEntry.objects.count()
    with pytest.raises(ValidationError) as error:
        import_list(tournament, records, user=make_admin())
    assert error.value.messages == [f"Line 3, email: Bob is on the staff of {tournament.name} and cannot play in it."]
    assert not Player.objects.exists() and not Entry.objects.exists() and not Relationship.objects.exists()
    assert AuditEntry.objects.count() == before


@pytest.mark.django_db
def test_only_an_organizer_of_the_tournament_imports_or_adds():
    tournament, other = make_tournament(), make_tournament()
    records, _ = read_upload("l.csv", b"name\nAnn\n")
    for user in (make_official(tournament, "referee"), make_official(other, "organizer")):
        with pytest.raises(PermissionDenied):
            import_list(tournament, records, user=user)
        with pytest.raises(PermissionDenied):
            add_player(tournament, user=user, name="Ann")
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_add_player_refuses_a_registered_one_and_declares_family():
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    mother = make_player("Mother", email="mum@example.org")
    Entry.objects.create(tournament=tournament, player=mother)
    player = add_player(tournament, user=organizer, name="Kid", email="kid@example.org", date_of_birth=date(1995, 1, 1),
                        country="AE", friend="mother", kind="family")
    pair = Relationship.objects.get()
    assert {pair.player_a, pair.player_b} == {player, mother} and pair.kind == "family"
    assert tournament.entries.filter(player=player).exists()
    with pytest.raises(ValidationError) as error:
        add_player(tournament, user=organizer, name="Mum", email="MUM@example.org")
    assert error.value.message_dict == {"email": ["Mother is already registered: enter them from the entries page."]}


cells = (st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
         | st.sampled_from(["", "=HYPERLINK(\"x\")", "1990-02-30", "AE", "Liban", "a;b;;c", "\x00", "ann@", "Ann"])
         | st.integers(150, 5000).map(lambda n: "x" * n))
sheet_cells = cells.map(lambda text: ILLEGAL_CHARACTERS_RE.sub("", text))  # what a workbook can hold


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.one_of(
    st.binary(max_size=400),
    st.lists(st.lists(cells, min_size=1, max_size=6), max_size=8).map(
        lambda rows: (HEADER + "\n".join(",".join(f'"{c}"' if "," in c else c for c in row) for row in rows))
        .encode("utf-8", "surrogatepass")),
    st.lists(st.tuples(*[sheet_cells] * 5), max_size=6).map(
        lambda rows: xlsx([("name", "email", "date_of_birth", "country", "friends_or_family"), *rows])),
))
@pytest.mark.django_db
def test_fuzzed_uploads_never_fail_badly_and_never_half_write(data):
    with transaction.atomic():
        tournament = make_tournament()
        try:
            records, problems = read_upload("upload.xlsx" if data.startswith(b"PK") else "upload.csv", data)
        except InputError as error:
            assert error.problems and all(str(p) for p in error.problems)
            transaction.set_rollback(True)
            return
        preview = preview_list(records, tournament, user=make_admin(), read_problems=problems)
        assert all(p.line for p in preview.problems)
        players, entries, audited = Player.objects.count(), Entry.objects.count(), AuditEntry.objects.count()
        try:
            import_list(tournament, records, user=make_admin())
        except ValidationError as error:
            assert all(m.startswith("Line ") for m in error.messages) or error.messages == ["The list has no players."]
            assert (Player.objects.count(), Entry.objects.count(), AuditEntry.objects.count()) == (
                players, entries, audited)
        else:
            assert preview.ok
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_an_existing_email_with_other_details_is_a_decision_that_keeps_the_record_by_default():
    """Issue 20 item 3: the preview only noted "the name becomes …" and the import renamed the person."""
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    known = make_player("Ann Lee", email="ann@example.org", born=date(1990, 1, 1), country="LB")
    Entry.objects.create(tournament=tournament, player=known)
    records, _ = read_upload("l.csv", (HEADER + "Ann Smith,ann@example.org,1990-01-01,,\n").encode())
    preview = preview_list(records, tournament, user=organizer)
    assert preview.ok and preview.lines[0].notes == [f"Already entered in {tournament.name}."]
    match = preview.matches[2]
    assert (match.player, match.may_change, match.decision) == (known, True, "keep")
    assert match.changes == {"name": ("Ann Lee", "Ann Smith")}
    assert [item.line for item in preview.decisions] == [2]
    import_list(tournament, records, user=organizer)
    known.refresh_from_db()
    assert known.name == "Ann Lee"
    result = import_list(tournament, records, user=organizer, decisions={2: "update"})
    known.refresh_from_db()
    assert (known.name, known.country.code, result.updated) == ("Ann Smith", "LB", 1)
    entry = AuditEntry.objects.get(action="player.updated")
    assert (entry.tournament_id, entry.before, entry.after) == (tournament.pk, {"name": "Ann Lee"},
                                                                {"name": "Ann Smith"})


@pytest.mark.django_db
def test_namesakes_are_registered_when_an_email_or_a_birth_date_tells_them_apart():
    """Issue 20 item 3: the same name with another email was a blocking error."""
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    make_player("Ann Lee", email="ann@example.org", born=date(1990, 1, 1))
    make_player("Omar Ali", born=date(1980, 1, 1))
    records, _ = read_upload("l.csv", (HEADER + "Ann Lee,ann.lee@example.org,1985-05-05,AE,\n"
                                       "Omar Ali,,1982-02-02,AE,\n"
                                       "Yara Said,yara1@example.org,1990-01-01,AE,\n"
                                       "yara said,yara2@example.org,1991-01-01,AE,\n").encode())
    preview = preview_list(records, tournament, user=organizer)
    assert preview.ok, problems_of(preview)
    assert preview.counts.new == 4 and not preview.matches
    import_list(tournament, records, user=organizer)
    assert Player.objects.filter(name="Ann Lee").count() == 2 and Player.objects.filter(name="Omar Ali").count() == 2
    make_player("Zed Ray", born=date(1970, 1, 1))
    make_player("Zed Ray", born=date(1971, 1, 1))
    records, _ = read_upload("l.csv", (HEADER + "Ann Lee,,,AE,\nZed Ray,,,AE,\nKim,,1990-01-01,,Yara Said\n")
                             .encode())
    preview = preview_list(records, tournament, user=organizer)
    assert preview.matches[2].player.email == "ann.lee@example.org"  # the organizer's own Ann Lee, by name
    assert problems_of(preview) == [
        "line 3, name: 2 players named Zed Ray are registered: give an email or a date of birth to tell this one "
        "apart (or to reuse one of them).",
        "line 3, date_of_birth: no date of birth: it is needed to check the minimum age",
        "line 4, friends_or_family: 2 players named Yara Said are entered in your tournaments: declare this "
        "relationship from the relationships page",
    ]


@pytest.mark.django_db
def test_the_counts_say_what_the_import_will_do():
    """Issue 20 item 11: re-importing a list of players who all exist offered "Import 18 players"."""
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    text = HEADER + "".join(f"P{n},p{n}@example.org,1990-01-01,AE,\n" for n in range(3))
    records, _ = read_upload("l.csv", text.encode())
    import_list(tournament, records, user=organizer)
    preview = preview_list(records, tournament, user=organizer)
    assert (preview.counts.new, preview.counts.linked, preview.counts.updated, preview.counts.entered) == (0, 3, 0, 0)
    assert preview.counts.nothing_to_do
    records, _ = read_upload("l.csv", (text + "New,new@example.org,1990-01-01,AE,P1\n").encode())
    counts = preview_list(records, tournament, user=organizer).counts
    assert (counts.new, counts.linked, counts.updated, counts.entered, counts.relationships) == (1, 3, 0, 1, 1)
