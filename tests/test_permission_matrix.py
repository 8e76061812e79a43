"""Who may open and post to every URL, generated from the URL resolver (issue 9, the harness).

Every URL the project routes is requested by every kind of visitor, with GET and with POST, against one
running tournament; each answer must fall in the class the table `ACCESS` below expects for that URL name,
and a request that is refused (or any GET) must leave the database exactly as it was. A URL name with no
entry in `ACCESS` fails the test: whoever adds a URL decides here who may use it.
"""
import copy
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from urllib.parse import urlsplit

import pytest
from django.core import signing
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import LocalePrefixPattern
from django.utils import timezone

from attendance import self_checkin
from audit.models import AuditEntry
from calls.services import place_call
from championships import links
from championships.api_tokens import create_token
from championships.models import Entry, EntryInvitation, Player, PlayerLink, Registration, StaffRole, Tournament
from championships.services import assign_staff, declare_relationship
from core import outbound
from core.sealed import seal
from engines.boards.generator import generate_board
from notices.models import UndeliveredEmail
from printing.models import PrintJob
from privacy.erasure import ASK_SALT
from ranking.standings import tied_groups, tournament_standings
from ratings.seasons import create_season
from ratings.services import recompute_all
from results.announcements import post_announcement
from results.penalties import record_penalty
from tests.db_snapshot import snapshot
from tests.factories import make_admin, make_entries, make_game, make_official, make_tournament, make_user, play
from tests.ssrf import LITERAL_HOSTS, SPECIAL_NAMES, resolver

pytestmark = pytest.mark.django_db

# Outcome classes of one response.
OK = "ok"                # 2xx, a form refused with 4xx 400/422, or a redirect that is not to a login page
LOGIN = "login"          # redirect to a login page (the site's or the admin's)
FORBIDDEN = "forbidden"  # 403
NOT_FOUND = "not found"  # 404
NOT_ALLOWED = "method"   # 405
UNAUTHORIZED = "token"   # 401: an API v1 operation that takes an organizer's API token, asked without one

ACTORS = ("anonymous", "no_role", "player", "referee_elsewhere", "organizer_elsewhere", "referee", "organizer",
          "championship_organizer", "superuser")
REFUSED_OUTSIDERS = ("no_role", "player", "referee_elsewhere", "organizer_elsewhere")


def _rule(anonymous, outsiders, referee, organizer, superuser=OK) -> dict[str, str]:
    return {"anonymous": anonymous, **{a: outsiders for a in REFUSED_OUTSIDERS}, "referee": referee,
            "organizer": organizer, "championship_organizer": organizer, "superuser": superuser}


ANYONE = _rule(OK, OK, OK, OK)
SIGNED_IN = _rule(LOGIN, OK, OK, OK)
OFFICIALS = _rule(LOGIN, FORBIDDEN, OK, OK)
ORGANIZERS = _rule(LOGIN, FORBIDDEN, FORBIDDEN, OK)
NOBODY = _rule(NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED)     # wrong method, for all
SIGNED_IN_WRONG_METHOD = _rule(LOGIN, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED)
CREATORS = _rule(LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN)                        # superusers and add_championship
CHAMPIONSHIP_ORGANIZERS = {**ORGANIZERS, "organizer": FORBIDDEN}               # a tournament's organizer is not one
TOKEN_ONLY = _rule(UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED)  # a session is not a token
NOWHERE = _rule(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND)  # an address no operation has, for all


@dataclass
class Access:
    get: dict[str, str]
    post: dict[str, str]
    data: Callable[["World"], dict] = field(default=lambda world: {})  # a valid POST, so refusals are real
    kwargs: Callable[["World"], dict] = field(default=lambda world: {})  # objects other than the usual ones


def _scores(world):
    return {"base_version": world.open_sheet_version, "winner": world.open_table_entries[0],
            **{f"vp_{entry}": vp for entry, vp in zip(world.open_table_entries, (10, 8, 6, 4))}}


def _season_data(world):
    return {"name": "Perm Tour", "championships": [world.tournament.championship_id], "points_qualifier": "10, 6, 3",
            "tiebreak_0": "wins"}


def _correction(world):
    return {"base_version": world.locked_sheet_version, "reason": "The paper sheet says otherwise.",
            "winner": world.locked_table_entries[0],
            **{f"vp_{entry}": vp for entry, vp in zip(world.locked_table_entries, (10, 7, 6, 4))}}


