"""Readers never pay for a render: after each change, one background job per tournament brings its public pages
up to date while readers keep getting the previous version (stale-while-revalidate).

* A change (a sign-off, a penalty, a game published, …) marks the tournament queued, before its results version
  changes, and queues the job only if it was not queued already (`ranking.tasks.refresh_after_change`): a burst
  of twenty sign-offs is one refresh, or two when some arrive while the first runs.
* The job (`run_refresh`, one runner per tournament at a time, going round again while changes keep coming)
  computes the standings and what the pages build on them (each player's summary: rank, rank after each game,
  re-ranked only for the games whose standings changed, qualification; `ranking.public.player`), renders the
  pages readers keep open in the languages and at the address readers use, then announces the version; after
  that, the own pages of the players whose table was just signed off (the first to look). Other players' pages
  and the players' private pages are rendered when asked, each reading its own summary (one small cache entry,
  not the tournament's standings). A second job lays out the PDFs likely to be asked for
  (`run_pdf_warming`), so a long PDF never delays the pages.
* A reader who is not signed in is served the announced version while a refresh is on its way
  (`reader_version`): its pages are in the cache, so nobody waits, and the live poll (`/t/<slug>/version/`)
  tells open pages of the new version once its pages are ready. A page never shows results older than the
  version it names: one rendered while a refresh runs reads the newest results.
* When no job runs, readers get the newest version and pages are rendered on demand, as before the job existed:
  without a worker (Celery's eager mode, or a broker that cannot be reached) nothing is marked or queued, and a
  job that did not start within QUEUED_SECONDS, or a runner not heard of for RUN_SECONDS (its worker gone),
  stops holding readers on the announced version. Pages may then be slow, never stale for long.

The job renders by calling the pages' renderers with the version it renders (`ranking.public.pages`, and
`ranking.public.pdfs` for the PDFs) and keeps each where a reader's request looks for it (`ranking.live.page_key`):
it builds no request and runs no middleware. Signed-in staff always see the newest version, rendered for them
(`ranking.live`).
"""
import logging
import time
from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation

from championships.models import Tournament
from ranking.public import pages, pdfs
from ranking.public.names import searchable_names
from ranking.public.pages import Address
from ranking.public.player import player_page, store_summaries
from results.models import RecordSheet
from scheduling.models import Game, Seat

from . import live
from .standings import results_version, results_version_with, tournament_standings

logger = logging.getLogger(__name__)

QUEUED_SECONDS = 30
"""A job queued this long ago and not started (the worker is down, or busy planning a seating) no longer holds
readers on the announced version: pages are then rendered on demand."""
RUN_SECONDS = 60
"""A runner renews its claim each round; one silent for this long (its worker killed) is taken as gone."""
SEEN_SECONDS = 3600
"""Languages and PDFs readers asked for within this time are the ones kept warm."""
WARM_GAMES = 2
"""Game pages rendered each round: the games in play (published), else the last one played."""
JUST_PLAYED = 200
"""At most this many players' own pages are rendered after a round (50 tables signed off at once)."""
PDFS_KEPT = 6
"""At most this many PDF addresses per tournament are laid out ahead (the ones asked for most recently)."""


HOST_KEY = "refresh-host"
"""The address readers reach the site at, as the last page rendered on demand saw it."""


def _key(kind: str, tournament_id: int) -> str:
    return f"refresh-{kind}:{tournament_id}"


def _quietly(call: Callable, default=None):
    """A cache call; the cache is an optimisation, so an error means "no cache", never a failed request."""
    try:
        return call()
    except Exception as error:  # any backend's connection or timeout error
        logger.warning("Refresh state unavailable (%r).", error)
        return default


# ---- what readers see ----------------------------------------------------------------------------------------

def mark_queued(tournament_id: int, kind: str = "pages") -> bool:
    """True when the tournament was not queued already (the caller then queues the job)."""
    return bool(_quietly(lambda: cache.add(_key(f"{kind}-queued", tournament_id), time.time(),
                                           timeout=QUEUED_SECONDS), False))


def unmark_queued(tournament_id: int, kind: str = "pages") -> None:
    """The job could not be queued: readers must not wait for it."""
    _quietly(lambda: cache.delete(_key(f"{kind}-queued", tournament_id)))


def announced_version(tournament_id: int) -> str | None:
    return _quietly(lambda: cache.get(_key("announced", tournament_id)))


def reader_state(tournament_id: int) -> tuple[str | None, bool]:
    """(the version a reader who is not signed in is shown, whether a newer one is on its way). Shown: the
    announced one while a refresh is on its way (its pages are ready), else the newest; None while the cache is
    unreachable (pages are then simply rendered). On its way: the live poll then asks again soon."""
    keys = [_key("announced", tournament_id), _key("pages-queued", tournament_id), _key("pages-running", tournament_id)]
    current, found = results_version_with(tournament_id, keys)
    announced = found.get(keys[0])
    if current and announced and announced != current and (keys[1] in found or keys[2] in found):
        return announced, True
    return current, False


