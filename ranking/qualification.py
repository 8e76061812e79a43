"""Who goes on: qualifiers to the finals (with replacements), and seeded semifinal and final tables.

The choices are made by the pure engines (`engines.ranking.advancement`, `engines.seating`); this
module reads standings, checks that the earlier games are over, writes entries and games, and
audits each step.
"""
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from audit.actions import Action
from audit.services import record_change
from championships.eligibility import check_can_enter
from championships.models import Entry, Stage, Tournament
from championships.permissions import require_organizer
from core.changes import announce
from engines.ranking.advancement import SeatingTie, TieAtCutoff, qualifiers, replacement, seating_ties, seeded_field
from engines.ranking.engine import tie_groups
from engines.rulesets import ruleset_for
from engines.seating import engine as seating
from scheduling.models import Game, Table
from scheduling.services import remove_planned_games, replace_with_seeded_game

from .selectors import finalists_in_play, qualified_players
from .standings import (
    Results,
    absent_entries,
    final_field,
    load_results,
    preliminary_standings,
    ranked_standings,
    tied_groups,
)


def finals_of(qualifier: Tournament) -> Tournament:
    # Only a club tournament stands outside a championship (constraint tournament_in_championship).
    finals = (Tournament.objects.filter(championship_id=qualifier.championship_id, kind=Tournament.Kind.FINALS).first()
              if qualifier.kind == Tournament.Kind.QUALIFIER and qualifier.championship_id is not None else None)
    if finals is None:
        raise ValidationError(_("%(t)s is not a qualifier of a championship with finals.") % {"t": qualifier.name})
    return finals


def _standings(tournament: Tournament):
    results = load_results(tournament)
    return results, ranked_standings(tournament, results, whole_event=True)


def _require_finished(games, what: str) -> None:
    unfinished = sorted(games.exclude(status=Game.Status.FINISHED).values_list("number", flat=True))
    if unfinished or not games.exists():
        raise ValidationError(_("%(what)s waits until every game is signed off (still open: %(games)s).")
                              % {"what": what, "games": ", ".join(map(str, unfinished)) or _("no game played")})


def _tie_message(players, results: Results, why: Sequence[str] = ()) -> str:
    """The one refusal for an unresolved tie, at a qualification cut-off or before seating by rank."""
    names = ", ".join(results.entries[p].player.name for p in players)
    message = _("%(names)s are tied where it matters: record the card draw first.") % {"names": names}
    return f"{message} ({'; '.join(why)})" if why else message


def _places_short(finals: Tournament, player_ids) -> tuple[int, int] | None:
    """(places left, players to enter) when the finals cannot take these players; None when they fit.

    The finals seat at most their capacity of active players (seed 001 §3: 16, 24 or 4 finalists;
    open entry has none). A player already holding a place takes no other. Locks the finals, so two
    qualifiers sent at once cannot both take the last places.
    """
    capacity = Tournament.objects.select_for_update().values_list("capacity", flat=True).get(pk=finals.pk)
    if capacity is None:
        return None
    holding = finalists_in_play(finals)
    left, newcomers = max(capacity - len(holding), 0), len(set(player_ids) - holding)
    return (left, newcomers) if newcomers > left else None


def _enter_finalist(finals: Tournament, entry: Entry, rank: int, qualifier: Tournament, **extra) -> Entry:
    """The finals entry of a qualified player (updating a direct entry they may already have)."""
    try:
        check_can_enter(entry.player, finals)
    except ValidationError as error:
        raise ValidationError(" ".join(error.messages)) from error
    finalist, _created = Entry.objects.update_or_create(
        tournament=finals, player=entry.player,
        defaults={"source_tournament": qualifier, "source_rank": rank, "status": Entry.Status.REGISTERED, **extra},
    )
    return finalist


