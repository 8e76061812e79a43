"""Template tags for the event's boards and clocks: the board picture in the page's language, the study clock."""
from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engines.boards.generator import GENERIC_HARBOR, decode_board
from engines.boards.svg import board_svg
from engines.rulesets import ruleset_for

from ..clocks import clock_of, clock_text, turn_rules

register = template.Library()


def resource_words() -> dict[str, str]:
    """The words printed on the hexes, in the active language."""
    return {
        "forest": pgettext("board resource", "wood"),
        "pasture": pgettext("board resource", "wool"),
        "fields": pgettext("board resource", "grain"),
        "hills": pgettext("board resource", "brick"),
        "mountains": pgettext("board resource", "ore"),
        "desert": pgettext("board resource", "desert"),
    }


def _side_words() -> tuple[str, ...]:
    return (pgettext("board side", "east"), pgettext("board side", "north-east"),
            pgettext("board side", "north-west"), pgettext("board side", "west"),
            pgettext("board side", "south-west"), pgettext("board side", "south-east"))


def board_description(board, words: dict[str, str]) -> str:
    """What a screen reader announces: each row's hexes, then the harbours, in the page's language."""
    def spoken(h):
        return words[h.resource] if h.number is None else f"{words[h.resource]} {h.number}"

    rows = [_("Row %(n)d: %(hexes)s") % {"n": r + 3, "hexes": ", ".join(spoken(h) for h in board.hexes if h.r == r)}
            for r in range(-2, 3)]
    sides = _side_words()
    harbors = []
    for h in board.harbors:
        kind = h.ratio if h.kind == GENERIC_HARBOR else f"{h.ratio} {words[h.kind]}"
        harbors.append(_("%(kind)s by the %(hex)s (row %(row)d), facing %(side)s") % {
            "kind": kind, "hex": spoken(board.hex_at(h.q, h.r)), "row": h.r + 3, "side": sides[h.side]})
    return "; ".join(rows) + ". " + _("Harbours clockwise from the top: %(list)s.") % {"list": "; ".join(harbors)}


@register.simple_tag
def board_figure(code: str, caption: str = "") -> str:
    """The board of this code as an inline SVG with its code, named and described for screen readers."""
    if not code:
        return ""
    board = decode_board(code)
    words = resource_words()
    title = _("Board %(code)s") % {"code": board.code}
    if caption:
        title = f"{caption} · {title}"
    svg = board_svg(board, labels=words, title=title, description=board_description(board, words))
    return mark_safe(render_to_string("scheduling/_board.html", {  # escaped by board_svg
        "svg": mark_safe(svg), "code": board.code, "caption": caption}))


@register.filter
def has_map_study(tournament) -> bool:
    """Whether the tournament's rules time a study of the board after it is revealed (004 §1.1.7)."""
    return ruleset_for(tournament.ruleset).has_map_study


@register.filter
def minutes_seconds(seconds: int) -> str:
    """Seconds as the clocks show them: 90 → "1:30"."""
    return clock_text(seconds)


@register.simple_tag(takes_context=True)
def study_clock(context, game, controls: bool = False) -> str:
    """The map-study countdown of a game from the server's clock: with the desk's buttons (`controls`), or on a
    public screen once it has started and while the game is played."""
    if game is None:
        return ""
    clock = clock_of(game)
    if clock is None or not controls and (not clock.shown or game.status != game.Status.PUBLISHED):
        return ""
    return render_to_string("scheduling/_clock.html", {
        "game": game, "clock": clock, "controls": controls,
        "tournament": context.get("tournament"),
    }, request=context.get("request"))


@register.simple_tag(takes_context=True)
def turn_timer(context, table) -> str:
    """The tablet's timers of a table with timed turns, and the referee's switch (while the game is played)."""
    game = table.game
    if game.status != game.Status.PUBLISHED:
        return ""
    rules = turn_rules(game.tournament)
    seconds = table.turn_seconds or rules.offered
    return render_to_string("scheduling/_turn_timer.html", {
        "table": table, "tournament": game.tournament, "rules": rules, "seconds": seconds,
        "length": clock_text(seconds), "longest": clock_text(rules.longest),
        "finish": clock_text(rules.finish_seconds) if rules.finish_seconds else "",
        "placement": clock_text(table.placement_seconds) if table.placement_seconds else "",
    }, request=context.get("request"))