ACCESS: dict[str, Access] = {
    # health and the read-only JSON API
    "healthz": Access(ANYONE, NOBODY),
    "livez": Access(ANYONE, NOBODY),
    # Prometheus: only the bearer of METRICS_TOKEN, never a session (unset here: the page does not exist for anyone)
    "metrics": Access(_rule(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND), NOBODY),
    "favicon": Access(ANYONE, NOBODY),
    # the referee's tablet as an installable app (issue 28): worker, manifest and icons, for any visitor
    "service-worker": Access(ANYONE, NOBODY),
    "manifest": Access(ANYONE, NOBODY),
    "app-icon-192": Access(ANYONE, NOBODY),
    "app-icon-512": Access(ANYONE, NOBODY),
    "api-tournaments": Access(ANYONE, NOBODY),
    "api-standings": Access(ANYONE, NOBODY),
    "api-seating": Access(ANYONE, NOBODY),
    # API v1 (issue 27): public, GET only; its root is the index (ninja's own root name is shadowed by it)
    **{f"api-v1:{name}": Access(ANYONE, NOBODY) for name in (
        "index", "api-root", "openapi-json", "openapi-view", "championships", "tournaments", "tournament", "standings",
        "games", "seating", "players", "player", "announcements")},
    "api-v1:championship": Access(ANYONE, NOBODY, kwargs=lambda w: {"slug": w.tournament.championship.slug}),
    "api-v1:board": Access(ANYONE, NOBODY, kwargs=lambda w: {"code": generate_board(1).code}),
    "api-v1:entries": Access(NOBODY, TOKEN_ONLY, lambda w: {"player_ids": [w.entry.player_id]}),
    "api-v1:import": Access(NOBODY, TOKEN_ONLY, lambda w: {"csv": "name\nMallory"}),
    "api-v1:results": Access(TOKEN_ONLY, NOBODY),
    "api-v1:no-operation": Access(NOWHERE, NOWHERE),  # any other address under /api/v1/: a JSON 404
    "organize-privacy-notice": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS,
                                      lambda w: {"text": "We keep your name and email for the tournaments."}),
    "organize-api-tokens": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS, lambda w: {"name": "Perm token"}),
    "organize-webhooks": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS,
                                lambda w: {"url": "https://example.org/hook", "events": ["game.published"]}),
    "championship-activity": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "championship-activity-csv": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "championship-activity-xlsx": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-webhook-deliveries-csv": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-webhook-deliveries-xlsx": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "set_language": Access(ANYONE, ANYONE, lambda w: {"language": "ar", "next": "/"}),
    # Django's auth views
    "login": Access(ANYONE, ANYONE, lambda w: {"username": w.users["no_role"].username, "password": "wrong"}),
    "logout": Access(NOBODY, ANYONE),
    "password_change": Access(SIGNED_IN, SIGNED_IN, lambda w: {
        "old_password": "pw-for-tests-only", "new_password1": "A-new-passw0rd!", "new_password2": "A-new-passw0rd!"}),
    "password_change_done": Access(SIGNED_IN, SIGNED_IN_WRONG_METHOD),
    "password_reset": Access(ANYONE, ANYONE, lambda w: {"email": "someone@example.com"}),
    "password_reset_done": Access(ANYONE, NOBODY),
    "password_reset_confirm": Access(ANYONE, ANYONE, lambda w: {
        "new_password1": "A-new-passw0rd!", "new_password2": "A-new-passw0rd!"}),
    "password_reset_complete": Access(ANYONE, NOBODY),
    # public pages
    "home": Access(ANYONE, ANYONE),
    "public-standings": Access(ANYONE, NOBODY),
    "public-standings-csv": Access(ANYONE, NOBODY),
    "public-standings-xlsx": Access(ANYONE, NOBODY),
    "public-championship": Access(ANYONE, NOBODY),
    "public-tournament": Access(ANYONE, NOBODY),
    "public-where": Access(ANYONE, NOBODY),
    "public-game": Access(ANYONE, NOBODY),
    "public-player": Access(ANYONE, NOBODY),
    "public-screen": Access(ANYONE, NOBODY),
    "public-version": Access(ANYONE, NOBODY),
    "public-overlay": Access(ANYONE, NOBODY),
    "public-overlay-version": Access(ANYONE, NOBODY),
    "public-embed": Access(ANYONE, NOBODY),
    "public-standings-pdf": Access(ANYONE, NOBODY),
    "public-seating-pdf": Access(ANYONE, NOBODY),
    # the referee's tablet; the actions redirect a GET to the sheet
    "referee-home": Access(SIGNED_IN, SIGNED_IN),
    "referee-desk": Access(OFFICIALS, OFFICIALS),
    "referee-sheet": Access(OFFICIALS, OFFICIALS),
    "referee-scores": Access(SIGNED_IN, OFFICIALS, _scores),
    "referee-play-order": Access(SIGNED_IN, OFFICIALS, lambda w: {
        f"position_{n}": entry for n, entry in enumerate(reversed(w.open_table_entries), start=1)}),
    "referee-banker": Access(SIGNED_IN, OFFICIALS, lambda w: {"banker": "referee", "was": w.open_table_entries[0]}),
    "referee-sign": Access(SIGNED_IN, OFFICIALS, lambda w: {
        "entry": w.open_table_entries[0], "version": w.open_sheet_version, "method": "tap"}),
    "referee-sign-off": Access(SIGNED_IN, OFFICIALS, lambda w: {"version": w.open_sheet_version}),
    "referee-offline-send": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS, lambda w: {"kind": "scores", **_scores(w)}),
    "referee-pending": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS, lambda w: {"tables": w.open_table.pk}),
    "referee-correct": Access(SIGNED_IN, ORGANIZERS, _correction, lambda w: {"table_id": w.locked_table.pk}),
    "referee-penalties": Access(OFFICIALS, OFFICIALS, lambda w: {
        "entry": w.open_table_entries[1], "kind": "warning", "reason": "Slow play, warned twice.",
        "request_key": str(uuid.uuid4())}),
    "referee-draws": Access(OFFICIALS, OFFICIALS, lambda w: w.draw_data),
    "referee-announce": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS, lambda w: {"text": "Lunch until 13:30."}),
    "referee-announcement-remove": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS),
    "referee-clock": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS, lambda w: {"action": "start"}),
    "referee-timed-turns": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS, lambda w: {"turns": "on"}),
    # calls for a referee from the players' phones (issue 36): the queue, taking, resolving or passing one
    "referee-calls": Access(OFFICIALS, SIGNED_IN_WRONG_METHOD),
    "referee-call": Access(OFFICIALS, OFFICIALS, lambda w: {"resolve": "1", "ruling": "Trades are public."}),
    "referee-call-take": Access(SIGNED_IN_WRONG_METHOD, OFFICIALS),
    # the organizer's pages
    "activity-log": Access(ORGANIZERS, ORGANIZERS),
    "organize-embed": Access(ORGANIZERS, ORGANIZERS, lambda w: {"origins": "https://federation.example"}),
    "activity-log-csv": Access(ORGANIZERS, ORGANIZERS),
    "activity-log-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-results-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-results-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "seating-overview": Access(ORGANIZERS, ORGANIZERS),
    "stage-seating": Access(ORGANIZERS, ORGANIZERS),
    "stage-seating-csv": Access(ORGANIZERS, ORGANIZERS),
    "stage-seating-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "stage-generate": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"seed": 7}),
    # no seating is being planned: organizers learn that (404), everybody else may not ask
    "stage-task": Access(_rule(LOGIN, FORBIDDEN, FORBIDDEN, NOT_FOUND, NOT_FOUND),
                         _rule(LOGIN, FORBIDDEN, FORBIDDEN, NOT_FOUND, NOT_FOUND)),
    "game-swap": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"seat": ["1.1", "2.1"], "layout": ""}),
    "game-publish": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "game-board": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "game-unpublish": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "game-repair-status": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "stage-seed": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "stage-clear": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "qualification": Access(ORGANIZERS, ORGANIZERS),
    "qualification-advance": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "qualification-replace": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    # the organizer's console (issue 11): dashboard, new championship, tournament page, status, staff
    "organize-home": Access(SIGNED_IN, SIGNED_IN_WRONG_METHOD),
    "organize-new": Access(CREATORS, CREATORS, lambda w: {"preset": "custom", "year": "2030"}),
    "organize-championship": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-board-limits": Access(SIGNED_IN_WRONG_METHOD, CHAMPIONSHIP_ORGANIZERS, lambda w: {
        "limits": ["red_numbers_spread"]}),
    "organize-championship-staff": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS, lambda w: {
        "identifier": "perm-no-role", "role": "organizer", "confirm_organizer": "on"}),
    "organize-staff-remove": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "organize-staff-unlock": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "organize-tournament": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-status": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"action": "close", "reason": "Rain."}),
    "organize-staff": Access(ORGANIZERS, ORGANIZERS, lambda w: {"identifier": "perm-no-role", "role": "referee"}),
    "organize-missing": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "penalty-withdraw": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"reason": "Recorded by mistake."}),
    # players, relationships, entries and check-in (issue 11)
    "organize-players": Access(ORGANIZERS, ORGANIZERS),
    "organize-players-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-players-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-player-add": Access(ORGANIZERS, ORGANIZERS, lambda w: {"name": "Perm Newcomer", "kind": "friend"}),
    "organize-player-import": Access(ORGANIZERS, ORGANIZERS),
    "organize-relationships": Access(ORGANIZERS, ORGANIZERS, lambda w: {
        "one": w.entry.player_id, "other": w.other_entry_player_id, "kind": "family"}),
    "organize-relationships-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-relationships-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-relationship-remove": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "organize-entries": Access(ORGANIZERS, ORGANIZERS),
    "organize-entries-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-entries-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-entries-add": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"all_matching": "1"}),
    "organize-entries-remove": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"selected": [w.entry.pk]}),
    "organize-checkin": Access(ORGANIZERS, ORGANIZERS),
    "organize-checkin-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-checkin-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-checkin-no-shows": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    "organize-checkin-entry": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {
        "action": "withdraw", "reason": "Felt unwell."}),
    "organize-checkin-late": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    # the organizer's PDFs (issue 13); no podium yet in this tournament: organizers learn that (404)
    "print-table-cards": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-record-sheets": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-result-slips": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-blank-sheets": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-qualification": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-certificates": Access(_rule(LOGIN, FORBIDDEN, FORBIDDEN, NOT_FOUND, NOT_FOUND), SIGNED_IN_WRONG_METHOD),
    "print-job-start": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {
        "game": w.game.number, "kind": "table_cards", "paper": "a4"}),
    "print-job": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-job-download": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "print-job-retry": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS),
    # registrations by players, private links, self check-in (issue 25): the organizer's side
    "organize-registrations": Access(ORGANIZERS, ORGANIZERS, lambda w: {"self_registration": "on", "capacity": "12"}),
    "organize-registrations-csv": Access(ORGANIZERS, ORGANIZERS),
    "organize-registrations-xlsx": Access(ORGANIZERS, ORGANIZERS),
    "organize-registration-decide": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {
        "action": "refuse", "reason": "Places are for members."}),
    "organize-private-link": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"player": w.entry.player_id}),
    "organize-checkin-window": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"action": "open",
                                                                                     "minutes": "10"}),
    "organize-checkin-qr": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    # emails that could not be sent (issue 32): the tournament's organizers see them, send them again, export them
    "organize-emails": Access(ORGANIZERS, ORGANIZERS, lambda w: {"send_again": w.undelivered_id}),
    "organize-emails-csv": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-calls": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-calls-csv": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-calls-xlsx": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-emails-xlsx": Access(ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    # the players' side: no account, a token is the key (whoever holds it, signed in or not); who may reach which
    # player's data through a token is tested in tests/players/test_player_pages.py
    "players-register": Access(ANYONE, ANYONE, lambda w: {
        "name": "Perm Runner", "email": "perm-runner@example.org", "date_of_birth": "1990-01-01"}),
    "players-register-confirm": Access(ANYONE, ANYONE, kwargs=lambda w: {"token": w.confirm_token}),
    "players-check-in": Access(ANYONE, _rule(FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    "players-tournament-calendar": Access(ANYONE, NOBODY),
    "players-championship-calendar": Access(ANYONE, NOBODY),
    "players-me-home": Access(ANYONE, ANYONE, lambda w: {"email": "perm-player-4@example.org"}),
    "players-me": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token}),
    "players-me-calendar": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token}),
    "players-me-seat": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token,
                                                                "slug": w.tournament.slug}),
    "players-me-data": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token}),
    "players-me-data-json": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token}),
    "players-me-erase": Access(NOBODY, ANYONE, kwargs=lambda w: {"token": w.player_token}),
    "players-erase-confirm": Access(ANYONE, ANYONE, kwargs=lambda w: {"token": signing.dumps(
        links.player_for(w.player_token).pk, salt=ASK_SALT)}),
    # a player calls a referee to the table they sit at (issue 36): the token is the key, as above
    "players-me-calls": Access(ANYONE, NOBODY, kwargs=lambda w: {"token": w.player_token}),
    "players-me-call": Access(NOBODY, ANYONE, lambda w: {"reason": "pieces", "note": "No blue road"},
                              kwargs=lambda w: {"token": w.player_token}),
    "players-me-cancel": Access(NOBODY, ANYONE, kwargs=lambda w: {"token": w.player_token,
                                                                  "registration_id": w.own_registration_id}),
    "players-me-sheet": Access(NOBODY, ANYONE, lambda w: {"action": "confirm", "version": w.open_sheet_version},
                               kwargs=lambda w: {"token": w.player_token}),
    # a player confirms an entry another championship made (issue 33 item 2): the link is the key, as above
    "players-me-entry-confirm": Access(NOBODY, ANYONE, kwargs=lambda w: {"token": w.player_token,
                                                                          "entry_id": w.invited_entry_id}),
    # Web Push (configured for this module, `_web_push_configured`): the token is the key, as for the page
    "players-me-push-subscribe": Access(NOBODY, ANYONE, lambda w: {
        "endpoint": "https://push.example.com/perm", "p256dh": "BA" + "A" * 85, "auth": "A" * 22},
        kwargs=lambda w: {"token": w.player_token}),
    "players-me-push-unsubscribe": Access(NOBODY, ANYONE, lambda w: {"endpoint": "https://push.example.com/perm"},
                                          kwargs=lambda w: {"token": w.player_token}),
    # ratings across events and seasons (issue 26): public pages and JSON of a rated player; seasons for the
    # organizers of every championship in them; the listing opt-out recorded by the player's organizers
    "ratings": Access(ANYONE, NOBODY),
    "ratings-csv": Access(ANYONE, NOBODY),
    "ratings-xlsx": Access(ANYONE, NOBODY),
    "rating-player": Access(ANYONE, NOBODY, kwargs=lambda w: {"player_id": w.rated_player_id}),
    "rating-player-csv": Access(ANYONE, NOBODY, kwargs=lambda w: {"player_id": w.rated_player_id}),
    "rating-player-xlsx": Access(ANYONE, NOBODY, kwargs=lambda w: {"player_id": w.rated_player_id}),
    "api-ratings": Access(ANYONE, NOBODY),
    "api-rating-player": Access(ANYONE, NOBODY, kwargs=lambda w: {"player_id": w.rated_player_id}),
    "organize-seasons": Access(SIGNED_IN, SIGNED_IN_WRONG_METHOD),
    "organize-season-new": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS, lambda w: _season_data(w)),
    "organize-season": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-season-edit": Access(CHAMPIONSHIP_ORGANIZERS, CHAMPIONSHIP_ORGANIZERS,
                                   lambda w: {**_season_data(w), "version": "0"}),
    "organize-season-delete": Access(SIGNED_IN_WRONG_METHOD, CHAMPIONSHIP_ORGANIZERS),
    "organize-season-csv": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-season-xlsx": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-season-pdf": Access(CHAMPIONSHIP_ORGANIZERS, SIGNED_IN_WRONG_METHOD),
    "organize-player-listing": Access(SIGNED_IN_WRONG_METHOD, ORGANIZERS, lambda w: {"listed": "0"}),
    "organize-player-erase": Access(ORGANIZERS, ORGANIZERS, lambda w: {"request": "Email of 30 November",
                                                                        "confirm": "on"}),
}

