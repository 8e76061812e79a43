"""A registration list checked against the database before anything is saved (the import preview).

The same check runs when the organizer confirms, inside the import's transaction, so what was
previewed is what is written, or nothing is (docs/rules.md §1: minimum age, staff may not play).
Reads only: a fixed handful of queries whatever the number of rows.
"""
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from engines.csv_input import InputProblem, Record

from .eligibility import age_on, staff_roles
from .models import Entry, Player, Tournament
from .roster import RosterLine, check_records, name_key


@dataclass
class RosterPreview:
    lines: list[RosterLine]
    enter: bool
    existing: dict[int, Player]
    """Registered players the rows will reuse, by line."""
    friends: dict[str, Player]
    """Registered players named as friends who are not in the file, by name key."""
    entered: set[int]
    """Lines whose player is already entered in the tournament."""

    @property
    def ok(self) -> bool:
        return bool(self.lines) and all(item.ok for item in self.lines)

    @property
    def problems(self) -> list[InputProblem]:
        return [p for item in self.lines for p in item.problems]

    @property
    def new_count(self) -> int:
        return sum(1 for item in self.lines if item.row and item.ok and item.line not in self.existing)


def _staff(tournament: Tournament) -> tuple[set[int], set[str]]:
    """Ids and email addresses of the tournament's staff (its own and its championship's)."""
    users = get_user_model().objects.filter(pk__in=staff_roles(tournament).values("user_id"))
    rows = list(users.values_list("pk", "email"))
    return {pk for pk, _email in rows}, {email.lower() for _pk, email in rows if email}


def preview_roster(records: list[Record], tournament: Tournament, *, enter: bool,
                   read_problems: list[InputProblem] = (), allow_existing: bool = True) -> RosterPreview:
    """Every row with its problems: the file's own (see `roster.check_records`) and the database's.

    A row matches a registered player by email when it gives one, otherwise by name among players
    without an email; a match is reused (its blank cells keep what is registered). `enter`: the rows
    are also entered in `tournament`, so its age cut-off and staff apply.
    """
    lines = check_records(records, list(read_problems))
    rows = [item.row for item in lines if item.row]
    emails = {row.email for row in rows if row.email}
    keys = {name_key(row.name) for row in rows} | {name_key(f) for row in rows for f in row.friends_or_family}
    candidates = list(Player.objects.annotate(lower=Lower("name"), lower_email=Lower("email"))
                      .filter(Q(lower_email__in=emails) | Q(lower__in={k.lower() for k in keys})))
    by_email = {p.email.lower(): p for p in candidates if p.email}
    by_name: dict[str, list[Player]] = {}
    for player in candidates:
        by_name.setdefault(name_key(player.name), []).append(player)
    in_file = {name_key(row.name) for row in rows}
    staff_ids, staff_emails = _staff(tournament)
    entered = set(Entry.objects.filter(tournament=tournament, player__in=candidates)
                  .values_list("player_id", flat=True))
    preview = RosterPreview(lines, enter, {}, {}, set())
    championship = tournament.championship
    for item in lines:
        row = item.row
        if row is None:
            continue
        add = item.problems.append
        same_name = by_name.get(name_key(row.name), [])
        match = by_email.get(row.email) if row.email else next((p for p in same_name if not p.email), None)
        if match is not None and not allow_existing:
            add(InputProblem(item.line, _("%(name)s is already registered: enter them from the entries page.")
                             % {"name": match.name}, "email" if row.email else "name"))
            continue
        if match is not None:
            preview.existing[item.line] = match
            if name_key(match.name) != name_key(row.name):
                item.notes.append(_("This email belongs to the registered player %(old)s; the name becomes "
                                    "%(new)s.") % {"old": match.name, "new": row.name})
            else:
                item.notes.append(_("Already registered: this player is reused."))
            if match.pk in entered:
                preview.entered.add(item.line)
                item.notes.append(_("Already entered in %(tournament)s.") % {"tournament": tournament.name})
        elif same_name:
            add(InputProblem(item.line, _("A player named %(name)s is already registered with another email: "
                                          "give that email to reuse them, or tell the two apart by name.")
                             % {"name": row.name}, "name"))
        for friend in row.friends_or_family:
            key = name_key(friend)
            if key in in_file:
                continue
            known = by_name.get(key, [])
            if len(known) == 1:
                preview.friends[key] = known[0]
            elif known:
                add(InputProblem(item.line, _("several registered players are named %(name)s: declare this "
                                              "relationship from the player list") % {"name": friend},
                                 "friends_or_family"))
            else:
                add(InputProblem(item.line, _("%(name)s is neither in the file nor a registered player")
                                 % {"name": friend}, "friends_or_family"))
        if not enter:
            continue
        if (match is not None and match.user_id in staff_ids) or (row.email and row.email in staff_emails):
            add(InputProblem(item.line, _("%(name)s is on the staff of %(tournament)s and cannot play in it.")
                             % {"name": row.name, "tournament": tournament.name}, "email"))
        born = row.date_of_birth or (match.date_of_birth if match else None)
        unreadable_date = any(p.column == "date_of_birth" for p in item.problems)
        if championship is not None and championship.age_cutoff is not None and not unreadable_date:
            if born is None:
                add(InputProblem(item.line, _("no date of birth: it is needed to check the minimum age"),
                                 "date_of_birth"))
            elif age_on(born, championship.age_cutoff) < championship.minimum_age:
                add(InputProblem(item.line, _("under %(age)d on the cut-off date %(cutoff)s")
                                 % {"age": championship.minimum_age,
                                    "cutoff": championship.age_cutoff.isoformat()}, "date_of_birth"))
    return preview
