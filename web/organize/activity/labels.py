"""How the activity log names detail fields and objects, in the reader's language (kinds of change and their
sentences are in the registry, audit/actions.py)."""
from django.utils.translation import gettext_lazy, pgettext_lazy

DETAIL_LABELS = {
    "games": gettext_lazy("Games"),
    "seed": pgettext_lazy("random seed", "Seed"),
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