# The Django admin, all of it: superusers only (no account here is staff without being a superuser).
ADMIN_NAMESPACE = "admin"
ADMIN_OPEN = {"admin:login", "admin:logout"}  # Django's own sign-in and sign-out pages

# The objects a URL's keyword arguments name, by argument.
KWARG_SOURCES = {
    "address": lambda w: "no-such-operation/",  # under /api/v1/
    "slug": lambda w: w.tournament.slug,
    "stage_id": lambda w: w.stage.pk,
    "game_id": lambda w: w.game.pk,
    "table_id": lambda w: w.open_table.pk,
    "entry_id": lambda w: w.entry.pk,
    "task_id": lambda w: w.task_id,
    "number": lambda w: w.game.number,
    "uidb64": lambda w: "MQ",
    "token": lambda w: "set-password",
    "championship_slug": lambda w: w.tournament.championship.slug,
    "role_id": lambda w: StaffRole.objects.get(user=w.users["referee"], tournament=w.tournament).pk,
    "penalty_id": lambda w: w.tournament.penalties.get().pk,
    "player_id": lambda w: w.entry.player_id,
    "announcement_id": lambda w: w.announcement_id,
    "relationship_id": lambda w: w.relationship_id,
    "job_id": lambda w: w.print_job_id,
    "season_id": lambda w: w.season_id,
    "registration_id": lambda w: w.registration_id,
    "code": lambda w: w.check_in_code,
    "sheet_id": lambda w: w.open_table.sheet.pk,
    "call_id": lambda w: w.call_id,
}
# Keyword arguments that name one tournament's objects: another tournament's organizer must not reach them.
OBJECT_KWARGS = {"stage_id", "game_id", "table_id", "entry_id", "task_id", "penalty_id", "announcement_id", "job_id",
                 "relationship_id", "registration_id", "sheet_id", "call_id"}


