"""Friend and family pairs and who declared them (docs/rules.md, "Declared pairs").

A pair is stored once (`Relationship`) with one `Declaration` per championship that declared it (per
tournament, for one outside any championship). Only a declaring championship's organizers remove its
declaration, and the pair goes with its last one. Seating keeps a pair apart wherever both players are
entered, whoever declared it (`scheduling.selectors`): a declaration is a fact about two people, and
keeping them apart never harms the championship that did not declare it.
"""
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change_in

from .models import Declaration, Entry, Player, Relationship, Tournament
from .permissions import require_organizer


def declaration_scope(tournament: Tournament) -> dict:
    """Who a pair declared from this tournament belongs to: its championship, or itself outside any championship."""
    if tournament.championship_id is not None:
        return {"championship_id": tournament.championship_id}
    return {"tournament_id": tournament.pk}


def declared_for(tournament: Tournament) -> Q:
    """Relationships this tournament's championship declared (a filter on Relationship)."""
    return Q(Exists(Declaration.objects.filter(relationship=OuterRef("pk"), **declaration_scope(tournament))))


def _logged_in(relationship: Relationship, tournament: Tournament) -> set[int]:
    """The championship's tournaments where either player is entered, and the one the change was made from."""
    scope = declaration_scope(tournament)
    tournaments = (Tournament.objects.filter(championship_id=scope["championship_id"]) if "championship_id" in scope
                   else Tournament.objects.filter(pk=tournament.pk))
    entered = Entry.objects.filter(player__in=[relationship.player_a_id, relationship.player_b_id],
                                   tournament__in=tournaments)
    return set(entered.values_list("tournament_id", flat=True)) | {tournament.pk}


@transaction.atomic
def declare_relationship(one: Player, other: Player, kind: str = Relationship.Kind.FRIEND, *, user,
                         tournament: Tournament) -> Relationship:
    """Declare a pair for the tournament's championship (once, whichever order the two are named in).

    The callers choose the players: both entered in the tournament, or rows of a list being entered with
    players of the organizer's own tournaments. The kind changes only while no other championship declares it.
    """
    require_organizer(user, tournament)
    if one.pk == other.pk:
        raise ValidationError(_("A player cannot be declared a friend or family member of themselves."))
    low, high = sorted((one, other), key=lambda player: player.pk)
    relationship, _created = Relationship.objects.get_or_create(player_a=low, player_b=high, defaults={"kind": kind})
    relationship = Relationship.objects.select_for_update(of=("self",)).get(pk=relationship.pk)
    _declaration, declared = Declaration.objects.get_or_create(relationship=relationship,
                                                               **declaration_scope(tournament))
    others = relationship.declarations.exclude(**declaration_scope(tournament)).exists()
    changed = relationship.kind != kind and not others
    if changed:
        relationship.kind = kind
        relationship.save(update_fields=["kind"])
    if declared or changed:
        record_change_in(user, _logged_in(relationship, tournament), Action.RELATIONSHIP_DECLARED, relationship,
                         after={"players": [low.name, high.name], "kind": relationship.kind})
    return relationship


@transaction.atomic
def remove_declaration(relationship_id: int, *, user, tournament: Tournament) -> None:
    """Withdraw this championship's declaration (audited in its tournaments); the pair goes with the last one.

    Seating already generated keeps its tables. Another championship's declaration is not this organizer's to remove.
    """
    require_organizer(user, tournament)
    relationship = (Relationship.objects.select_for_update(of=("self",)).select_related("player_a", "player_b")
                    .filter(pk=relationship_id).first())
    if relationship is None:
        return  # already removed (a double tap)
    declaration = relationship.declarations.filter(**declaration_scope(tournament)).first()
    if declaration is None:
        raise PermissionDenied("Only an organizer of a championship that declared this pair may remove it.")
    logged_in = _logged_in(relationship, tournament)
    declaration.delete()
    elsewhere = relationship.declarations.exists()
    record_change_in(user, logged_in, Action.RELATIONSHIP_REMOVED, relationship,
                     before={"players": [relationship.player_a.name, relationship.player_b.name],
                             "kind": relationship.kind},
                     after={"declared_elsewhere": True} if elsewhere else None)
    if not elsewhere:
        relationship.delete()