def advance_qualifiers(qualifier_id: int, *, user) -> list[Entry]:
    """Enter the qualifier's top N (passing over players qualified elsewhere) in the finals."""
    with transaction.atomic():
        qualifier = Tournament.objects.select_for_update().get(pk=qualifier_id)
        require_organizer(user, qualifier)
        finals = finals_of(qualifier)
        require_organizer(user, finals)  # the entries are written into the finals
        if finals.entries.filter(source_tournament=qualifier).exists():
            raise ValidationError(_("The qualifiers of %(t)s are already in the finals.") % {"t": qualifier.name})
        _require_finished(qualifier.games.all(), _("Sending players to the finals"))
        results, standings = _standings(qualifier)
        already = qualified_players(finals)
        passed_over = absent_entries(results) | {pk for pk, e in results.entries.items() if e.player_id in already}
        try:
            chosen = qualifiers(standings, qualifier.advance_count, passed_over)
        except TieAtCutoff as error:
            raise ValidationError(_tie_message([s.player for s in error.group], results)) from error
        short = _places_short(finals, [results.entries[pk].player_id for pk in chosen])
        if short:
            left, n = short
            raise ValidationError(ngettext(
                "%(finals)s has %(left)d of its %(capacity)d places left: not enough for the %(n)d player "
                "of %(t)s. Nobody was entered.",
                "%(finals)s has %(left)d of its %(capacity)d places left: not enough for the %(n)d players "
                "of %(t)s. Nobody was entered.", n)
                % {"finals": finals.name, "left": left, "capacity": finals.capacity, "n": n, "t": qualifier.name})
        ranks = {s.player: s.rank for s in standings}
        created = [_enter_finalist(finals, results.entries[pk], ranks[pk], qualifier) for pk in chosen]
        record_change(user, finals.pk, Action.QUALIFICATION_ADVANCED, qualifier,
              after={"qualified": [(e.player.name, e.source_rank) for e in created]})
        announce(finals.pk, qualifier.pk)  # the qualifier's standings mark who was sent
    return created


def replace_finalist(finalist_id: int, *, user) -> Entry | None:
    """The finalist cannot attend: withdraw them and enter the next best of the same qualifier."""
    with transaction.atomic():
        finalist = (Entry.objects.select_for_update(of=("self",))
                    .select_related("tournament", "source_tournament", "player").get(pk=finalist_id))
        finals = finalist.tournament
        require_organizer(user, finals)
        qualifier = finalist.source_tournament
        if qualifier is None:
            raise ValidationError(_("%(p)s did not qualify through a qualifier.") % {"p": finalist.player.name})
        require_organizer(user, qualifier)  # the substitute is taken from the qualifier's standings
        if hasattr(finalist, "replaced_by"):
            raise ValidationError(_("%(p)s has already been replaced.") % {"p": finalist.player.name})
        if finals.games.exclude(status=Game.Status.PLANNED).exists():
            raise ValidationError(_("The finals have started: nobody can take a place any more."))
        finalist.status = Entry.Status.WITHDRAWN
        finalist.save(update_fields=["status"])
        results, standings = _standings(qualifier)
        already = qualified_players(finals)
        passed_over = absent_entries(results) | {pk for pk, e in results.entries.items() if e.player_id in already}
        try:
            chosen = replacement(standings, passed_over)
        except TieAtCutoff as error:
            raise ValidationError(_tie_message([s.player for s in error.group], results)) from error
        substitute = None
        if chosen is not None:
            if _places_short(finals, [results.entries[chosen].player_id]):
                raise ValidationError(_("%(finals)s has no place left: nobody can take %(p)s's place.")
                                      % {"finals": finals.name, "p": finalist.player.name})
            ranks = {s.player: s.rank for s in standings}
            substitute = _enter_finalist(finals, results.entries[chosen], ranks[chosen], qualifier,
                                         replaces=finalist)
        record_change(user, finals.pk, Action.QUALIFICATION_REPLACED, finalist,
              before={"player": finalist.player.name},
              after={"replacement": substitute.player.name if substitute else None})
        announce(finals.pk, qualifier.pk)
    return substitute


def _entry_ids(players: Iterable[Hashable]) -> list[int]:
    """The engines' players as what they are here: entry ids (`load_results` keys every seat and standing by one)."""
    return cast(list[int], list(players))


def _entry_tables(tables: Iterable[Sequence[Hashable]]) -> list[tuple[int, ...]]:
    return [tuple(_entry_ids(table)) for table in tables]


@dataclass(frozen=True)
class Seeding:
    """A stage seated by rank as the standings stand: its field (seed 1 first), its tables, the ties to draw first."""

    players: list[int]
    tables: list[tuple[int, ...]]
    ties: list[SeatingTie]
    standings: list = field(default_factory=list)
    """The ranking the seeds come from (the preliminary one for a world final), where the ties are."""
    seeded: bool = True
    """The seats keep their seeds: the players choose chair, colour and play order in seed order (004 §1.1.5-1.1.6;
    `Ruleset.seeds_choose`); not where seeds have no choice (001's final) or players settle seats themselves (003)."""


