"""Players register themselves (issue 25): on the tournament's page, confirmed by the emailed link, within the
places the organizer set, with a waiting list that gives a freed place to the first in line.

- Open while the organizer allows it (`Tournament.self_registration`), until `registration_closes` if set, and
  before the first game is published. A finals fed by qualifiers is entered by qualification, never this way.
- Submitting writes an unconfirmed `Registration` and emails a confirmation link; no player exists yet, so a
  mistyped or someone else's email creates nobody. The answer is the same whoever the email belongs to: an email
  already registered or entered gets an email saying so (with the private link), not a page that tells a stranger.
- The same eligibility as an organizer's entry (`eligibility.check_can_enter`: the minimum age on the
  championship's cut-off, staff may not play, one entry per tournament) is checked on the typed details at once
  and on the player record when the registration is confirmed and again when it takes a place.
- Confirming (a POST from the link's page: link scanners only GET) links the player record, an existing one by its
  email (left as it is but for details it lacks), then: awaiting the organizer when they approve each one; else a
  free place → entered; else the waiting list, in the order of confirmation.
- A place frees when an entry leaves before the first game is published (a cancellation, a withdrawal, a no-show,
  a refusal at the door, a removal) or the organizer adds places: `waiting_list.place_freed`, the one function
  every such path calls, gives it to the first waiting, with an email. How full the tournament is: `places`; the
  emails: `registration_mail`.
Every step is audited: a player's own with the player as actor, a visitor's with no actor.
"""
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from core.changes import announce
from core.emails import same_email
from core.site import absolute

from . import privacy_notice
from .countries import country_for_code
from .eligibility import age_on, check_birth_date, check_can_enter, staff_roles
from .links import digest, private_link
from .models import ACTIVE_STATUSES, FRIENDS_MAX, Entry, Player, Registration, Tournament
from .permissions import require_organizer
from .places import LIVE, games_published, seating_made
from .registration_mail import in_language, send, tell_entered, tell_staff, tell_status
from .waiting_list import confirmed_player, place_freed, refuse_registration, take_place_or_wait

CONFIRM_HOURS = 48
"""How long a confirmation link works; an unconfirmed registration holds no place meanwhile."""
LANGUAGES = {code for code, _name in settings.LANGUAGES}


@dataclass(frozen=True)
class Details:
    """What a player typed on the registration form (already cleaned by the form)."""

    name: str
    email: str
    date_of_birth: date | None
    country: str = ""
    city: str = ""
    friends: str = ""
    media_opt_out: bool = False
    language: str = ""


def fed_by_qualifiers(tournament: Tournament) -> bool:
    """A finals whose championship has qualifiers: its players come from them (RULES §1), not from registration."""
    return (tournament.kind == Tournament.Kind.FINALS and tournament.championship_id is not None
            and Tournament.objects.filter(championship_id=tournament.championship_id,
                                          kind=Tournament.Kind.QUALIFIER).exists())


def why_closed(tournament: Tournament, now: datetime | None = None) -> str | None:
    """Why players cannot register now, in words; None while they can."""
    now = now or timezone.now()
    if not tournament.self_registration or fed_by_qualifiers(tournament):
        return _("Players do not register themselves for %(tournament)s: the organizers enter them.") % {
            "tournament": tournament.name}
    if tournament.registration_closes and now >= tournament.registration_closes:
        return _("Registration for %(tournament)s closed on %(when)s.") % {
            "tournament": tournament.name, "when": _when(tournament.registration_closes)}
    if tournament.status == Tournament.Status.FINISHED or games_published(tournament):
        return _("%(tournament)s has started: registration is closed.") % {"tournament": tournament.name}
    return None


def _when(moment: datetime) -> str:
    local = timezone.localtime(moment)
    return f"{date_format(local, 'DATE_FORMAT')} {date_format(local, 'TIME_FORMAT')}"


# ---- registering and confirming -------------------------------------------------------------------------------

def _check_typed(tournament: Tournament, details: Details) -> None:
    """The eligibility the typed details already show, field by field (the record is checked on confirmation)."""
    errors = {}
    championship = tournament.championship
    if len(details.friends) > FRIENDS_MAX:
        errors["friends"] = [_("At most %(max)d characters.") % {"max": FRIENDS_MAX}]
    if championship is not None and championship.age_cutoff is not None:
        if details.date_of_birth is None:
            errors["date_of_birth"] = [_("Give your date of birth: it is needed to check the minimum age.")]
        elif age_on(details.date_of_birth, championship.age_cutoff) < championship.minimum_age:
            errors["date_of_birth"] = [_("Players must be at least %(age)d on %(cutoff)s.") % {
                "age": championship.minimum_age, "cutoff": date_format(championship.age_cutoff, "DATE_FORMAT")}]
    if details.date_of_birth is not None:
        try:
            check_birth_date(details.date_of_birth)
        except ValidationError as error:
            errors["date_of_birth"] = error.messages
    if details.country:
        country_for_code(details.country)  # an unknown code is refused by field
    if errors:
        raise ValidationError(errors)


