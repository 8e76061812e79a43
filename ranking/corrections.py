"""A correction of a signed-off sheet that would change what was already decided from it is refused.

001 §5: once the sheet is signed, "the results cannot be further altered"; the app's correction only makes its copy
match the paper (a transcription fix, I-23). When qualifiers were already sent to the finals, or a stage was already
seated by rank from these results, a fix that changes who went on or who sits where is no longer a transcription
fix: it is refused, naming what it would change and what undoing comes first (clear a stage's seating while it is
planned, take back a game published without results). Sending players to the finals cannot be undone, and a stage
that has started keeps its seating. A fix that changes none of that (the VP of a player who stays out, a typo in a
time) is made as before.

`results.sheets.correct` sends `sheet_correcting` with the corrected table before writing anything; the check
compares what the standings decide with and without it, so nothing else (a disqualification since, a draw) is
mistaken for the correction's doing.
"""
from collections.abc import Hashable, Sequence
from dataclasses import replace
from datetime import date
from functools import cached_property

from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils.translation import gettext as _

from championships.models import Stage, Tournament
from engines.ranking.advancement import TieAtCutoff, qualifiers, seeded_field
from engines.ranking.engine import TableResult
from results.models import RecordSheet
from results.signals import sheet_correcting
from scheduling.models import Game

from .qualification import Seeding, finals_of, stage_seeding
from .standings import Results, absent_entries, load_results, ranked_standings


@receiver(sheet_correcting)
def _refuse_changing_what_was_decided(sender, sheet: RecordSheet, table: TableResult, **kwargs) -> None:
    game = sheet.table.game
    versions = _Versions(game.tournament, table)
    problems = [*_sent_changes(game.tournament, versions), *_seating_changes(game.tournament, game.stage, versions)]
    if problems:
        raise ValidationError(problems)


class _Versions:
    """The tournament's results as signed off and as corrected, read only once a check needs them (a correction
    that nothing was decided from yet costs a query or two)."""

    def __init__(self, tournament: Tournament, corrected: TableResult):
        self.tournament, self.corrected = tournament, corrected

    @cached_property
    def before(self) -> Results:
        return load_results(self.tournament)

    @cached_property
    def after(self) -> Results:
        """The corrected table in place of the signed-off one."""
        key = (self.corrected.game, self.corrected.table)
        tables = {kind: [self.corrected if (t.game, t.table) == key else t for t in stage]
                  for kind, stage in self.before.tables_by_stage.items()}
        return replace(self.before, tables_by_stage=tables)


def _names(results: Results, players) -> str:
    return ", ".join(sorted(results.entries[p].player.name for p in players))


def _sent_changes(qualifier: Tournament, versions: _Versions) -> list[str]:
    """A qualifier whose players were sent to the finals: the correction may not change who would have been sent."""
    if qualifier.kind != Tournament.Kind.QUALIFIER:
        return []
    try:
        finals = finals_of(qualifier)
    except ValidationError:
        return []
    sent = finals.entries.filter(source_tournament=qualifier)
    if not sent.exists():
        return []
    # Replacements came from this qualifier's ranking too, the next in line after the top N.
    places = qualifier.advance_count + sent.filter(replaces__isnull=False).count()
    earlier = _qualified_before(qualifier, finals)
    before, after = versions.before, versions.after
    was, _tie = _chosen(qualifier, before, places, earlier)
    now, tie = _chosen(qualifier, after, places, earlier)
    if tie:
        return [_("%(t)s sent its qualifiers to the finals from the signed-off results, which cannot be further "
                  "altered (001 §5): this correction would leave %(names)s tied across the cut-off. Sending players "
                  "to the finals cannot be undone, so the correction is refused.")
                % {"t": qualifier.name, "names": _names(after, tie)}]
    if now == was:
        return []
    return [_("%(t)s sent its qualifiers to the finals from the signed-off results, which cannot be further altered "
              "(001 §5): with this correction %(in)s would have gone instead of %(out)s. Sending players to the "
              "finals cannot be undone, so the correction is refused.")
            % {"t": qualifier.name, "in": _names(after, now - was), "out": _names(before, was - now)}]


