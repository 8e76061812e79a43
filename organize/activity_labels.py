"""How the activity log names kinds of change, detail fields and objects, in the reader's language."""
from django.utils.translation import gettext_lazy

KIND_LABELS = {
    "seating": gettext_lazy("Seating"),
    "sheet": gettext_lazy("Record sheets"),
    "penalty": gettext_lazy("Penalties"),
    "draw": gettext_lazy("Tiebreak draws"),
    "qualification": gettext_lazy("Qualification"),
    "entry": gettext_lazy("Entries"),
    "player": gettext_lazy("Players"),
    "relationship": gettext_lazy("Friends and family"),
    "staff": gettext_lazy("Staff"),
    "tournament": gettext_lazy("Tournament status"),
    "admin": gettext_lazy("Edits in the admin"),
    "announcement": gettext_lazy("Announcements"),
    "board": gettext_lazy("Boards"),
    "clock": gettext_lazy("Map-study clock"),
    "turns": gettext_lazy("Timed turns"),
}

DETAIL_LABELS = {
    "games": gettext_lazy("Games"),
    "seed": gettext_lazy("Seed"),
    "friend_conflicts": gettext_lazy("Friend/family conflicts"),
    "repeat_pairings": gettext_lazy("Repeat pairings"),
    "position_repeats": gettext_lazy("Repeated positions"),
    "same_country_tablemates": gettext_lazy("Same-country tablemates"),
    "repeat_bound": gettext_lazy("Repeat pairings no seating can avoid"),
    "position_bound": gettext_lazy("Repeated positions no seating can avoid"),
    "country_bound": gettext_lazy("Same-country tablemates no seating can avoid"),
    "order": gettext_lazy("Order"),
    "tables": gettext_lazy("Tables"),
    "scores": gettext_lazy("Scores"),
    "start_time": gettext_lazy("Start time"),
    "end_time": gettext_lazy("End time"),
    "signatures_cleared": gettext_lazy("Signatures cleared"),
    "version": gettext_lazy("Version"),
    "decision": gettext_lazy("Decision"),
    "vp": gettext_lazy("VP"),
    "game": gettext_lazy("Game"),
    "status": gettext_lazy("Status"),
    "qualified": gettext_lazy("Qualified"),
    "replacement": gettext_lazy("Replacement"),
    "note": gettext_lazy("Note"),
    "championship": gettext_lazy("Championship"),
    "board": gettext_lazy("Board"),
    "typed": gettext_lazy("Typed code"),
    "name": gettext_lazy("Name"),
    "email": gettext_lazy("Email"),
    "date_of_birth": gettext_lazy("Date of birth"),
    "country": gettext_lazy("Country"),
}

OBJECT_LABELS = {
    "tournament": gettext_lazy("tournament"),
    "championship": gettext_lazy("championship"),
    "stage": gettext_lazy("stage"),
    "entry": gettext_lazy("entry"),
    "player": gettext_lazy("player"),
    "country": gettext_lazy("country"),
    "relationship": gettext_lazy("relationship"),
    "staffrole": gettext_lazy("staff role"),
    "game": gettext_lazy("game"),
    "table": gettext_lazy("table"),
}
"""What an edit in the admin was made to, in words (the models' own names are not translated)."""

HIDDEN_DETAILS = {"entry", "seat", "player", "kind", "reason", "user", "role"}
"""Internal ids, and what the description or the reason column already says."""

NO_DETAILS = {"seating.published", "seating.unpublished", "seating.status_repaired", "entry.registered",
              "entry.checked_in", "entry.check_in_undone", "entry.not_admitted_undone",
              "entry.no_show_undone", "entry.withdrawal_undone", "entry.no_show", "entry.withdrawn", "entry.removed",
              "entry.not_admitted", "staff.assigned", "staff.removed", "staff.account_created", "staff.unlocked",
              "tournament.closed", "announcement.posted", "announcement.removed", "clock.start", "clock.pause",
              "clock.resume", "clock.reset", "clock.end", "turns.on", "turns.off", "board.limits",
              "relationship.declared", "relationship.removed"}
"""Actions whose description says everything their before/after hold."""