def register(tournament_id: int, details: Details, *, token: str | None = None) -> Registration | None:
    """A registration typed on the tournament's page: checked, stored unconfirmed, and a confirmation link emailed.

    An email already registered or entered here, or a staff member's, gets an email saying so instead (None is
    returned): the page answers the same either way. Refused with a message by field when registration is closed
    or the details show the player may not play. `token`: the confirmation link's (the demo plays its players'
    part, demo/seed.py); a new random one by default."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).select_related("championship").get(
            pk=tournament_id)
        closed = why_closed(tournament)
        if closed:
            raise ValidationError(closed)
        _check_typed(tournament, details)
        language = details.language if details.language in LANGUAGES else settings.LANGUAGE_CODE
        if staff_roles(tournament).filter(same_email("user__email", details.email)).exists():
            tell_staff(tournament, details.email, language)
            return None
        known = (Registration.objects.select_related("player", "tournament")
                 .filter(same_email("email", details.email), tournament=tournament, status__in=LIVE).first())
        entered = Entry.objects.select_related("player").filter(
            same_email("player__email", details.email), tournament=tournament).first()
        if known is not None and known.status != Registration.Status.UNCONFIRMED:
            tell_status(known)
            return None
        if entered is not None:
            tell_entered(entered, tournament, language)
            return None
        token = token or secrets.token_urlsafe(32)
        fields: dict[str, object] = {
            "name": details.name, "date_of_birth": details.date_of_birth,
            "country": country_for_code(details.country) if details.country else None, "city": details.city,
            "friends": details.friends.strip(), "media_opt_out": details.media_opt_out, "language": language,
            "confirm_digest": digest(token),
            # the form shows this notice and takes the player's consent to it (web/players/forms.py)
            "privacy_notice": privacy_notice.accepted(tournament.championship) if tournament.championship else None}
        if known is not None:  # typed again before confirming: the new details and a new link, the old one dead
            for name, value in fields.items():
                setattr(known, name, value)
            known.created_at = timezone.now()
            known.save()
            registration = known
        else:
            registration = Registration.objects.create(tournament=tournament, email=details.email, **fields)
        record_change(None, tournament.pk, Action.REGISTRATION_SUBMITTED, registration,
                      after={"player": registration.name, "email": registration.email,
                             "country": details.country or None, "city": registration.city})
        with in_language(registration):
            path = reverse("players-register-confirm", args=[tournament.slug, token])
            send(registration, _("Confirm your registration: %(tournament)s") % {"tournament": tournament.name}, [
                _("You registered for %(tournament)s. Open this link to confirm it (it works for %(hours)d "
                  "hours):") % {"tournament": tournament.name, "hours": CONFIRM_HOURS},
                absolute(path), "",
                _("If you did not register, ignore this email: nothing happens without the confirmation.")])
    return registration


def registration_for(slug: str, token: str) -> Registration | None:
    """The registration a confirmation link stands for (None for an unknown, or another tournament's, link)."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return (Registration.objects.select_related("tournament__championship", "player")
            .filter(tournament__slug=slug, confirm_digest=digest(token)).first())


def expired(registration: Registration, now: datetime | None = None) -> bool:
    return (registration.status == Registration.Status.UNCONFIRMED
            and (now or timezone.now()) > registration.created_at + timedelta(hours=CONFIRM_HOURS))


def _player_for(registration: Registration) -> Player:
    """The player record the confirmed email stands for: an existing one (only what it lacks is filled in, and an
    opt-out of photos is kept) or a new one."""
    player = Player.objects.select_for_update(of=("self",)).filter(same_email("email", registration.email)).first()
    if player is None:
        player = Player.objects.create(name=registration.name, email=registration.email,
                                       date_of_birth=registration.date_of_birth, country=registration.country,
                                       media_opt_out=registration.media_opt_out, language=registration.language)
        record_change(None, registration.tournament_id, Action.PLAYER_REGISTERED, player, player=player,
                      after={"name": player.name, "email": player.email,
                             "country": player.country.code if player.country else None})
        return player
    filled: dict[str, object] = {}
    if player.date_of_birth is None and registration.date_of_birth is not None:
        filled["date_of_birth"] = registration.date_of_birth
    if player.country_id is None and registration.country_id is not None:
        filled["country"] = registration.country
    if not player.language:
        filled["language"] = registration.language
    if registration.media_opt_out and not player.media_opt_out:
        filled["media_opt_out"] = True
    if filled:
        for name, value in filled.items():
            setattr(player, name, value)
        player.save(update_fields=list(filled))
        tournaments = set(player.entries.values_list("tournament_id", flat=True)) | {registration.tournament_id}
        announce(*tournaments)  # their country is on the pages of the tournaments they are entered in
        for tournament_id in sorted(tournaments):
            record_change(None, tournament_id, Action.PLAYER_UPDATED, player, player=player,
                          after={"name": player.name, **{k: _audited(v) for k, v in filled.items()}})
    return player