def _qualified_before(qualifier: Tournament, finals: Tournament) -> set[int]:
    """Players who qualified in the championship's qualifiers held before this one: they were passed over here."""
    def key(t):
        return (t.date or date.max, t.pk)

    others = Tournament.objects.filter(championship__tournaments=finals, kind=Tournament.Kind.QUALIFIER)
    earlier = [t.pk for t in others if key(t) < key(qualifier)]
    return set(finals.entries.filter(source_tournament__in=earlier).values_list("player_id", flat=True))


def _chosen(qualifier: Tournament, results: Results, places: int,
            earlier: set[int]) -> tuple[set[Hashable], Sequence[Hashable]]:
    """Who the qualifier sends on these results, and the players of a tie across the cut-off (none: empty)."""
    standings = ranked_standings(qualifier, results, whole_event=True)
    passed_over = absent_entries(results) | {pk for pk, e in results.entries.items() if e.player_id in earlier}
    try:
        return set(qualifiers(standings, places, passed_over)), ()
    except TieAtCutoff as error:
        return set(seeded_field(standings, places, passed_over)), [s.player for s in error.group]


def _seating_changes(tournament: Tournament, stage: Stage, versions: _Versions) -> list[str]:
    """Stages after the sheet's, already seated by rank: the correction may not change who sits where."""
    problems = []
    for later in tournament.stages.filter(seating=Stage.Seating.SEEDED, order__gt=stage.order).order_by("order"):
        game = later.game_set.first()
        if game is None:
            continue
        before, after = versions.before, versions.after
        was = stage_seeding(later, before, ranked_standings(tournament, before, whole_event=True))
        try:
            now = stage_seeding(later, after, ranked_standings(tournament, after, whole_event=True))
        except ValidationError as error:
            change = " ".join(error.messages)
        else:
            change = _seating_change(was, now, after)
        if change:
            problems.append(_undo_first(later, game, change))
    return problems


def _seating_change(was: Seeding, now: Seeding, results: Results) -> str:
    """What the correction would change in a stage seated by rank, in words; "" when nothing."""
    if set(now.players) != set(was.players):
        return _("%(in)s would play instead of %(out)s") % {
            "in": _names(results, set(now.players) - set(was.players)),
            "out": _names(results, set(was.players) - set(now.players))}
    table_was = {p: n for n, table in enumerate(was.tables) for p in table}
    table_now = {p: n for n, table in enumerate(now.tables) for p in table}
    if moved := [p for p in now.players if table_now[p] != table_was[p]]:
        return _("%(names)s would change tables") % {"names": _names(results, moved)}
    if now.seeded and (reseeded := [p for p, q in zip(now.players, was.players) if p != q]):
        return _("%(names)s would change seeds") % {"names": _names(results, reseeded)}
    if new := [tie for tie in now.ties if tie not in was.ties]:
        return _("%(names)s would be tied where it matters") % {"names": _names(results, new[0].players)}
    return ""


def _undo_first(stage: Stage, game: Game, change: str) -> str:
    """The refusal, with what the organizer undoes first, if anything still can be."""
    values = {"stage": stage.name, "n": game.number, "change": change}
    if game.status == Game.Status.PLANNED:
        return _("%(stage)s was seated by rank from these results, and with this correction %(change)s. Clear its "
                 "seating first (on its seating page), then correct the sheet and seat %(stage)s again.") % values
    if not RecordSheet.objects.filter(table__game=game, version__gt=0).exists():
        return _("%(stage)s was seated by rank from these results and published, and with this correction "
                 "%(change)s. Take game %(n)d back and clear its seating first, then correct the sheet and seat "
                 "%(stage)s again.") % values
    return _("%(stage)s was seated by rank from these results and has started (game %(n)d has results), and with "
             "this correction %(change)s. Its seating stands, so the correction is refused: the signed-off result "
             "cannot be further altered (001 §5).") % values
