"""Players of a tournament's organizer: the list, one added by hand, a registration list imported, relationships;
whether a player is listed in the public ratings."""
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from championships import people, privacy_notice, rosters
from championships.list_dates import FORMAT_LABELS, FORMATS, ISO
from championships.list_file import Columns, read_list
from championships.list_import import DECISIONS, KEEP, Counts, date_guess, preview_list
from championships.models import Tournament
from championships.permissions import organized_tournament, visible_players
from championships.relationships import remove_declaration
from championships.services import change_player
from core.table_export import table_response
from engines.csv_input import InputError, InputProblem
from privacy import erasure
from privacy.models import Erasure
from web.forms import add_service_errors
from web.organize.people_forms import (
    ErasureForm,
    ImportConfirmForm,
    ImportUploadForm,
    PlayerForm,
    RelationshipForm,
    search_query,
)
from web.requests import HtmxHttpRequest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django_stubs_ext import WithAnnotations

    from championships.models import Player, Relationship

IMPORT_SALT = "organize.player-import"
IMPORT_MAX_AGE = 6 * 3600
"""How long a previewed list may wait for its confirmation (seconds)."""
ONLY = ("entered", "not_entered", "all")
"""Which players the list shows; this tournament's entries unless the organizer asks for more."""


class _Entered(rosters.Shown):
    entered: bool
    """`rosters.players` marks each player entered in this tournament or not."""


class _DeclaredHere(TypedDict):
    declared_here: bool
    """`rosters.relationships` marks the pairs this tournament's championship declared."""


def _only(request: HtmxHttpRequest) -> str:
    only = request.GET.get("only", ONLY[0])
    return only if only in ONLY else ONLY[0]


@login_required
def player_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    query, only = search_query(request.GET), _only(request)
    page = Paginator(rosters.players(tournament, request.user, query, only), rosters.PER_PAGE).get_page(
        request.GET.get("page"))
    return render(request, "organize/players.html", {
        "tournament": tournament, "page": page, "rows": rosters.player_rows(tournament, page.object_list),
        "only": only, "query": query, "is_organizer": True})


@login_required
def player_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    rows = rosters.players(tournament, request.user, search_query(request.GET), _only(request))
    header = ["name", "email", "date_of_birth", "country", "entered", "friends_or_family", "media_opt_out",
              "listed_in_ratings"]

    def lines() -> "Iterator[list[str]]":
        for chunk_start in range(0, rows.count(), 500):
            for row in rosters.player_rows(tournament, rows[chunk_start:chunk_start + 500]):
                p = cast("WithAnnotations[Player, _Entered]", row.player)
                yield [p.name, p.shown_email, p.shown_born.isoformat() if p.shown_born else "",
                       p.country.code if p.country else "", "yes" if p.entered else "no",
                       "; ".join(name for name, _kind in row.relations), "yes" if p.media_opt_out else "no",
                       "yes" if p.listed else "no"]
    return table_response(fmt, f"{tournament.slug}-players", header, lines())