def _audited(value):
    if isinstance(value, date):
        return value.isoformat()
    return getattr(value, "code", value)


@dataclass(frozen=True)
class Confirmed:
    registration: Registration
    link: str
    """The private link of the player's page (also emailed); empty when the registration was refused."""


def confirm(slug: str, token: str) -> Confirmed:
    """Confirm a registration from its emailed link (a POST); confirming again shows where it stands.

    Refused (ValidationError) for an unknown or expired link. When the player record may not play here the
    registration is refused, with the reason, emailed and returned."""
    with transaction.atomic():
        confirmed = _confirm(slug, token)
        if confirmed.registration.status == Registration.Status.WAITING:  # a place may be free behind the list
            place_freed(confirmed.registration.tournament_id, player=confirmed.registration.player)
            confirmed.registration.refresh_from_db()
    return confirmed


def _confirm(slug: str, token: str) -> Confirmed:
    with transaction.atomic():
        found = registration_for(slug, token)
        if found is None:
            raise ValidationError(_("This confirmation link is not valid. Register again on the tournament's page."))
        tournament = Tournament.objects.select_for_update(of=("self",)).select_related("championship").get(
            pk=found.tournament_id)
        registration = Registration.objects.select_for_update(of=("self",)).select_related("player").get(pk=found.pk)
        registration.tournament = tournament
        if registration.status != Registration.Status.UNCONFIRMED:
            if registration.player is None:
                raise ValidationError(_("This registration was %(status)s.") % {
                    "status": registration.get_status_display()})
            return Confirmed(registration, private_link(registration.player))
        if expired(registration):
            raise ValidationError(_("This confirmation link has expired (it works for %(hours)d hours). Register "
                                    "again on the tournament's page.") % {"hours": CONFIRM_HOURS})
        if games_published(tournament):
            raise ValidationError(_("%(tournament)s has started: registration is closed.") % {
                "tournament": tournament.name})
        player = _player_for(registration)
        registration.player, registration.confirmed_at = player, timezone.now()
        try:
            check_can_enter(player, tournament)
        except ValidationError as error:
            refuse_registration(registration, " ".join(error.messages), player=player)
            tell_status(registration)
            return Confirmed(registration, "")
        if tournament.registration_approval:
            registration.status = Registration.Status.PENDING
        else:
            take_place_or_wait(registration, tournament)
        registration.save()
        record_change(None, tournament.pk, Action.REGISTRATION_CONFIRMED, registration, player=player,
                      after={"player": player.name, "status": registration.status,
                             "entry": registration.entry_id})
        tell_status(registration)
        return Confirmed(registration, private_link(player))


# ---- the organizer's decisions, the player's cancellation, the waiting list -----------------------------------

def _locked(registration_id: int, tournament: Tournament) -> Registration:
    registration = (Registration.objects.select_for_update(of=("self",)).select_related("player")
                    .filter(pk=registration_id, tournament=tournament).first())
    if registration is None:
        raise ValidationError(_("This registration is not one of %(tournament)s.") % {"tournament": tournament.name})
    registration.tournament = tournament
    return registration