def stage_seeding(stage: Stage, results: Results, standings) -> Seeding:
    """Who plays a seeded stage, at which table, and which unresolved ties would change that (docs/rules.md §2).

    Raises ValidationError while the earlier games are not all signed off or the seed chart cannot take the field.
    """
    tournament = stage.tournament
    previous = tournament.stages.filter(order__lt=stage.order).order_by("-order").first()
    if previous is None:
        raise ValidationError(_("A seeded stage follows another stage."))
    _require_finished(Game.objects.filter(stage__tournament=tournament, stage__order__lt=stage.order),
                      _("Seating %(stage)s") % {"stage": stage.name})
    choose = ruleset_for(tournament.ruleset).seeds_choose
    if previous.kind == Stage.Kind.SEMIFINAL:
        semifinal = results.tables_by_stage.get(Stage.Kind.SEMIFINAL, [])
        if not semifinal or len(semifinal) != Table.objects.filter(game__stage=previous).count():
            raise ValidationError(_("Every semifinal table must be signed off before the final is seated."))
        field = final_field(tournament, results)
        finalists = _entry_ids(field.players)
        replacing = [SeatingTie(group, replaces=field.replaced[first]) for first, group in field.undecided.items()]
        if not choose:  # seed 003: the finalists settle seats themselves; listed by semifinal table
            return Seeding(finalists, _entry_tables([seating.final_table(finalists)]), replacing, standings,
                           seeded=False)
        # Seed 004 §1.1.6: the finalists choose in order of their preliminary rank (draws carry forward),
        # not of a ranking that counts the semifinal games.
        preliminary = preliminary_standings(tournament, results)
        seed = {s.player: i for i, s in enumerate(preliminary)}
        players = sorted(finalists, key=seed.__getitem__)
        tables = _entry_tables([seating.final_table(players)])
        if replacing:  # who plays comes first: the order of choice is drawn once the field is known
            return Seeding(players, tables, replacing, standings)
        return Seeding(players, tables, seating_ties(preliminary, players, tables, cut=False, order_of_choice=True),
                       preliminary)
    passed_over = absent_entries(results)
    players = _entry_ids(seeded_field(standings, stage.players or 4, passed_over))
    try:
        tables = _entry_tables([seating.final_table(players)] if len(players) <= 4 else seating.seeded_tables(players))
    except seating.SeatingError as error:
        raise ValidationError(
            _("The seed chart needs a multiple of 4 players; %(n)d can take part.") % {"n": len(players)}
            if len(players) > 4 else str(error)) from error
    return Seeding(players, tables, seating_ties(standings, players, tables, passed_over=passed_over, cut=True,
                                                 order_of_choice=choose), standings, seeded=choose)


def why_tie_matters(tie: SeatingTie, stage: Stage, results: Results) -> list[str]:
    """What a drawing of lots would change in the stage, in words: the ties page and the refusal say the same."""
    reasons = []
    if tie.replaces is not None:
        reasons.append(_("decides who takes the place of %(player)s, who takes no further part, at %(stage)s: the "
                         "next finisher of their semifinal table, as the next best of a qualifier replaces an absent "
                         "finalist (001 §3)") % {"player": results.entries[cast(int, tie.replaces)].player.name,
                                                 "stage": stage.name})
    if tie.cutoff is not None:
        reasons.append(_("straddles the cut-off: the top %(n)d play %(stage)s")
                       % {"n": tie.cutoff, "stage": stage.name})
    if tie.tables:
        reasons.append(_("decides who sits at which table of %(stage)s") % {"stage": stage.name})
    if tie.seeds:
        reasons.append(_("decides seed %(seeds)s (the better seed chooses chair, colour and play order first)")
                       % {"seeds": pgettext("seeds compared", " vs ").join(map(str, tie.seeds))})
    return reasons


def _planned_seeded_stage(stage_id: int, user, published: str) -> Stage:
    """The stage, locked, for its organizer: one seated by rank whose game is not published (else `published`)."""
    stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage_id)
    require_organizer(user, stage.tournament)
    if stage.seating != Stage.Seating.SEEDED:
        raise ValidationError(_("%(s)s is seated by schedule, not by rank.") % {"s": stage.name})
    if stage.game_set.exclude(status=Game.Status.PLANNED).exists():
        raise ValidationError(published % {"s": stage.name})
    return stage


