"""What happened at the tables: record sheets with their scores, signatures and history; penalties; draws."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from championships.models import Entry, Stage, Tournament
from core.personal_data import BLANK, SCRUB, holds, not_personal
from engines.rulesets import NATIONAL_LATENESS
from scheduling.models import Game, Seat, Table

from .limits import OBJECTION_MAX, SIGNATURE_IMAGE_MAX, TEXT_MAX


@holds(about="banker__player", why="a table's sheet where the player was the banker")
class RecordSheet(models.Model):
    """One sheet per table and game; locked once the referee signs it off."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("not started")
        SIGNING = "signing", _("awaiting signatures")
        SIGNED = "signed", _("signed by all players")
        SIGNED_OFF = "signed_off", _("signed off")

    table = models.OneToOneField(Table, models.CASCADE, related_name="sheet")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    end_time = models.TimeField(_("end time"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0, help_text=_("The current revision number."))
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+",
    )
    signed_off_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    banker = models.ForeignKey(Entry, models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("banker"))
    """The player who banked (handed out and took back the resource cards), once recorded (results/banker.py)."""
    referee_banked = models.BooleanField(_("the referee banked"), default=False)
    """The referee banked: the national final, the world semifinals and final (001 §7c, 004 §2.0.4), or on request.
    Neither set: not recorded yet (the rule decides until the sign-off records it)."""

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="signed_off") | Q(signed_off_by__isnull=False, signed_off_at__isnull=False),
                name="sheet_sign_off_recorded",
            ),
            models.CheckConstraint(condition=Q(referee_banked=False) | Q(banker__isnull=True),
                                   name="sheet_one_banker"),
        ]

    def __str__(self) -> str:
        name = _("Record sheet")  # not inside the f-string: xgettext would not see it, and it would stay English
        return f"{name} · {self.table}"

    @property
    def is_locked(self) -> bool:
        return self.status == self.Status.SIGNED_OFF


@holds(about="seat__entry__player", why="the player's score at a table")
class Score(models.Model):
    """The VP one seated player scored, as written on the sheet (penalties never change it)."""

    sheet = models.ForeignKey(RecordSheet, models.CASCADE, related_name="scores")
    seat = models.OneToOneField(Seat, models.CASCADE, related_name="score")
    vp = models.PositiveSmallIntegerField(_("victory points"), null=True, blank=True)
    winner = models.BooleanField(_("winner"), default=False)

    class Meta:
        ordering = ["seat__position"]
        constraints = [
            models.CheckConstraint(condition=Q(vp__isnull=True) | Q(vp__lte=12), name="score_vp_range"),
            models.CheckConstraint(condition=~Q(winner=True) | Q(vp__gte=10), name="score_winner_has_ten"),
            models.UniqueConstraint(fields=["sheet"], condition=Q(winner=True), name="score_one_winner_per_sheet"),
        ]

    def __str__(self) -> str:
        return f"{self.seat.entry.player}: {self.vp}"


@holds(about="entry__player", erase={"image": BLANK}, why="the player's confirmation of a result")
class Signature(models.Model):
    """A player's confirmation of the sheet, or the referee's recorded decision overruling a refusal."""

    class Method(models.TextChoices):
        DRAWN = "drawn", _("drawn signature")
        TAP = "tap", _("confirmed by tap")
        OVERRULED = "overruled", _("refused; overruled by the referee")
        PHONE = "phone", _("confirmed on their phone")

    sheet = models.ForeignKey(RecordSheet, models.CASCADE, related_name="signatures")
    entry = models.ForeignKey(Entry, models.PROTECT, related_name="signatures")
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    image = models.TextField(_("drawn signature (SVG path)"), blank=True)
    decision = models.TextField(_("referee's decision"), blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+")
    """The referee's tablet that took it; empty for a confirmation from the player's own phone."""
    signed_at = models.DateTimeField(_("signed at"))
    sheet_version = models.PositiveIntegerField(_("sheet version signed"))

    class Meta:
        ordering = ["signed_at"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "entry"], name="signature_once_per_player"),
            models.CheckConstraint(
                condition=~Q(method="overruled") | ~Q(decision=""), name="signature_overrule_has_decision",
            ),
            models.CheckConstraint(condition=LessThanOrEqual(Length("decision"), TEXT_MAX),
                                  name="signature_decision_length"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("image"), SIGNATURE_IMAGE_MAX),
                                  name="signature_image_length"),
            models.CheckConstraint(condition=Q(method="phone") ^ Q(recorded_by__isnull=False),
                                   name="signature_phone_or_tablet"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} · {self.get_method_display()}"