def approve(tournament: Tournament, registration_id: int, *, user) -> Registration:
    """The organizer approves a confirmed registration: a free place → entered, else the waiting list."""
    require_organizer(user, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
        registration = _locked(registration_id, tournament)
        if registration.status != Registration.Status.PENDING:
            raise ValidationError(_("Only a confirmed registration awaiting approval can be approved; this one is "
                                    "%(status)s.") % {"status": registration.get_status_display()})
        check_can_enter(confirmed_player(registration), tournament)
        take_place_or_wait(registration, tournament)
        registration.decided_by = user
        registration.save()
        record_change(user, tournament.pk, Action.REGISTRATION_APPROVED, registration,
                      after={"player": confirmed_player(registration).name, "status": registration.status,
                             "entry": registration.entry_id})
        tell_status(registration)
        if registration.status == Registration.Status.WAITING:  # a place may be free behind the list
            place_freed(tournament.pk, user=user)
            registration.refresh_from_db()
    return registration


def refuse(tournament: Tournament, registration_id: int, *, user, reason: str = "") -> Registration:
    """The organizer refuses a registration not entered yet (unconfirmed, awaiting approval or waiting); a place
    the waiting list did not get yet goes to the next in line."""
    require_organizer(user, tournament)
    reason = reason.strip()
    if len(reason) > 500:
        raise ValidationError({"reason": [_("At most %(max)d characters.") % {"max": 500}]})
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)  # before the row
        registration = _locked(registration_id, tournament)
        if registration.status not in (Registration.Status.UNCONFIRMED, Registration.Status.PENDING,
                                       Registration.Status.WAITING):
            raise ValidationError(_("This registration is %(status)s: an entered player is taken out on the entries "
                                    "page.") % {"status": registration.get_status_display()})
        refuse_registration(registration, reason, user=user)
        tell_status(registration)
        place_freed(tournament.pk, user=user)
    return registration


def cancel(registration_id: int, *, player: Player) -> Registration:
    """The player cancels their registration from their page: off the waiting list, or out of the tournament while
    no seating is made (afterwards the desk withdraws them); a freed place goes to the first waiting."""
    tournament_id = (Registration.objects.filter(pk=registration_id, player=player)
                     .values_list("tournament_id", flat=True).first())
    if tournament_id is None:
        raise ValidationError(_("This registration is not yours."))
    with transaction.atomic():
        # the tournament's row first, as every write of its places does (`place_freed`), then the registration's
        tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
        registration = (Registration.objects.select_for_update(of=("self",)).select_related("entry")
                        .get(pk=registration_id))
        registration.tournament = tournament
        if registration.status not in (Registration.Status.PENDING, Registration.Status.WAITING,
                                       Registration.Status.ENTERED):
            raise ValidationError(_("This registration is %(status)s.") % {"status": registration.get_status_display()})
        entry = registration.entry
        if registration.status == Registration.Status.ENTERED:
            if seating_made(tournament):
                raise ValidationError(_("The seating of %(tournament)s is made: to leave now, tell the desk.")
                                      % {"tournament": tournament.name})
            if entry is not None and entry.status in ACTIVE_STATUSES:
                before = entry.status
                entry.status = Entry.Status.WITHDRAWN
                entry.save(update_fields=["status"])
                record_change(None, tournament.pk, Action.ENTRY_WITHDRAWN, entry, player=player,
                              before={"status": before}, after={"player": player.name, "status": entry.status},
                              reason=_("Cancelled by the player on their phone."))
                announce(tournament.pk)
        registration.status, registration.decided_at = Registration.Status.CANCELLED, timezone.now()
        registration.save()
        record_change(None, tournament.pk, Action.REGISTRATION_CANCELLED, registration, player=player,
                      after={"player": player.name, "status": registration.status})
        place_freed(tournament.pk, player=player)
    return registration


# ---- the organizer's settings ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    self_registration: bool
    capacity: int | None
    registration_closes: datetime | None
    registration_approval: bool


def change_settings(tournament: Tournament, new: Settings, *, user) -> Tournament:
    """Open or close registration by players, set the places, the closing time and approval; audited. More places
    give the waiting list its turn at once."""
    require_organizer(user, tournament)
    errors = {}
    if new.self_registration and fed_by_qualifiers(tournament):
        errors["self_registration"] = [_("The players of this finals come from its championship's qualifiers: "
                                         "they do not register themselves.")]
    if new.capacity is not None and new.capacity < 3:
        errors["capacity"] = [_("A tournament needs room for at least 3 players.")]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
        fields = ("self_registration", "capacity", "registration_closes", "registration_approval")
        before = {name: _shown(getattr(locked, name)) for name in fields}
        for name in fields:
            setattr(locked, name, getattr(new, name))
        after = {name: _shown(getattr(locked, name)) for name in fields}
        if before == after:
            return locked
        locked.save(update_fields=list(fields))
        variant = ("opened" if new.self_registration and not before["self_registration"]
                   else "closed" if before["self_registration"] and not new.self_registration else "changed")
        record_change(user, tournament.pk, Action.TOURNAMENT_REGISTRATION, locked, before=before,
                      after={**after, "variant": variant})
        announce(tournament.pk)  # the overview offers registration or not
        place_freed(tournament.pk, user=user)
    return locked


def _shown(value):
    return timezone.localtime(value).isoformat(timespec="minutes") if isinstance(value, datetime) else value