@dataclass
class Url:
    name: str
    route: str
    kwargs: tuple[str, ...]
    localized: bool
    namespace: str | None


def _walk(patterns, prefix="", namespace=None, localized=False):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner,
                             localized or isinstance(pattern.pattern, LocalePrefixPattern))
        elif isinstance(pattern, URLPattern):
            route = prefix + str(pattern.pattern)
            name = pattern.name or route  # an unnamed URL is keyed by its route
            if namespace:
                name = f"{namespace}:{name}"
            yield Url(name, route, tuple(pattern.pattern.regex.groupindex), localized, namespace)


def project_urls() -> list[Url]:
    return list(_walk(get_resolver().url_patterns))


def _is_admin(url: Url) -> bool:
    return (url.namespace or "").split(":", 1)[0] == ADMIN_NAMESPACE


SITE_URLS = [url for url in project_urls() if not _is_admin(url)]
ADMIN_URLS = [url for url in project_urls() if _is_admin(url)]


@dataclass
class World:
    tournament: object
    other: object
    stage: object
    game: object
    open_table: object
    locked_table: object
    open_table_entries: list[int]
    open_sheet_version: int
    locked_table_entries: list[int]
    locked_sheet_version: int
    entry: object
    users: dict
    task_id: str = "perm-matrix-task"
    announcement_id: int = 0
    call_id: int = 0
    relationship_id: int = 0
    other_entry_player_id: int = 0
    print_job_id: int = 0
    undelivered_id: int = 0
    registration_id: int = 0
    own_registration_id: int = 0
    invited_entry_id: int = 0
    confirm_token: str = ""
    player_token: str = ""
    check_in_code: str = ""
    rated_player_id: int = 0
    season_id: int = 0
    draw_data: dict = field(default_factory=dict)
    clients: dict = field(default_factory=dict)  # one signed-in test client per actor


