"""Every change the audit trail records, in one registry: its stored name, its kind, and the words that tell it.

`record_change` takes only these members, so the activity log (web/organize/activity/sentences.py) knows how to
tell each entry. A member's value is what `AuditEntry.action` stores: it never changes once released, or older entries
and backups would no longer read (tests/audit/test_actions.py keeps the released ones). Its first part is its
kind ("sheet.signed_off" is of kind "sheet"), which the activity log filters by.

Each member carries a short `label` (a sentence with no blanks) and its `sentences`: templates whose %(name)s
blanks the activity log fills from the entry's before/after and the objects it refers to. Where one change is
told differently depending on its data, the sentences are variants keyed by a word ("" is the usual one); a
variant the log asks for and the member lacks is told by its label.
"""
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """What a change is about, in the order the activity log's filter offers them."""

    SEATING = "seating", _("Seating")
    BOARD = "board", _("Boards")
    CLOCK = "clock", _("Map-study clock")
    TURNS = "turns", _("Timed turns")
    SHEET = "sheet", _("Record sheets")
    PENALTY = "penalty", _("Penalties")
    DRAW = "draw", _("Tiebreak draws")
    CALL = "call", _("Calls for a referee")
    QUALIFICATION = "qualification", _("Qualification")
    ENTRY = "entry", _("Entries")
    REGISTRATION = "registration", _("Registrations by players")
    PLAYER = "player", _("Players")
    RELATIONSHIP = "relationship", _("Friends and family")
    STAFF = "staff", _("Staff")
    ANNOUNCEMENT = "announcement", _("Announcements")
    TOURNAMENT = "tournament", _("Tournament status")
    CHAMPIONSHIP = "championship", _("Championships")
    TOKEN = "token", _("API tokens")
    WEBHOOK = "webhook", _("Webhooks")
    EMAIL = "email", _("Emails not sent")
    SEASON = "season", _("Seasons")
    ADMIN = "admin", _("Edits in the admin")


@dataclass(frozen=True)
class Told:
    """How an action is told: its label, its sentences by variant, and whether its before/after add anything."""

    label: Promise
    sentences: dict[str, Promise] = field(default_factory=dict)
    details: bool = True
    """False when the sentence (with the place and the reason) already says all the entry's data holds."""


def told(label: Promise, sentence: Promise | None = None, *, usual: bool = True, details: bool = True,
         **variants: Promise) -> Told:
    """The usual sentence ("") is the label itself unless given; `usual=False` when every entry is a variant."""
    return Told(label, ({"": sentence or label} if usual else {}) | variants, details)