def reader_version(tournament_id: int) -> str | None:
    return reader_state(tournament_id)[0]


def seen(tournament_id: int, language: str, host: str) -> None:
    """A reader's page was rendered on demand in `language` at `host`: keep that language warm from now on."""
    def remember():
        languages = cache.get(_key("languages", tournament_id)) or {}
        if languages.get(language, 0) < time.time() - SEEN_SECONDS / 2 or cache.get(HOST_KEY) != host:
            languages[language] = time.time()
            cache.set_many({_key("languages", tournament_id): languages, HOST_KEY: host}, timeout=SEEN_SECONDS)
    _quietly(remember)


def wanted_pdf(tournament_id: int, kind: str, number: int | None, language: str, asked: str) -> None:
    """A public PDF was laid out on demand (`ranking.public.pdfs`: its kind, game number, language and paper as
    asked): lay it out ahead from now on."""
    def remember():
        asks = cache.get(_key("asked-pdfs", tournament_id)) or {}
        asks[kind, number, language, asked] = time.time()
        newest = sorted(asks.items(), key=lambda item: -item[1])[:PDFS_KEPT]
        cache.set(_key("asked-pdfs", tournament_id), dict(newest), timeout=SEEN_SECONDS)
    _quietly(remember)


# ---- the jobs ------------------------------------------------------------------------------------------------

def _coalesced(kind: str, tournament_id: int, work: Callable[[], object]) -> None:
    """Run `work` while the tournament is queued for `kind`, one runner at a time: a job that finds another runner
    leaves its changes to it (that runner goes round again while the queued mark is back)."""
    queued, running = _key(f"{kind}-queued", tournament_id), _key(f"{kind}-running", tournament_id)
    while True:
        if not cache.add(running, time.time(), timeout=RUN_SECONDS):
            return
        try:
            while True:
                cache.touch(running, RUN_SECONDS)
                cache.delete(queued)  # changes from now on are another round
                work()
                if cache.get(queued) is None:
                    break
        finally:
            cache.delete(running)
        if cache.get(queued) is None:  # a change that came as this runner let go, and found it still running
            return


def run_refresh(tournament_id: int) -> None:
    """The pages' job: see the module docstring."""
    _coalesced("pages", tournament_id, lambda: refresh_pages(tournament_id))


def run_pdf_warming(tournament_id: int) -> None:
    """The PDFs' job: lay out the likely PDFs of the announced version that are not in the cache yet."""
    _coalesced("pdfs", tournament_id, lambda: warm_pdfs(tournament_id))


def refresh_pages(tournament_id: int) -> bool:
    """Render the tournament's live pages for its newest version and announce it; True when it announced one."""
    tournament = Tournament.objects.select_related("championship").filter(pk=tournament_id).first()
    version = results_version(tournament_id)
    if tournament is None or version is None or version == announced_version(tournament_id):
        return False
    started, since = timezone.now(), cache.get(_key("since", tournament_id))
    tournament_standings(tournament)  # what every page builds on, computed once for all of them
    searchable_names(tournament)
    store_summaries(tournament)  # each player's rank, rank after each game (the changed games only), qualification
    host, languages = _reader_host(), _languages(tournament_id)
    for language in languages:
        with translation.override(language):
            for at, render in _live_pages(tournament, version):
                _keep(at, version, host, render)
    announce_version(tournament_id, version, started)
    for player in _just_played(tournament, since):  # after the announcement: they must not delay it
        if cache.get(_key("pages-queued", tournament_id)) is not None:
            break  # newer results: their pages first
        for language in languages:
            with translation.override(language):
                _keep(Address(reverse("public-player", args=[tournament.slug, player])), version, host,
                      partial(_player_html, tournament, player, version))
    return True


def announce_version(tournament_id: int, version: str, started) -> None:
    """The version's pages are ready: readers are shown it from now on; what changed after `started` is new to
    the next round."""
    cache.set_many({_key("announced", tournament_id): version, _key("since", tournament_id): started}, timeout=None)


def warm_pdfs(tournament_id: int) -> None:
    tournament = Tournament.objects.select_related("championship__country").filter(pk=tournament_id).first()
    version = announced_version(tournament_id)
    if tournament is None or version is None:
        return
    for kind, number, language, asked in _likely_pdfs(tournament):
        if cache.get(_key("pages-queued", tournament_id)) is not None:
            return  # newer results are coming: their pages first, then their PDFs
        with translation.override(language):
            try:
                pdfs.kept(tournament_id, kind, number, version, asked,
                          partial(pdfs.layout, tournament, kind, number, asked))
            except Exception:  # one PDF failing must not keep the others back
                logger.exception("Laying out the %s PDF %s in %s failed", kind, number or "", language)