def _build_world() -> World:
    """One running tournament: its one game published, a table signed off, the other open, a penalty, staff;
    and a tournament of another championship, with another organizer, sharing two of its players."""
    admin = make_admin()
    tournament = make_tournament(slug="perm-matrix", games=1)
    entries = make_entries(tournament, 8)
    other = make_tournament(slug="perm-elsewhere", games=1)
    make_entries(other, 4)
    for n, entry in enumerate(entries):  # personal data that tells each one's apart
        Player.objects.filter(pk=entry.player_id).update(email=f"perm-player-{n}@example.org",
                                                         date_of_birth=date(1970 + n, 1, 2))
    for entry in entries[2:4]:
        Entry.objects.create(tournament=other, player=entry.player)
    users = {
        "no_role": make_user("perm-no-role"),
        "player": make_user("perm-player"),
        "referee_elsewhere": make_official(other, "referee", "perm-referee-elsewhere"),
        "organizer_elsewhere": make_official(other, "organizer", "perm-organizer-elsewhere"),
        "referee": make_official(tournament, "referee", "perm-referee"),
        "organizer": make_official(tournament, "organizer", "perm-organizer"),
        "championship_organizer": make_user("perm-championship-organizer"),
        "superuser": make_user("perm-superuser", is_superuser=True, is_staff=True),
    }
    Player.objects.filter(pk=entries[0].player_id).update(user=users["player"])
    assign_staff(users["championship_organizer"], StaffRole.Role.ORGANIZER, championship=tournament.championship,
                 user=admin)
    game = make_game(tournament, [entries[:4], entries[4:]])
    locked_table, open_table = game.tables.order_by("number")
    locked = play(locked_table, [10, 8, 6, 4], users["referee"])
    record_penalty(entries[6].pk, user=admin, kind="warning", reason="Talked about the cards.")
    groups = tied_groups(tournament_standings(tournament))
    draw_data = {"rank": "999"}
    if groups:
        rank = groups[0][0]["rank"]
        draw_data = {"rank": str(rank), f"tie{rank}-method": "cards",
                     **{f"tie{rank}-place_{n}": row["entry"] for n, row in enumerate(groups[0], start=1)}}
    open_table.sheet.refresh_from_db()
    announcement = post_announcement(tournament.pk, "Table 2 moved to the terrace.", user=admin)
    call = place_call(open_table.pk, "rules", "Can I trade now?", player=entries[4].player)
    pair = declare_relationship(entries[2].player, entries[3].player, user=admin, tournament=tournament)
    print_job = PrintJob.objects.create(game=game, kind=PrintJob.Kind.RECORD_SHEETS, requested_by=admin,
                                        status=PrintJob.Status.SUCCEEDED, done=1.0,
                                        pdf=b"%PDF-1.7 printed")
    Tournament.objects.filter(pk=tournament.pk).update(self_registration=True)
    confirm_token = "perm-matrix-confirmation-token-0123456789abcdef"
    unconfirmed = Registration.objects.create(
        tournament=tournament, name="Perm Registrant", email="perm-reg@example.org", date_of_birth=date(1990, 1, 1),
        confirm_digest=links.digest(confirm_token))
    own = Registration.objects.create(tournament=other, name=entries[4].player.name, email="perm-player-4@example.org",
                                      player=entries[4].player, status="waiting", confirmed_at=timezone.now(),
                                      confirm_digest=links.digest("perm-matrix-own"))
    window = self_checkin.open_window(tournament, user=admin, minutes=60)
    invited = Entry.objects.create(tournament=other, player=entries[4].player)  # by the other championship
    EntryInvitation.objects.create(entry=invited, invited_by=users["organizer_elsewhere"],
                                   email="perm-player-4@example.org")
    undelivered = UndeliveredEmail.objects.create(  # to a player entered only here
        tournament=tournament, to=entries[1].player.email, subject="Your private link", reason="550 no such user",
        failed_at=timezone.now(), message=seal({"to": entries[1].player.email, "subject": "Your private link",
                                                "body": "…", "attachments": [], "record": None, "about": []}))
    return World(tournament=tournament, other=other, stage=game.stage, game=game, open_table=open_table,
                 locked_table=locked_table, open_table_entries=[e.pk for e in entries[4:]],
                 open_sheet_version=open_table.sheet.version, locked_table_entries=[e.pk for e in entries[:4]],
                 locked_sheet_version=locked.version, entry=entries[1], users=users, draw_data=draw_data,
                 announcement_id=announcement.pk, call_id=call.pk, relationship_id=pair.pk,
                 other_entry_player_id=entries[5].player_id,
                 print_job_id=print_job.pk, undelivered_id=undelivered.pk, registration_id=unconfirmed.pk,
                 own_registration_id=own.pk, invited_entry_id=invited.pk,
                 confirm_token=confirm_token, player_token=links.issue(entries[4].player), check_in_code=window.code,
                 **_ratings_world(admin, tournament, users))