def seat_seeded_stage(stage_id: int, *, user) -> Game:
    """Seat a semifinal (seed chart 1-8-9-16 …) or a final table from the standings so far."""
    with transaction.atomic():
        stage = _planned_seeded_stage(stage_id, user, _("%(s)s is already published."))
        results, standings = _standings(stage.tournament)
        seeded = stage_seeding(stage, results, standings)
        if seeded.ties:
            tie = seeded.ties[0]
            raise ValidationError(_tie_message(tie.players, results, why_tie_matters(tie, stage, results)))
        players, tables = seeded.players, seeded.tables
        game = replace_with_seeded_game(stage, tables, players if seeded.seeded else ())
        record_change(user, stage.tournament_id, Action.SEATING_SEEDED, game,
              after={"tables": [[results.entries[p].player.name for p in table] for table in tables]})
        announce(stage.tournament_id)
    return game


def clear_seeded_stage(stage_id: int, *, user) -> None:
    """Clear a stage seated by rank while its game is still planned, to seat it again later.

    The undoing a correction of the results the stage was seated from asks for first (`ranking.corrections`); a
    published game is taken back first, and one with results entered keeps its seating.
    """
    with transaction.atomic():
        stage = _planned_seeded_stage(stage_id, user, _("%(s)s is published: take its game back first (possible "
                                                        "while no result is entered)."))
        games = list(stage.game_set.prefetch_related("tables__seats__entry__player").order_by("number"))
        if not games:
            return
        before = {"tables": [[seat.entry.player.name for seat in table.seats.order_by("position")]
                             for game in games for table in game.tables.order_by("number")]}
        remove_planned_games(stage)
        record_change(user, stage.tournament_id, Action.SEATING_CLEARED, stage, before=before, after={"tables": []})
        announce(stage.tournament_id)


def final_replacements(stage: Stage) -> list[tuple[str, str]]:
    """At a final after semifinals: (who plays, in place of whom) for each semifinal winner who takes no further
    part, replaced by the next finisher of their table (docs/rules.md I-51); empty for any other stage."""
    if stage.seating != Stage.Seating.SEEDED or stage.kind != Stage.Kind.FINAL:
        return []
    previous = stage.tournament.stages.filter(order__lt=stage.order).order_by("-order").first()
    results = load_results(stage.tournament) if previous is not None and previous.kind == Stage.Kind.SEMIFINAL else None
    if results is None or not results.tables_by_stage.get(Stage.Kind.SEMIFINAL):
        return []
    names = {pk: entry.player.name for pk, entry in results.entries.items()}
    return [(names[cast(int, player)], names[cast(int, winner)])
            for player, winner in final_field(stage.tournament, results).replaced.items()]


def next_seeded_stage(tournament: Tournament) -> Stage | None:
    """The first stage seated by rank whose game is not published yet: the one whose seating ties still change."""
    return (tournament.stages.filter(seating=Stage.Seating.SEEDED)
            .exclude(game_set__status__in=[Game.Status.PUBLISHED, Game.Status.FINISHED]).order_by("order").first())


@dataclass(frozen=True)
class OpenTie:
    """A tie the referee may draw, with what the draw changes."""

    key: str
    """What the page's form posts back: the tie's rank in the standings, or "p<rank>" for a tie of the preliminary
    ranking alone (a world final's order of choice)."""
    rank: int
    rows: list[dict]
    """Standing rows (entry, player) of everyone the draw must name."""
    reasons: list[str]
    """Why it changes the next stage seated by rank (`why_tie_matters`); empty when it changes none."""
    preliminary: bool = False


def open_ties(tournament: Tournament, rows: list[dict]) -> list[OpenTie]:
    """The ties the standings still show, each with what a draw would change in the next stage seated by rank.

    Once the games before that stage are signed off, its seating waits for exactly the ties marked here
    (`seat_seeded_stage` refuses with the same reasons). A tie of the preliminary ranking alone that orders a
    world final's choice is listed too, after the others.
    """
    ties = [OpenTie(str(group[0]["rank"]), group[0]["rank"], list(group), []) for group in tied_groups(rows)]
    stage = next_seeded_stage(tournament)
    if stage is None:
        return ties
    results, standings = _standings(tournament)
    try:
        seeded = stage_seeding(stage, results, standings)
    except ValidationError:  # earlier games still open, or the chart cannot take the field yet
        return ties
    by_entry = {row["entry"]: row for row in rows}
    for tie in seeded.ties:
        reasons = why_tie_matters(tie, stage, results)
        shown = next((t for t in ties if set(tie.players) <= {row["entry"] for row in t.rows}), None)
        if shown is not None:
            shown.reasons.extend(reasons)
            continue
        group = next((g for g in tie_groups(seeded.standings) if set(tie.players) <= {s.player for s in g}), None)
        if group is None:
            continue
        ties.append(OpenTie(f"p{group[0].rank}", group[0].rank, [by_entry[s.player] for s in group], reasons,
                            preliminary=True))
    return ties