# ---- what is rendered ----------------------------------------------------------------------------------------

def _languages(tournament_id: int) -> list[str]:
    """The site's default language and those readers used lately, in the order of settings.LANGUAGES."""
    recent = _quietly(lambda: cache.get(_key("languages", tournament_id)), None) or {}
    return [code for code, _name in settings.LANGUAGES
            if code == settings.LANGUAGE_CODE or recent.get(code, 0) > time.time() - SEEN_SECONDS]


def _reader_host() -> str:
    """The address readers reach the site at (pages may print it: the projector does); before any reader came,
    the first host the settings allow by name."""
    host = _quietly(lambda: cache.get(HOST_KEY))
    if host:
        return host
    named = [h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")]
    return named[0] if named else "localhost"


def _warm_games(tournament: Tournament) -> list[Game]:
    games = tournament.games.select_related("stage").order_by("number")
    playing = list(games.filter(status=Game.Status.PUBLISHED)[:WARM_GAMES])
    return playing or list(games.filter(status=Game.Status.FINISHED).reverse()[:1])


def _live_pages(tournament: Tournament, version: str) -> list[tuple[Address, Callable[[Address], str]]]:
    """(address, its renderer) of the pages readers keep open, each as the page and as the live part htmx asks
    for, in the active language."""
    slug = tournament.slug
    overview, standings = reverse("public-tournament", args=[slug]), reverse("public-standings", args=[slug])
    first_page, first_part = live.page_query(pages.PAGED, {}), live.page_query(pages.PARTS, {})
    standings_page = partial(pages.standings_html, tournament, version, page=1)
    found: list[tuple[Address, Callable[[Address], str]]] = [
        (Address(overview), partial(pages.overview_html, tournament, version)),
        (Address(overview, htmx=True), partial(pages.overview_html, tournament, version)),
        (Address(standings, first_page), standings_page),
        (Address(standings, first_page, htmx=True, typed=f"{standings}?page=1"), standings_page),
        (Address(reverse("public-screen", args=[slug]), first_part), partial(pages.screen_html, tournament, version,
                                                                             part=1)),
    ]
    for game in _warm_games(tournament):
        game_page = partial(pages.game_html, tournament, game, version, page=1)
        path = reverse("public-game", args=[slug, game.number])
        found += [(Address(path, first_page), game_page), (Address(path, first_page, htmx=True), game_page)]
    return found


def _player_html(tournament: Tournament, player_id: int, version: str, at: Address) -> str:
    page = player_page(tournament, player_id)
    if page is None:
        raise LookupError(f"Player {player_id} is not entered in {tournament.slug}.")
    return pages.player_html(tournament, page, version, at)


def _keep(at: Address, version: str, host: str, render: Callable[[Address], str]) -> None:
    """Render the page at `at` and keep it where a reader's request at `host` finds it (`ranking.live.cached_page`)."""
    try:
        live.keep_page(live.page_key(version, host, at.path, at.query, at.htmx), HttpResponse(render(at)))
    except Exception:  # one page failing must not keep the others (and the announcement) back
        logger.exception("Refreshing %s failed", at.full_path)


def _just_played(tournament: Tournament, since) -> list[int]:
    """The players whose table was signed off or corrected since the last round: the first to look at their own
    page. None before the first round (nothing is known to be new)."""
    if since is None:
        return []
    return list(Seat.objects.filter(table__sheet__status=RecordSheet.Status.SIGNED_OFF,
                                    table__sheet__updated_at__gte=since, game__tournament=tournament)
                .order_by("entry__player_id").values_list("entry__player_id", flat=True)[:JUST_PLAYED])


def _likely_pdfs(tournament: Tournament) -> list[tuple[str, int | None, str, str]]:
    """(kind, game number, language, paper as asked) of the standings and the seating of the first game in play
    in the default language and paper, and of every PDF readers asked for lately, as long as it still names a game
    in play."""
    games = set(tournament.games.filter(status=Game.Status.PUBLISHED).values_list("number", flat=True))
    likely: list[tuple[str, int | None, str, str]] = [
        (pdfs.STANDINGS, None, settings.LANGUAGE_CODE, ""),
        *((pdfs.SEATING, number, settings.LANGUAGE_CODE, "") for number in sorted(games)[:1])]
    asked = _quietly(lambda: cache.get(_key("asked-pdfs", tournament.pk)), None) or {}
    for ask in asked:
        if (ask[0] != pdfs.SEATING or ask[1] in games) and ask not in likely:
            likely.append(ask)
    return likely