def _ratings_world(admin, tournament, users) -> dict:
    """A running event of four with its table signed off, rated; a season over the fixture's championship."""
    rated = make_tournament(slug="perm-rated", games=1, status=Tournament.Status.RUNNING)
    rated_entries = make_entries(rated, 4)
    play(make_game(rated, [rated_entries]).tables.get(), [10, 7, 5, 3], admin)
    recompute_all()
    season = create_season(user=users["championship_organizer"], name="Perm Season",
                           championship_ids=[tournament.championship_id], points={"qualifier": [10, 6, 3]},
                           tiebreaks=["wins"])
    return {"rated_player_id": rated_entries[0].player_id, "season_id": season.pk}


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # signing in is not what is tested here


@pytest.fixture(autouse=True)
def _web_push_configured(settings):
    """The players' push endpoints exist only where Web Push is configured (core/webpush.py)."""
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "BPermPublic", "permPrivate"


RESOLVED = {"push.example.com": ["93.184.215.14"], "inside.example.net": ["127.0.0.1"],
            "nat64.example.net": ["64:ff9b::7f00:1"]}
"""What the outbound guard's resolver answers here (no DNS): the valid subscription's push service is public, the
attacker's names lead inside."""


@pytest.fixture(autouse=True)
def _names_resolve(monkeypatch, settings):
    monkeypatch.setattr(outbound, "lookup", resolver(RESOLVED))
    settings.OUTBOUND_LOCAL_ALLOWED, settings.OUTBOUND_LOCAL_HOSTS = False, []


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction that is rolled back at its end; each request rolls back too."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = _build_world()
            for actor in ACTORS:  # signed in once: the sessions live in the module's transaction
                world.clients[actor] = Client()
                if actor != "anonymous":
                    world.clients[actor].force_login(world.users[actor])
            yield world
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def outcome(response) -> str:
    code = response.status_code
    if code in (301, 302, 303, 307, 308):
        path = urlsplit(response["Location"]).path
        return LOGIN if path.endswith("/accounts/login/") or path == reverse("admin:login") else OK
    if 200 <= code < 300 or code in (400, 422):
        return OK
    return {401: UNAUTHORIZED, 403: FORBIDDEN, 404: NOT_FOUND, 405: NOT_ALLOWED}.get(code, f"status {code}")


def _client(world: World, actor: str) -> Client:
    return world.clients[actor]


def _request(client: Client, method: str, path: str, data: dict, *, check_unchanged: bool, follow=False):
    """One request, rolled back afterwards; returns (outcome, the tables it changed if it should not have).

    The client's cookies are put back too: signing out or changing one's password rolls back with the rest.
    """
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        before = snapshot() if check_unchanged else None
        response = client.get(path, follow=follow) if method == "GET" else client.post(path, data)
        changed = []
        if check_unchanged:
            after = snapshot()
            changed = [label for label in before if before[label] != after[label]]
        transaction.set_rollback(True)
    client.cookies = cookies
    cache.clear()
    return outcome(response), changed


def _path(world: World, url: Url, *, slug: str | None = None) -> str:
    missing = [kw for kw in url.kwargs if kw not in KWARG_SOURCES]
    assert not missing, (f"{url.name} ({url.route}) takes {missing}: add them to KWARG_SOURCES in "
                         f"{__name__} with a real object of the fixture tournament.")
    kwargs = {kw: KWARG_SOURCES[kw](world) for kw in url.kwargs}
    if url.name in ACCESS:
        kwargs.update(ACCESS[url.name].kwargs(world))
    if slug is not None and "slug" in kwargs:
        kwargs["slug"] = slug
    return reverse(url.name, kwargs=kwargs)


def test_every_url_has_an_entry():
    names = {url.name for url in SITE_URLS}
    missing = sorted(names - ACCESS.keys())
    assert not missing, (f"URL names without an entry in ACCESS of tests/test_permission_matrix.py: {missing}. "
                         "Add one per name saying who may GET and POST it (and a valid POST body).")
    stale = sorted(ACCESS.keys() - names)
    assert not stale, f"ACCESS has entries for URLs that no longer exist: {stale}; remove them."


@pytest.mark.parametrize("url", SITE_URLS, ids=lambda url: url.name)
def test_who_may_use(world, url):
    assert url.name in ACCESS, (f"The URL {url.name!r} ({url.route}) has no entry in ACCESS of "
                                "tests/test_permission_matrix.py: add one saying who may GET and POST it.")
    access = ACCESS[url.name]
    path = _path(world, url)
    wrong = []
    for actor in ACTORS:
        client = _client(world, actor)
        for method, expected in (("GET", access.get[actor]), ("POST", access.post[actor])):
            data = access.data(world) if method == "POST" else {}
            got, changed = _request(client, method, path, data, check_unchanged=expected != OK or method == "GET")
            if got != expected:
                wrong.append(f"{method} {path} as {actor}: expected {expected}, got {got}")
            if changed:
                wrong.append(f"{method} {path} as {actor} ({got}) changed {changed}")
    if url.localized:  # the same page under a language prefix is guarded the same way
        localized = f"/ar{path}"
        got, _ = _request(Client(), "GET", localized, {}, check_unchanged=False)
        if got != access.get["anonymous"]:
            wrong.append(f"GET {localized} as anonymous: expected {access.get['anonymous']}, got {got}")
    assert not wrong, "\n".join(wrong)


CROSS_URLS = [url for url in SITE_URLS if OBJECT_KWARGS & set(url.kwargs) and "slug" in url.kwargs]
"""The players' URLs under /me/ name no tournament: their token is the key (tests/players/test_player_pages.py)."""


@pytest.mark.parametrize("actor", ["organizer_elsewhere", "referee_elsewhere"])
def test_staff_of_another_tournament_cannot_reach_this_ones_objects_through_their_own_slug(world, actor):
    """/organize/<their slug>/.../<our object id>/ must neither show nor change our objects."""
    client = _client(world, actor)
    wrong = []
    for url in CROSS_URLS:
        path = _path(world, url, slug=world.other.slug)
        data = ACCESS[url.name].data(world) if url.name in ACCESS else {}
        for method in ("GET", "POST"):
            # the referee's actions send a GET on to the sheet: follow it
            got, changed = _request(client, method, path, data, check_unchanged=True, follow=method == "GET")
            if got not in (FORBIDDEN, NOT_FOUND, NOT_ALLOWED):
                wrong.append(f"{method} {path} as {actor}: {got}")
            if changed:
                wrong.append(f"{method} {path} as {actor} changed {changed}")
    assert not wrong, "\n".join(wrong)