@holds(about="entry__player", erase={"note": BLANK}, why="the player's word that a result was wrong")
class Objection(models.Model):
    """A player's word, from their phone, that the entered result of their table is wrong: shown to the referee on
    the tablet, who decides (the sign-off stays the control). It is about one version of the sheet."""

    sheet = models.ForeignKey(RecordSheet, models.CASCADE, related_name="objections")
    entry = models.ForeignKey(Entry, models.PROTECT, related_name="objections")
    sheet_version = models.PositiveIntegerField(_("sheet version"))
    note = models.TextField(_("what is wrong"), blank=True)
    created_at = models.DateTimeField(_("said at"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "entry", "sheet_version"], name="objection_once_per_version"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("note"), OBJECTION_MAX),
                                   name="objection_note_length"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} · {self.sheet} · v{self.sheet_version}"


@holds(rows=lambda player: SheetRevision.objects.filter(sheet__table__seats__entry__player=player.pk).distinct()
       .order_by("pk"), erase={"data": SCRUB, "reason": SCRUB},
       why="each version of a table's sheet the player sat at: the scores as entered, with the names")
class SheetRevision(models.Model):
    """An immutable snapshot of a sheet after each change; corrections keep the old ones visible."""

    class Kind(models.TextChoices):
        ENTERED = "entered", pgettext_lazy("record sheet", "entered")
        CORRECTED = "corrected", _("corrected after sign-off")
        SIGNED_OFF = "signed_off", _("signed off")

    sheet = models.ForeignKey(RecordSheet, models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    data = models.JSONField(_("scores, winner and times"))
    reason = models.TextField(_("reason"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="revision_number_unique"),
            models.CheckConstraint(
                condition=~Q(kind="corrected") | ~Q(reason=""), name="revision_correction_has_reason",
            ),
            models.CheckConstraint(condition=LessThanOrEqual(Length("reason"), TEXT_MAX),
                                  name="revision_reason_length"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet} · v{self.number}"


@holds(about="entry__player", why="a penalty given to the player")
class Penalty(models.Model):
    """A penalty a referee gave (docs/rules.md §4, Penalties; seeds 001 §6 and 004 §1.2.4, §1.2.5, §3.0.13)."""

    class Kind(models.TextChoices):
        LATENESS = "lateness", _("late arrival")
        WARNING = "warning", _("warning")
        COLLUSION = "collusion", _("collusion warning")
        VP_DEDUCTION = "vp_deduction", _("VP deduction")
        DISQUALIFICATION = "disqualification", _("disqualification")

    class Ground(models.TextChoices):
        """Why a player is disqualified: it decides when the disqualification may be made."""

        RULES = "rules", _("breaking the game's rules")
        CONDUCT = "conduct", _("breaching the code of conduct")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, models.PROTECT, related_name="penalties")
    game = models.ForeignKey(Game, models.SET_NULL, null=True, blank=True, related_name="penalties")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    vp = models.PositiveSmallIntegerField(_("VP deducted"), default=0)
    deduction = models.CharField(
        _("VP deduction"), max_length=16, blank=True,
        help_text=_("VP deductions only: which of the ruleset's deductions it is (empty on those recorded before "
                    "the rules named them)."),
    )
    """A key of `Ruleset.vp_deductions`; the service refuses one the tournament's rules do not have."""
    ground = models.CharField(
        _("ground for disqualification"), max_length=7, choices=Ground.choices, blank=True,
        help_text=_("Disqualifications only: breaking the game's rules, or the code of conduct."),
    )
    incident = models.UUIDField(
        null=True, blank=True, editable=False,
        help_text=_("Collusion warnings only: shared by the warnings of the two players of one incident."),
    )
    reason = models.TextField(_("reason"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    request_key = models.UUIDField(
        null=True, blank=True, unique=True, editable=False,
        help_text=_("Identifies the form submission, so a resubmitted form records the penalty once."),
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+",
                                     verbose_name=_("withdrawn by"))
    withdrawal_reason = models.TextField(_("reason for the withdrawal"), blank=True)
    """A mistaken penalty is withdrawn by an organizer, never deleted: it stays on record and no longer counts."""
    partner: str | None
    """Not stored: a collusion warning's other player, named by the reads that list warnings (`results.selectors`)."""
    deduction_name: str
    """Not stored: the ruleset's name of the VP deduction, set by the reads that list penalties."""

    class Meta:
        ordering = ["recorded_at"]
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=True, withdrawn_by__isnull=True, withdrawal_reason="")
                | (Q(withdrawn_at__isnull=False, withdrawn_by__isnull=False) & ~Q(withdrawal_reason="")),
                name="penalty_withdrawal_complete",
            ),
            models.CheckConstraint(condition=LessThanOrEqual(Length("withdrawal_reason"), TEXT_MAX),
                                   name="penalty_withdrawal_reason_length"),
            models.CheckConstraint(
                condition=Q(kind__in=["lateness", "vp_deduction"]) | Q(vp=0), name="penalty_vp_only_for_deductions",
            ),
            models.CheckConstraint(condition=~Q(kind="vp_deduction") | Q(vp__gte=1), name="penalty_deduction_positive"),
            models.CheckConstraint(condition=Q(kind="vp_deduction") | Q(deduction=""),
                                   name="penalty_deduction_only_for_vp_deductions"),
            models.CheckConstraint(condition=~Q(kind="lateness") | Q(vp=NATIONAL_LATENESS.vp),
                                   name="penalty_lateness_one_vp"),
            models.CheckConstraint(condition=~Q(reason=""), name="penalty_has_reason"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("reason"), TEXT_MAX),
                                  name="penalty_reason_length"),
            models.CheckConstraint(
                condition=Q(kind="disqualification", ground__in=["rules", "conduct"])
                | (~Q(kind="disqualification") & Q(ground="")),
                name="penalty_ground_iff_disqualification",
            ),
            models.CheckConstraint(
                condition=Q(kind="collusion", incident__isnull=False)
                | (~Q(kind="collusion") & Q(incident__isnull=True)),
                name="penalty_incident_iff_collusion",
            ),
            models.UniqueConstraint(fields=["incident", "entry"], name="penalty_incident_player_once"),
            # 001 §6: lateness counts from the tournament's official start, once per player (docs/rules.md I-38)
            models.UniqueConstraint(fields=["entry"], condition=Q(kind="lateness", withdrawn_at__isnull=True),
                                    name="penalty_lateness_once_per_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player}: {self.get_kind_display()}"


@holds(about="warning__entry__player", why="the referee's ruling on a collusion warning")
class CollusionRuling(models.Model):
    """The referee's decision, either way, on disqualifying a player warned for collusion again (seed 001 §6)."""

    warning = models.OneToOneField(Penalty, models.PROTECT, related_name="ruling",
                                   help_text=_("The repeated collusion warning that called for the decision."))
    disqualification = models.OneToOneField(Penalty, models.PROTECT, null=True, blank=True, related_name="+",
                                            help_text=_("Empty when the referee decided not to disqualify."))
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["decided_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="collusion_ruling_has_reason"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("reason"), TEXT_MAX),
                                  name="collusion_ruling_reason_length"),
        ]

    def __str__(self) -> str:
        decision = _("disqualified") if self.disqualification_id else _("not disqualified")
        return f"{self.warning} · {decision}"