class Action(StrEnum):
    """An audited change; `Action.SHEET_SIGNED_OFF == "sheet.signed_off"` is what the database stores."""

    kind: Kind
    label: Promise
    sentences: dict[str, Promise]
    details: bool

    def __new__(cls, value: str, words: Told):
        member = str.__new__(cls, value)
        member._value_ = value
        member.kind = Kind(value.partition(".")[0])
        member.label, member.sentences, member.details = words.label, words.sentences, words.details
        return member

    @classmethod
    def stored(cls, value: str) -> "Action | None":
        """The member an entry's stored `action` names; None for one this version does not know."""
        return cls._value2member_map_.get(value)  # type: ignore[return-value]

    SEATING_GENERATED = "seating.generated", told(
        _("Seating generated"), games=_("Seating generated for games %(games)s"))
    SEATING_SWAPPED = "seating.swapped", told(_("Seats swapped"), _("Seats of %(first)s and %(second)s swapped"))
    SEATING_PUBLISHED = "seating.published", told(_("Seating published"), details=False)
    SEATING_UNPUBLISHED = "seating.unpublished", told(_("Seating taken back to be planned again"), details=False)
    SEATING_STATUS_REPAIRED = "seating.status_repaired", told(
        _("Game status repaired from its record sheets"), usual=False, details=False,
        finished=_("Game status repaired from its record sheets: every table is signed off, the game is finished"),
        reopened=_("Game status repaired from its record sheets: a table is not signed off, the game is "
                   "published again"))
    SEATING_PLAY_ORDER = "seating.play_order", told(_("Play order recorded"), _("Play order recorded: %(order)s"))
    SEATING_SEEDED = "seating.seeded", told(_("Tables seated by rank"))
    SEATING_CLEARED = "seating.cleared", told(_("Seating by rank cleared, to be seated again"))

    BOARD_CHANGED = "board.changed", told(
        _("Board replaced"), usual=False, typed=_("Board replaced by a typed code: %(board)s"),
        random=_("Board replaced by a new random board: %(board)s"))
    BOARD_LIMITS = "board.limits", told(
        _("Fairness limits for random boards"), _("Fairness limits for random boards: %(limits)s"), details=False,
        off=_("Fairness limits for random boards switched off"))

    CLOCK_START = "clock.start", told(
        _("Map-study clock started"), _("Map-study clock started: %(minutes)s minutes"), details=False)
    CLOCK_PAUSE = "clock.pause", told(
        _("Map-study clock paused"), _("Map-study clock paused with %(left)s left"), details=False)
    CLOCK_RESUME = "clock.resume", told(_("Map-study clock resumed"), details=False)
    CLOCK_END = "clock.end", told(_("Map study ended early (all players agreed)"), details=False)
    CLOCK_RESET = "clock.reset", told(_("Map-study clock reset"), details=False)

    TURNS_ON = "turns.on", told(
        _("Timed turns imposed"), _("Timed turns imposed: %(left)s a turn"), details=False,
        finish=_("Timed turns imposed: %(finish)s to finish the slow turn, then %(left)s a turn"),
        placement=_("Timed turns imposed: %(left)s a turn, %(placement)s a placement"))
    TURNS_OFF = "turns.off", told(_("Timed turns lifted"), details=False)

    SHEET_ENTERED = "sheet.entered", told(
        _("Scores entered"), changed=_("Scores changed"),
        cleared=_("Scores changed; the signatures given were cleared"))
    SHEET_SIGNATURE_DRAWN = "sheet.signature.drawn", told(
        _("Signed (drawn signature)"), _("%(player)s signed (drawn signature)"))
    SHEET_SIGNATURE_TAP = "sheet.signature.tap", told(
        _("Result confirmed by tap"), _("%(player)s confirmed the result by tap"))
    SHEET_SIGNATURE_PHONE = "sheet.signature.phone", told(
        _("Result confirmed on the player's phone"), _("%(player)s confirmed the result on their phone"))
    SHEET_OBJECTION = "sheet.objection", told(
        _("A player says the result is wrong"), _("%(player)s says the entered result is wrong"))
    SHEET_SIGNATURE_OVERRULED = "sheet.signature.overruled", told(
        _("Refusal to sign overruled"), _("%(player)s refused to sign; the referee overruled the refusal"))
    SHEET_SIGNED_OFF = "sheet.signed_off", told(_("Result signed off and locked"))
    SHEET_CORRECTED = "sheet.corrected", told(_("Signed-off result corrected"))
    SHEET_BANKER = "sheet.banker", told(
        _("Banker recorded"), _("Banker recorded: %(player)s"), referee=_("Banker recorded: the referee"))

    PENALTY_LATENESS = "penalty.lateness", told(
        _("Late arrival"), _("Late arrival: %(player)s loses %(vp)s VP"), details=False,
        minutes=_("Late arrival (%(minutes)s minutes): %(player)s loses %(vp)s VP"))
    PENALTY_WARNING = "penalty.warning", told(_("Warning"), _("Warning for %(player)s"), details=False)
    PENALTY_COLLUSION = "penalty.collusion", told(
        _("Collusion warning"), _("Collusion warning for %(player)s and %(other)s"), details=False)
    PENALTY_VP_DEDUCTION = "penalty.vp_deduction", told(
        _("VP deduction"), _("VP deduction: %(player)s loses %(vp)s VP"), details=False)
    PENALTY_DISQUALIFICATION = "penalty.disqualification", told(
        _("Disqualification"), _("%(player)s disqualified"), details=False,
        rules=_("%(player)s disqualified for breaking the game's rules"),
        conduct=_("%(player)s disqualified for breaching the code of conduct"))
    PENALTY_WITHDRAWN = "penalty.withdrawn", told(
        _("Penalty withdrawn"), _("Penalty withdrawn (%(kind)s): %(player)s"), details=False)
    PENALTY_COLLUSION_RULING = "penalty.collusion_ruling", told(
        _("Ruling on repeated collusion"), usual=False, details=False,
        disqualified=_("Repeated collusion (%(n)s warnings): %(player)s disqualified by the referee's ruling"),
        kept=_("Repeated collusion (%(n)s warnings): the referee ruled not to disqualify %(player)s"))

    DRAW_CARDS = "draw.cards", told(
        _("Development card draw"), _("Development card draw, best first: %(order)s"))
    DRAW_LOTS = "draw.lots", told(_("Drawing of lots"), _("Drawing of lots, best first: %(order)s"))

    CALL_PLACED = "call.placed", told(
        _("Referee called"), _("%(player)s called a referee to table %(table)s: %(reason)s"), details=False)
    CALL_TAKEN = "call.taken", told(
        _("Call taken by a referee"), _("%(user)s went to the call of table %(table)s: %(reason)s"), details=False)
    CALL_PASSED = "call.passed", told(
        _("Call passed on"), _("Call of table %(table)s passed to %(to)s: %(reason)s"), details=False)
    CALL_RESOLVED = "call.resolved", told(
        _("Call resolved"), _("Call of table %(table)s resolved: %(reason)s"), details=False,
        ruling=_("Call of table %(table)s resolved (%(reason)s), ruling: %(ruling)s"))

    QUALIFICATION_ADVANCED = "qualification.advanced", told(
        _("Qualifiers sent to the finals"), _("Qualifiers of %(qualifier)s sent to the finals: %(players)s"))
    QUALIFICATION_REPLACED = "qualification.replaced", told(
        _("Finalist replaced"), _("%(player)s cannot attend the finals; %(replacement)s takes the place"),
        nobody=_("%(player)s cannot attend the finals; nobody was left to take the place"))

    ENTRY_REGISTERED = "entry.registered", told(_("Player entered"), _("%(player)s entered"), details=False)
    ENTRY_CHECKED_IN = "entry.checked_in", told(
        _("Checked in"), _("%(player)s checked in"), details=False,
        late=_("%(player)s checked in, %(minutes)s minutes late"),
        self=_("%(player)s checked in by themselves (QR code)"),
        late_self=_("%(player)s checked in by themselves (QR code), %(minutes)s minutes late"))
    ENTRY_SELF_CHECK_IN_OPENED = "entry.self_check_in_opened", told(
        _("Self check-in opened"), _("Self check-in by QR code opened until %(until)s"), details=False)
    ENTRY_SELF_CHECK_IN_CLOSED = "entry.self_check_in_closed", told(_("Self check-in closed"), details=False)
    ENTRY_CHECK_IN_UNDONE = "entry.check_in_undone", told(
        _("Check-in undone"), _("Check-in of %(player)s undone"), details=False)
    ENTRY_NOT_ADMITTED_UNDONE = "entry.not_admitted_undone", told(
        _("“Not admitted” undone"), _("“Not admitted” of %(player)s undone"), details=False)
    ENTRY_NO_SHOW_UNDONE = "entry.no_show_undone", told(
        _("“Did not come” undone"), _("“Did not come” of %(player)s undone"), details=False)
    ENTRY_WITHDRAWAL_UNDONE = "entry.withdrawal_undone", told(
        _("Withdrawal undone"), _("Withdrawal of %(player)s undone"), details=False)
    ENTRY_NO_SHOW = "entry.no_show", told(_("Did not come"), _("%(player)s did not come"), details=False)
    ENTRY_WITHDRAWN = "entry.withdrawn", told(_("Withdrew"), _("%(player)s withdrew"), details=False)
    ENTRY_REMOVED = "entry.removed", told(
        _("Taken out of the tournament"), _("%(player)s taken out of the tournament"), details=False)
    ENTRY_INVITED = "entry.invited", told(
        _("Player of another championship entered"),
        _("%(player)s entered from another championship and asked to confirm: until then the organizers see only "
          "what was typed"), details=False)
    ENTRY_CONFIRMED = "entry.confirmed", told(
        _("Entry confirmed by the player"),
        _("%(player)s confirmed their entry: the organizers now see their details"), details=False)
    ENTRY_NOT_ADMITTED = "entry.not_admitted", told(
        _("Not admitted"), _("%(player)s not admitted: %(minutes)s minutes late, more than 15"), details=False)

    PLAYER_REGISTERED = "player.registered", told(_("Player registered"), _("%(player)s registered"))
    PLAYER_UPDATED = "player.updated", told(_("Player's details changed"), _("Details of %(player)s changed"))
    PLAYER_LOOKED_UP = "player.looked_up", told(
        _("Player looked up"), usual=False, details=False,
        email=_("%(player)s found by their email"),
        name=_("%(player)s found by their name and date of birth"),
        email_missed=_("A player looked up by email: nobody has it"),
        name_missed=_("A player looked up by name and date of birth: nobody has them"))
    PLAYER_LOOKED_UP_ELSEWHERE = "player.looked_up_elsewhere", told(
        _("Player looked up by another championship"), usual=False, details=False,
        email=_("%(player)s looked up by their email from %(tournament)s, of another championship"),
        name=_("%(player)s looked up by their name and date of birth from %(tournament)s, of another championship"))
    PLAYER_ENTERED_ELSEWHERE = "player.entered_elsewhere", told(
        _("Player entered by another championship"),
        _("%(player)s entered in %(tournament)s by the organizers of another championship"), details=False)
    PLAYER_REMOVED_ELSEWHERE = "player.removed_elsewhere", told(
        _("Player taken out by another championship"),
        _("%(player)s taken out again of %(tournament)s, of another championship"), details=False)
    PLAYER_LINK_ROTATED = "player.link_rotated", told(
        _("Private link replaced"), _("Private link of %(player)s replaced: the old one no longer opens anything"),
        details=False,
        elsewhere=_("Private link of %(player)s replaced from %(tournament)s: the old one no longer opens anything, "
                    "the new one was emailed to them"))
    PLAYER_LINK_SENT = "player.link_sent", told(
        _("Private link sent again"), _("Private link of %(player)s sent again (asked for on /me/)"), details=False)
    PLAYER_PUSH_ON = "player.push_on", told(
        _("Phone notifications on"), _("%(player)s asked to be notified on a phone when their table is published"),
        details=False)
    PLAYER_PUSH_OFF = "player.push_off", told(
        _("Phone notifications off"), _("%(player)s stopped the notifications on a phone"), details=False)
    PLAYER_ERASED = "player.erased", told(
        _("Player's personal data erased"), usual=False, details=False,
        player=_("%(player)s: personal data erased, asked by the player from their own page"),
        organizer=_("%(player)s: personal data erased by an organizer, on the player's written request"),
        retention=_("%(player)s: personal data erased, no tournament played for the retention period"))

    REGISTRATION_SUBMITTED = "registration.submitted", told(
        _("Registration received"), _("%(player)s registered on the tournament's page (email not yet confirmed)"))
    REGISTRATION_CONFIRMED = "registration.confirmed", told(
        _("Registration confirmed by email"), usual=False, details=False,
        entered=_("%(player)s confirmed their registration and took a place"),
        waiting=_("%(player)s confirmed their registration: no place free, on the waiting list"),
        pending=_("%(player)s confirmed their registration: awaiting approval"))
    REGISTRATION_APPROVED = "registration.approved", told(
        _("Registration approved"), usual=False, details=False,
        entered=_("Registration of %(player)s approved: entered"),
        waiting=_("Registration of %(player)s approved: no place free, on the waiting list"))
    REGISTRATION_REFUSED = "registration.refused", told(
        _("Registration refused"), _("Registration of %(player)s refused"), details=False)
    REGISTRATION_PROMOTED = "registration.promoted", told(
        _("Place given from the waiting list"), _("%(player)s took a place that was freed (waiting list)"),
        details=False)
    REGISTRATION_CANCELLED = "registration.cancelled", told(
        _("Registration cancelled by the player"), _("%(player)s cancelled their registration"), details=False)

    RELATIONSHIP_DECLARED = "relationship.declared", told(
        _("Friends or family declared"), _("%(players)s declared friends or family (%(kind)s)"), details=False)
    RELATIONSHIP_REMOVED = "relationship.removed", told(
        _("Friends or family declaration removed"), _("%(players)s no longer declared friends or family"),
        details=False, elsewhere=_("This championship's declaration of %(players)s removed; another "
                                   "championship's keeps them apart"))

    STAFF_ASSIGNED = "staff.assigned", told(
        _("Staff appointed"), usual=False, details=False, organizer=_("%(user)s appointed organizer"),
        referee=_("%(user)s appointed referee"))
    STAFF_REMOVED = "staff.removed", told(_("Staff removed"), _("%(user)s no longer %(role)s"), details=False)
    STAFF_UNLOCKED = "staff.unlocked", told(
        _("Sign-in pause lifted"), _("Sign-in pause of %(user)s lifted"), details=False)
    STAFF_ACCOUNT_CREATED = "staff.account_created", told(
        _("Account created"), _("Account %(user)s created and sent a set-password link"), details=False)

    ANNOUNCEMENT_POSTED = "announcement.posted", told(
        _("Announcement posted"), _("Announcement posted: %(text)s"), details=False)
    ANNOUNCEMENT_REMOVED = "announcement.removed", told(
        _("Announcement taken down"), _("Announcement taken down: %(text)s"), details=False)

    TOURNAMENT_STATUS = "tournament.status", told(_("Tournament status"), _("Tournament status: %(status)s"))
    TOURNAMENT_CLOSED = "tournament.closed", told(_("Tournament closed by hand"), details=False)
    TOURNAMENT_REGISTRATION = "tournament.registration", told(
        _("Registration by players changed"), usual=False,
        opened=_("Registration by players opened"), closed=_("Registration by players closed"),
        changed=_("Registration by players: settings changed"))
    TOURNAMENT_EMBED_ORIGINS = "tournament.embed_origins", told(
        _("Websites allowed to show the embed changed"))
    TOURNAMENT_REOPENED = "tournament.reopened", told(
        _("Tournament reopened"), _("Tournament reopened: %(status)s"))

    CHAMPIONSHIP_CREATED = "championship.created", told(
        _("Championship created"), _("Championship %(name)s created"))
    PRIVACY_NOTICE_CHANGED = "championship.privacy_notice", told(
        _("Privacy notice changed"), _("Privacy notice changed: version %(version)s"), details=False)
    CONSENT_COLLECTED = "championship.consent_collected", told(
        _("Consent collected by the organizers"),
        _("The organizers collected the consent of %(players)s players to the privacy notice, version %(version)s"),
        details=False)

    TOKEN_CREATED = "token.created", told(_("API token created"))
    TOKEN_REVOKED = "token.revoked", told(_("API token revoked"))

    WEBHOOK_ADDED = "webhook.added", told(_("Webhook added"), _("Webhook added: %(url)s"))
    WEBHOOK_TURNED_OFF = "webhook.turned_off", told(_("Webhook turned off"), _("Webhook turned off: %(url)s"))
    WEBHOOK_TURNED_ON = "webhook.turned_on", told(_("Webhook turned on"), _("Webhook turned on: %(url)s"))
    WEBHOOK_REMOVED = "webhook.removed", told(_("Webhook removed"), _("Webhook removed: %(url)s"))
    WEBHOOK_PINGED = "webhook.pinged", told(_("Webhook sent a test delivery"),
                                            _("Test delivery sent to %(url)s"))
    WEBHOOK_SECRET_CHANGED = "webhook.secret_changed", told(_("Webhook signing secret changed"),
                                                            _("New signing secret for %(url)s"))
    WEBHOOK_FORMAT_CHANGED = "webhook.format_changed", told(_("Webhook format changed"),
                                                           _("Webhook format changed: %(url)s"))
    WEBHOOK_REDELIVERED = "webhook.redelivered", told(_("Failed delivery sent again"),
                                                      _("A failed delivery sent again to %(url)s"))
    WEBHOOK_FAILING = "webhook.failing_turned_off", told(_("Webhook turned off: its deliveries kept failing"),
                                                         _("Webhook turned off, its deliveries kept failing: %(url)s"))

    EMAIL_SENT_AGAIN = "email.sent_again", told(_("Email sent again"), _("Email to %(to)s sent again: %(subject)s"),
                                                details=False)

    SEASON_CREATED = "season.created", told(_("Season created"))
    SEASON_CHANGED = "season.changed", told(_("Season changed: name, championships, points or tiebreaks"))
    SEASON_DELETED = "season.deleted", told(_("Season deleted"))

    ADMIN_ADDED = "admin.added", told(_("Added in the admin"), _("Added in the admin: %(object)s"))
    ADMIN_CHANGED = "admin.changed", told(_("Changed in the admin"), _("Changed in the admin: %(object)s"))
    ADMIN_DELETED = "admin.deleted", told(_("Deleted in the admin"), _("Deleted in the admin: %(object)s"))


BY_THE_SITE = frozenset({Action.WEBHOOK_FAILING})
"""Changes the site makes by itself, with no one acting: the activity log names the site, not "a visitor"."""