CROSS_READS = ["players/", "players/?only=not_entered", "players/?q=perm", "players.csv",
               "players.csv?only=not_entered", "entries/", "entries/?q=perm", "entries.csv", "relationships/",
               "relationships/?q=Player", "relationships.csv", "check-in/", "check-in.csv", "activity/",
               "activity.csv", "entries/?email=perm-player-1%40example", "entries/?name=x&born=1990-01-01",
               "registrations/", "registrations.csv", "emails/", "emails.csv"]


def test_no_write_or_personal_data_read_crosses_a_championship(world):
    """Issue 22, items 1-3: the organizer of another championship, sharing two players with this one, renamed our
    players by importing their emails, removed the pairs we declared, and listed our players' emails and dates of
    birth. Through their own pages they now read nothing personal of players entered only here, and change
    nothing of ours: an existing email links the player as registered."""
    client, theirs = _client(world, "organizer_elsewhere"), world.other.slug
    ours = Player.objects.get(pk=world.entry.player_id)  # entered only in this championship
    shared = Entry.objects.filter(tournament=world.other, player__entries__tournament=world.tournament,
                                  invitation__isnull=True).first().player
    wrong = []
    for url in CROSS_READS:
        body = client.get(f"/organize/{theirs}/{url}").content.decode("utf-8-sig")
        if ours.email in body or ours.date_of_birth.isoformat() in body:
            wrong.append(f"GET /organize/{theirs}/{url} shows {ours.email} or their date of birth")
    if shared.email not in client.get(f"/organize/{theirs}/players.csv").content.decode("utf-8-sig"):
        wrong.append("a player entered in both championships is each one's to see")
    attacks = [
        ("relationships/", {"one": ours.pk, "other": shared.pk, "kind": "family"}),
        (f"relationships/{world.relationship_id}/remove/", {}),
        ("entries/add/", {"selected": [ours.pk]}),
        ("entries/add/", {"all_matching": "1", "q": ours.name}),
    ]
    for url, data in attacks:
        got, changed = _request(client, "POST", f"/organize/{theirs}/{url}", data, check_unchanged=True)
        if changed:
            wrong.append(f"POST /organize/{theirs}/{url} ({got}) changed {changed}")
    with transaction.atomic():  # refused, but a lookup of our player (issue 33 item 2): only the lookup is logged
        before, last = snapshot({"audit.AuditEntry"}), AuditEntry.objects.order_by("pk").last().pk
        client.post(f"/organize/{theirs}/players/add/", {"name": "Mallory", "email": ours.email, "kind": "friend"})
        changed = [label for label, rows in snapshot({"audit.AuditEntry"}).items() if rows != before[label]]
        logged = set(AuditEntry.objects.filter(pk__gt=last).values_list("action", "tournament_id"))
        transaction.set_rollback(True)
    cache.clear()
    if changed or logged != {("player.looked_up", world.other.pk), ("player.looked_up_elsewhere", world.tournament.pk)}:
        wrong.append(f"adding our player's email as a new player changed {changed} and logged {logged}")
    with transaction.atomic():
        logged_here = AuditEntry.objects.filter(tournament=world.tournament).count()
        before = Player.objects.filter(pk=ours.pk).values().get()
        preview = client.post(f"/organize/{theirs}/players/import/", {"file": SimpleUploadedFile(
            "list.csv", f"name,email,date_of_birth,country\nMallory,{ours.email.upper()},2001-02-03,US\n".encode())})
        if ours.date_of_birth.isoformat() in preview.content.decode():
            wrong.append("the import preview shows the registered date of birth of a player of ours")
        client.post(f"/organize/{theirs}/players/import/", {"token": preview.context["token"], "decision-2": "update",
                                                              "consent": "1"})
        if Player.objects.filter(pk=ours.pk).values().get() != before:
            wrong.append("importing our player's email changed their record")
        told_here = set(AuditEntry.objects.filter(tournament=world.tournament).order_by("pk")
                        .values_list("action", flat=True)[logged_here:])
        if told_here != {"player.looked_up_elsewhere", "player.entered_elsewhere"}:
            wrong.append(f"importing our player's email should only tell our log who looked them up and entered "
                         f"them: {told_here}")
        if not Entry.objects.filter(tournament=world.other, player=ours).exists():
            wrong.append("the exact email no longer links the registered player")
        transaction.set_rollback(True)
    assert not wrong, "\n".join(wrong)


def test_no_one_registers_an_address_that_leads_inside(world):
    """Issue 33, items 3 and 7: the championship's organizer adding a webhook, and a player subscribing a phone,
    with every address that leads back into the server's network (tests/ssrf.py; a name resolving inside, for the
    subscription that is checked against DNS): each is refused (a form's 4xx) and writes nothing."""
    inside = [f"https://{host}/x" for host in LITERAL_HOSTS + SPECIAL_NAMES]
    hooks = reverse("organize-webhooks", kwargs={"championship_slug": world.tournament.championship.slug})
    push = reverse("players-me-push-subscribe", kwargs={"token": world.player_token})
    keys = {"p256dh": "BA" + "A" * 85, "auth": "A" * 22}
    posts = [(world.clients["championship_organizer"], hooks, {"url": url, "events": ["game.published"]})
             for url in inside]
    posts += [(Client(), push, {"endpoint": url, **keys})
              for url in [*inside, "https://inside.example.net/x", "https://nat64.example.net/x"]]
    wrong = []
    for client, path, data in posts:  # a registration that went through would write: `changed` shows it
        got, changed = _request(client, "POST", path, data, check_unchanged=True)
        if got != OK or changed:
            wrong.append(f"POST {path} {data}: {got}, changed {changed}")
    public = [(world.clients["championship_organizer"], hooks, {"url": "https://hooks.example.org/x",
                                                                "events": ["game.published"]}),
              (Client(), push, {"endpoint": "https://push.example.com/x", **keys})]
    for client, path, data in public:  # the same posts with a public address register
        if not _request(client, "POST", path, data, check_unchanged=True)[1]:
            wrong.append(f"POST {path} {data} registered nothing")
    assert not wrong, "\n".join(wrong)