@login_required
@require_POST
def player_listing(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """List a player in the public ratings across events, or hide them (their wish, recorded by an organizer of every
    tournament they are entered in; audited as a change of their details)."""
    tournament = organized_tournament(request.user, slug)
    player = get_object_or_404(visible_players(request.user), pk=player_id)
    listed = request.POST.get("listed") == "1"
    try:
        change_player(player.pk, user=request.user, tournament=tournament, listed=listed)
    except PermissionDenied:
        messages.error(request, _("Only an organizer of every tournament %(player)s is entered in may change this.")
                       % {"player": player.name})
    else:
        messages.success(request, (_("%(player)s is listed in the public ratings.") if listed else
                                   _("%(player)s is hidden from the public ratings.")) % {"player": player.name})
    return redirect(f"{reverse('organize-players', args=[slug])}?{urlencode({'q': player.name, 'only': 'all'})}")


@login_required
def player_erase(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Erase a player's personal data on their written request (privacy/erasure.py): GET shows what it does, the POST
    erases, for an organizer of every tournament the player played; audited."""
    tournament = organized_tournament(request.user, slug)
    player = get_object_or_404(visible_players(request.user), pk=player_id)
    if not erasure.may_erase(request.user, player):
        raise PermissionDenied(_("Only an organizer of every tournament %(player)s played may erase them.")
                               % {"player": player.name})
    form = ErasureForm(request.POST or None)
    context = {"tournament": tournament, "player": player, "form": form, "erased": erasure.is_erased(player)}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "organize/player_erase.html", context, status=422)
        try:
            erased = erasure.erase(player.pk, by=Erasure.By.ORGANIZER, user=request.user,
                                   reason=form.cleaned_data["request"])
        except PermissionDenied:
            raise PermissionDenied(_("Only an organizer of every tournament %(player)s played may erase them.")
                                   % {"player": player.name}) from None
        messages.success(request, _("Erased: the player is now %(pseudonym)s everywhere.") % {"pseudonym": erased.name})
        return redirect(f"{reverse('organize-players', args=[slug])}?{urlencode({'q': erased.name, 'only': 'all'})}")
    return render(request, "organize/player_erase.html", context)


@login_required
def player_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = people.add_player(tournament, user=request.user, name=data["name"], email=data["email"],
                                       date_of_birth=data["date_of_birth"], country=data["country"],
                                       friend=data["friend"], kind=data["kind"])
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("%(player)s registered.") % {"player": player.name})
            return redirect("organize-player-add", slug=slug)
    return render(request, "organize/player_add.html", {"tournament": tournament, "form": form,
                                                        "is_organizer": True},
                  status=422 if form.errors else 200)


def _preview_context(tournament: Tournament, records: list[tuple[int, dict[str, str]]], *, filename: str,
                     user: AbstractBaseUser | AnonymousUser, columns: Columns, date_format: str | None = None,
                     decisions: dict[int, str] | None = None,
                     read_problems: Iterable[InputProblem] = ()) -> dict[str, Any]:
    """The preview, and a signed token holding the list, how its header and dates were read, the choices it was
    shown with and the players it matched. Dates are read as guessed from the file unless `date_format` is chosen."""
    decisions = decisions or {}
    guess = date_guess(records, tournament)
    date_format = date_format or guess.format
    preview = preview_list(records, tournament, user=user, decisions=decisions, read_problems=list(read_problems),
                           date_format=date_format)
    shown = {str(item.line): preview.matches[item.line].decision for item in preview.decisions}
    token = signing.dumps({"t": tournament.pk, "u": user.pk, "f": filename, "r": records, "d": shown,
                           "df": date_format, "c": columns.as_dict(),
                           "m": {str(line): m.player.pk for line, m in preview.matches.items()}},
                          salt=IMPORT_SALT, compress=True)
    can_import = preview.ok and not preview.counts.nothing_to_do
    form = ImportConfirmForm(initial={"token": token, "date_format": date_format})
    country = tournament.championship.country if tournament.championship else None
    return {"preview": preview, "filename": filename, "token": token if preview.lines else None,
            "summary": _summary(preview.counts, tournament) if preview.ok else "",
            "confirm_form": form if can_import else None, "dates_form": form, "guess": guess,
            "guess_label": FORMAT_LABELS[guess.format], "guess_country": country.local_name if country else "",
            "columns": columns, "privacy_notice_version": privacy_notice.version_shown(tournament.championship),
            "columns_read": [(COLUMN_LABELS[c], _joined(c, h, columns)) for c, h in columns.used.items()]}


def _joined(column: str, header: str, columns: Columns) -> str:
    """The header a column is read from; for the name, with the last-name question joined to it."""
    return f"{header} + {columns.surname}" if column == "name" and columns.surname else header


COLUMN_LABELS = {"name": gettext_lazy("Name"), "email": gettext_lazy("Email"),
                 "date_of_birth": gettext_lazy("Date of birth"), "country": gettext_lazy("Country"),
                 "friends_or_family": gettext_lazy("Friends and family")}
"""The preview's names for the list's columns (the table's headings)."""


def _summary(counts: Counts, tournament: Tournament) -> str:
    """What confirming does, counted: the preview's line and the import button say it (issue 20 item 11)."""
    parts = [
        ngettext("%(n)d new player", "%(n)d new players", counts.new),
        ngettext("%(n)d registered player linked as registered", "%(n)d registered players linked as registered",
                 counts.linked),
        ngettext("%(n)d record updated", "%(n)d records updated", counts.updated),
        ngettext("%(n)d player entered in %(tournament)s", "%(n)d players entered in %(tournament)s", counts.entered),
        ngettext("%(n)d relationship declared", "%(n)d relationships declared", counts.relationships),
    ]
    numbers = (counts.new, counts.linked, counts.updated, counts.entered, counts.relationships)
    return ", ".join(part % {"n": n, "tournament": tournament.name} for part, n in zip(parts, numbers) if n)


@login_required
def player_import(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: the upload form. POST a file: its preview, nothing saved. POST the preview's token: the import
    (or, when the organizer changed a row's choice, the preview again with the counts those choices give)."""
    tournament = organized_tournament(request.user, slug)
    context: dict[str, Any] = {"tournament": tournament, "is_organizer": True}
    if request.method == "POST" and "token" in request.POST:
        return _confirm(request, tournament, context)
    form = ImportUploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                read = read_list(upload.name, upload.read())
            except InputError as error:
                form.add_error("file", [str(p) for p in error.problems])
            else:
                previewed = _preview_context(tournament, read.records, filename=upload.name[:200],
                                             user=request.user, columns=read.columns, read_problems=read.problems)
                try:  # each registered player of another championship it names is a lookup
                    people.looked_up_in(previewed["preview"], tournament, user=request.user)
                except ValidationError as error:
                    form.add_error("file", error.messages)
                else:
                    context.update(previewed)
        if form.errors or not context.get("preview") or not context["preview"].ok:
            status = 422
    context["form"] = form if "preview" not in context or not context["preview"].ok else ImportUploadForm()
    return render(request, "organize/player_import.html", context, status=status)


def _posted_decisions(request: HtmxHttpRequest, shown: dict[int, Any]) -> dict[int, str]:
    """The choice posted for each row the preview asked about (anything else is the default)."""
    chosen = {}
    for line in shown:
        value = request.POST.get(f"decision-{line}", KEEP)
        chosen[int(line)] = value if value in DECISIONS else KEEP
    return chosen


def _confirm(request: HtmxHttpRequest, tournament: Tournament, context: dict[str, Any]) -> HttpResponse:
    form = ImportConfirmForm(request.POST)
    form.is_valid()  # a date format not offered is said on the preview; a bad token is refused below
    try:
        if "token" in form.errors:
            raise signing.BadSignature
        data = signing.loads(form.cleaned_data["token"], salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE)
        if data["t"] != tournament.pk or data["u"] != request.user.pk:
            raise signing.BadSignature
        records = [(int(line), {str(k): str(v) for k, v in cells.items()}) for line, cells in data["r"]]
        shown = {int(line): str(choice) for line, choice in data["d"].items()}
        matched = {int(line): int(pk) for line, pk in data["m"].items()}
        shown_format = str(data.get("df", ISO))
        columns = Columns.from_dict(data.get("c", {}))
        if shown_format not in FORMATS:
            raise ValueError(shown_format)
    except (signing.BadSignature, KeyError, TypeError, ValueError, AttributeError):
        messages.error(request, _("This preview has expired or was not made here: upload the list again."))
        return redirect("organize-player-import", slug=tournament.slug)
    decisions = _posted_decisions(request, shown)
    date_format = form.cleaned_data.get("date_format") or shown_format
    filename = str(data.get("f", ""))

    def again() -> dict[str, Any]:
        return _preview_context(tournament, records, filename=filename, user=request.user, columns=columns,
                                decisions=decisions, date_format=date_format)

    if decisions != shown or date_format != shown_format or "recheck" in request.POST or form.errors:
        context.update(again())
        context.update(form=ImportUploadForm(), rechecked=not form.errors,
                       date_errors=form.errors.get("date_format", []))
        status = 200 if context["preview"].ok and not form.errors else 422
        return render(request, "organize/player_import.html", context, status=status)
    try:
        if tournament.championship and request.POST.get("consent") != "1":
            raise ValidationError(_("Tick that the players on the list agreed to the championship's privacy notice: "
                                    "the import records that you collected their consent."))
        with transaction.atomic():
            result = people.import_list(tournament, records, user=request.user, decisions=decisions,
                                        expected=matched, date_format=date_format)
            if tournament.championship:
                privacy_notice.consent_collected(tournament, players=len(records), user=request.user)
    except ValidationError as error:
        context.update(again())
        context.update(form=ImportUploadForm(), import_errors=error.messages)
        return render(request, "organize/player_import.html", context, status=422)
    messages.success(request, _("Imported %(file)s: %(created)d new players, %(linked)d registered players linked "
                                "as they are, %(updated)d updated, %(entered)d entered, %(pairs)d relationships "
                                "declared.")
                     % {"file": filename, "created": result.created, "linked": result.linked,
                        "updated": result.updated, "entered": result.entered, "pairs": result.relationships})
    return redirect("organize-players", slug=tournament.slug)


@login_required
def relationship_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    form = RelationshipForm(request.POST or None, players=rosters.entered_players(tournament, request.user))
    if request.method == "POST" and form.is_valid():
        try:
            people.declare_pair(tournament, form.cleaned_data["one"], form.cleaned_data["other"],
                                form.cleaned_data["kind"], user=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Relationship declared."))
            return redirect("organize-relationships", slug=slug)
    query = search_query(request.GET)
    page = Paginator(rosters.relationships(tournament, query), rosters.PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    rosters.tell_apart(page.object_list, "player_a", "player_b", user=request.user)
    return render(request, "organize/relationships.html", {
        "tournament": tournament, "form": form, "page": page,
        "query": query, "is_organizer": True}, status=422 if form.errors else 200)


@login_required
@require_POST
def relationship_remove(request: HtmxHttpRequest, slug: str, relationship_id: int) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    remove_declaration(relationship_id, user=request.user, tournament=tournament)
    messages.success(request, _("Relationship removed."))
    return redirect("organize-relationships", slug=slug)


@login_required
def relationship_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    rows = ([r.player_a.name, r.player_a.country.code if r.player_a.country else "", r.player_b.name,
             r.player_b.country.code if r.player_b.country else "", r.kind, "yes" if r.declared_here else "no"]
            for r in cast("Iterator[WithAnnotations[Relationship, _DeclaredHere]]",
                          rosters.relationships(tournament, search_query(request.GET)).iterator(chunk_size=500)))
    return table_response(fmt, f"{tournament.slug}-relationships",
                          ["player", "country", "friend_or_family", "their_country", "kind", "declared_here"], rows)