class TiebreakDraw(models.Model):
    """The order a card draw or drawing of lots gave among tied players."""

    class Method(models.TextChoices):
        CARDS = "cards", _("development card draw")
        LOTS = "lots", _("drawing of lots")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="tiebreak_draws")
    stage = models.ForeignKey(Stage, models.CASCADE, null=True, blank=True, related_name="tiebreak_draws")
    method = models.CharField(_("method"), max_length=5, choices=Method.choices)
    note = models.TextField(_("note"), blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["recorded_at"]
        constraints = [
            models.CheckConstraint(condition=LessThanOrEqual(Length("note"), TEXT_MAX), name="draw_note_length"),
        ]

    def __str__(self) -> str:
        return f"{self.get_method_display()} · {self.tournament}"


@holds(about="entry__player", why="the player's place in a tiebreak draw")
class TiebreakDrawPlace(models.Model):
    draw = models.ForeignKey(TiebreakDraw, models.CASCADE, related_name="places")
    entry = models.ForeignKey(Entry, models.PROTECT, related_name="+")
    place = models.PositiveSmallIntegerField(_("place in the draw"))

    class Meta:
        ordering = ["draw", "place"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "place"], name="draw_place_unique"),
            models.UniqueConstraint(fields=["draw", "entry"], name="draw_entry_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="draw_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.draw_id} · {self.place} · {self.entry_id}"


ANNOUNCEMENT_MAX = 500
"""The longest announcement: a ruling or notice fits on the projector and on a phone."""


class Announcement(models.Model):
    """A notice or ruling the tournament's officials post to everyone (the seeds' central board)."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="announcements")
    text = models.CharField(_("announcement"), max_length=ANNOUNCEMENT_MAX)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created = models.DateTimeField(_("posted at"), auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="announcement_has_text"),
        ]

    def __str__(self) -> str:
        return self.text[:60]


@not_personal("the ids of a referee's tables waiting on their tablet")
class TabletReport(models.Model):
    """What one referee's tablet last said waits on it (issue 28): tables whose actions were typed without a network
    and have not reached the server. One row per tournament and user, replaced by each report; the organizer's
    list of missing results shows it."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    tables = models.JSONField(default=list, help_text=_("The ids of the tables with actions waiting on the tablet."))
    reported_at = models.DateTimeField(_("reported at"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="tablet_report_per_user")]

    def __str__(self) -> str:
        return f"{self.tournament_id} · {self.user_id} · {self.tables}"