def test_the_second_organizer_neither_takes_over_nor_harvests_our_players(world):
    """Issue 33 items 1-2, as the organizer of the other championship: a player of ours without email, found by name
    and birth date and entered in their tournament, keeps her link (replacing it shows them nothing); found by email
    or name and birth date, our players show them only what they typed, in every page, export and the API; guessing
    stops at the hourly limit; the API's import answers no registered name."""
    client, theirs, wrong = _client(world, "organizer_elsewhere"), world.other.slug, []
    ours = list(Player.objects.filter(entries__tournament=world.tournament).exclude(entries__tournament=world.other)
                .order_by("pk")[:3])
    cache.clear()
    with transaction.atomic():
        no_email = ours[0]
        Player.objects.filter(pk=no_email.pk).update(email="")
        links_before = set(PlayerLink.objects.filter(player=no_email).values_list("digest", flat=True))
        client.post(f"/organize/{theirs}/entries/add/", {"name": no_email.name,
                                                        "born": no_email.date_of_birth.isoformat()})
        if not Entry.objects.filter(tournament=world.other, player=no_email).exists():
            wrong.append("the exact name and birth date no longer enter the player")
        page = client.post(f"/organize/{theirs}/private-links/", {"player": no_email.pk}, follow=True)
        if "/me/" in page.content.decode() or set(PlayerLink.objects.filter(player=no_email)
                                                   .values_list("digest", flat=True)) != links_before:
            wrong.append("the other championship replaced (or was shown) the link of our player without email")
        by_email, by_birth = ours[1], ours[2]
        client.post(f"/organize/{theirs}/entries/add/", {"email": by_email.email.upper()})
        client.post(f"/organize/{theirs}/entries/add/", {"name": by_birth.name,
                                                        "born": by_birth.date_of_birth.isoformat()})
        for url in ("players/", "players/?only=all", "players.csv", "players.xlsx", "entries/", "entries.csv",
                    "entries.xlsx", "activity.csv", "check-in.csv", ""):
            body = client.get(f"/organize/{theirs}/{url}").content.decode("utf-8", "replace")
            if by_email.date_of_birth.isoformat() in body or by_birth.email in body:
                wrong.append(f"GET /organize/{theirs}/{url} shows what they did not type of a player of ours")
        for _try in range(40):
            client.post(f"/organize/{theirs}/entries/add/", {"name": "Nobody Known", "born": "1950-01-01"})
        if AuditEntry.objects.filter(tournament=world.other, action="player.looked_up").count() != 30:
            wrong.append("finding is not limited to 30 lookups an hour, each logged")
        transaction.set_rollback(True)
    cache.clear()
    with transaction.atomic():
        assign_staff(world.users["organizer_elsewhere"], StaffRole.Role.ORGANIZER,
                     championship=world.other.championship, user=make_admin())
        _token, plain = create_token(world.other.championship, "Harvest", user=world.users["organizer_elsewhere"])
        listed = "name,email\n" + "".join(f"Guess {n},{p.email}\n" for n, p in enumerate(ours))
        response = Client().post(f"/api/v1/tournaments/{theirs}/players/import/", {"csv": listed},
                                 content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {plain}")
        if response.status_code != 200 or any(p.name in response.content.decode() for p in ours):
            wrong.append(f"the API's import answers the names of our players ({response.status_code})")
        transaction.set_rollback(True)
    cache.clear()
    assert not wrong, "\n".join(wrong)


def _admin_path(url: Url) -> str | None:
    if url.name.endswith(url.route):  # unnamed: the admin's catch-all, and each model's old object address
        return None
    dummy = {"object_id": "1", "app_label": "championships", "content_type_id": 1, "url": "x"}
    return reverse(url.name, kwargs={kw: dummy.get(kw, "1") for kw in url.kwargs})


@pytest.mark.parametrize("actor", ["anonymous", "no_role", "organizer"])
def test_the_admin_is_for_superusers_only(world, actor):
    """Every admin address sends anyone else to the admin's sign-in, for GET and POST, changing nothing."""
    client = _client(world, actor)
    wrong = []
    with transaction.atomic():  # one snapshot around all of them: none may write
        before = snapshot()
        for url in ADMIN_URLS:
            path = _admin_path(url)
            if path is None or url.name in ADMIN_OPEN:
                continue
            for method in ("GET", "POST"):
                response = client.get(path) if method == "GET" else client.post(path, {})
                if outcome(response) != LOGIN:
                    wrong.append(f"{method} {path} as {actor}: expected login, got {outcome(response)}")
        after = snapshot()
        transaction.set_rollback(True)
    wrong += [f"the admin's pages as {actor} changed {label}" for label in before if before[label] != after[label]]
    assert not wrong, "\n".join(wrong)


def test_superusers_use_the_admin(world):
    """Each admin page without an object opens for a superuser (read-only models refuse adding: 403)."""
    client = _client(world, "superuser")
    wrong = []
    for url in ADMIN_URLS:
        path = _admin_path(url)
        if path is None or url.kwargs or url.name in ADMIN_OPEN:
            continue
        got, _ = _request(client, "GET", path, {}, check_unchanged=False)
        if got not in (OK, FORBIDDEN) or (url.name == "admin:index" and got != OK):
            wrong.append(f"GET {path}: {got}")
    assert not wrong, "\n".join(wrong)
