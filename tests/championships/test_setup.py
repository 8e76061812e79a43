"""Creating a championship from a plan, the tournament's status, staff invitations (issue 11)."""
from dataclasses import replace
from datetime import date, time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from championships.formats import StagePlan, TournamentPlan, plan_from_preset, plan_problems
from championships.models import Championship, Entry, StaffRole, Tournament
from championships.presets import PRESETS
from championships.services import unique_slug
from championships.setup import close_tournament, create_championship, reopen_tournament
from championships.staff import invite_staff, remove_staff
from tests.factories import make_admin, make_official, make_player, make_tournament, make_user

pytestmark = pytest.mark.django_db


def creator():
    user = make_user()
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_gives_a_sound_plan_that_creates_what_it_shows(key):
    plan = plan_from_preset(key, year=2030)
    assert plan_problems(plan) == {}
    user = creator()
    championship = create_championship(plan, user=user)
    tournaments = list(championship.tournaments.order_by("pk"))
    assert [t.name for t in tournaments] == [t.name for t in plan.tournaments]
    for made, planned in zip(tournaments, plan.tournaments):
        assert made.status == Tournament.Status.REGISTRATION and made.advance_count == planned.advance_count
        assert [(s.kind, s.games, s.seating, s.players) for s in made.stages.order_by("order")] == [
            (s.kind, s.games, s.seating, s.players) for s in planned.stages]
    assert StaffRole.objects.filter(user=user, championship=championship, role="organizer").exists()
    assert AuditEntry.objects.filter(action="championship.created", object_id=championship.pk, user=user).exists()


def test_adjusted_cities_dates_start_times_games_and_advancing_players_are_kept():
    plan = plan_from_preset("uae-2022", year=2031)
    dubai = plan.tournaments[0]
    changed = TournamentPlan(kind=dubai.kind, name="Sharjah qualifier", city="Sharjah", date=date(2031, 5, 2),
                             official_start=time(10, 30),
                             advance_count=6, stages=(StagePlan("preliminary", "Qualifier", 4, "scheduled"),))
    plan = replace(plan, tournaments=(changed, *plan.tournaments[1:]))
    championship = create_championship(plan, user=make_admin())
    sharjah = championship.tournaments.get(name="Sharjah qualifier")
    assert (sharjah.city, sharjah.date, sharjah.official_start.strftime("%H:%M"), sharjah.advance_count) == (
        "Sharjah", date(2031, 5, 2), "10:30", 6)
    assert sharjah.stages.get().games == 4
    assert sharjah.slug == "uae-2031-sharjah-qualifier"


def test_a_plan_with_problems_writes_nothing_and_names_each_field():
    plan = plan_from_preset("world-championship", year=2030)
    world = plan.tournaments[0]
    bad_stages = (StagePlan("preliminary", "Prelims", 0, "scheduled"), StagePlan("final", "Final", 1, "seeded", 6))
    plan = replace(plan, name=" ", tournaments=(replace(world, stages=bad_stages),
                                                TournamentPlan("qualifier", "Lonely qualifier", stages=(
                                                    StagePlan("preliminary", "Q", 3, "scheduled"),))))
    with pytest.raises(ValidationError) as error:
        create_championship(plan, user=make_admin())
    assert {"name", "t0-s0-games", "t0-s1-players", "t1-kind", "t1-advance_count"} <= set(error.value.message_dict)
    assert not Championship.objects.exists() and not Tournament.objects.exists()


def test_only_allowed_accounts_create_championships():
    with pytest.raises(PermissionDenied):
        create_championship(plan_from_preset("jordan-2022"), user=make_user())
    assert not Championship.objects.exists()


def test_no_slug_can_be_a_reserved_word():
    assert unique_slug(Tournament, "new") == "new-2"
    assert unique_slug(Championship, "Championships") == "championships-2"
    make_tournament(slug="x-1")
    assert unique_slug(Tournament, "x 1") == "x-1-2"


def test_close_and_reopen_need_a_reason_are_audited_and_for_organizers_only():
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    with pytest.raises(ValidationError):
        close_tournament(tournament.pk, user=organizer, reason="  ")
    with pytest.raises(PermissionDenied):
        close_tournament(tournament.pk, user=referee, reason="Rain")
    assert close_tournament(tournament.pk, user=organizer, reason="Venue closed early").status == "finished"
    entry = AuditEntry.objects.get(action="tournament.closed")
    assert (entry.reason, entry.before, entry.after) == ("Venue closed early", {"status": "draft"},
                                                         {"status": "finished"})
    assert reopen_tournament(tournament.pk, user=organizer, reason="Closed by mistake").status == "registration"


def test_an_unknown_email_gets_an_account_and_a_set_password_link_sent_after_commit(django_capture_on_commit_callbacks,
                                                                                       settings):
    from notices.invitations import send_set_password_link

    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    invitation = invite_staff("New.Referee@example.com", "referee", user=organizer, tournament=tournament)
    assert invitation.new_account and not invitation.member.has_usable_password()
    assert invitation.member.username == "newreferee"
    with django_capture_on_commit_callbacks(execute=True):
        send_set_password_link(invitation.member, invitation.role, inviter=organizer)
    assert len(mail.outbox) == 1 and f"{settings.SITE_URL}/accounts/reset/" in mail.outbox[0].body
    assert mail.outbox[0].to == ["New.Referee@example.com"]
    assert {"staff.account_created", "staff.assigned"} <= set(AuditEntry.objects.values_list("action", flat=True))


def test_invitation_by_username_and_refusals():
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    known = make_user("known-person")
    assert not invite_staff("KNOWN-person", "referee", user=organizer, tournament=tournament).new_account
    assert StaffRole.objects.filter(user=known, tournament=tournament, role="referee").exists()
    with pytest.raises(ValidationError, match="No account has the username"):
        invite_staff("nobody-here", "referee", user=organizer, tournament=tournament)
    with pytest.raises(ValidationError, match="Referees are appointed per tournament"):
        invite_staff("known-person", "referee", user=make_admin(), championship=tournament.championship)
    other = make_tournament()
    with pytest.raises(PermissionDenied):
        invite_staff("known-person", "referee", user=organizer, tournament=other)
    player = make_player(user=make_user("plays-here"))
    Entry.objects.create(tournament=tournament, player=player)
    with pytest.raises(ValidationError, match="cannot officiate"):
        invite_staff("plays-here", "referee", user=organizer, tournament=tournament)


def test_removing_a_role_is_audited_and_nobody_removes_their_own_organizer_role():
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    role = StaffRole.objects.get(user=referee, tournament=tournament)
    with pytest.raises(PermissionDenied):
        remove_staff(role.pk, user=make_official(make_tournament(), "organizer"))
    remove_staff(role.pk, user=organizer)
    assert not StaffRole.objects.filter(pk=role.pk).exists()
    assert AuditEntry.objects.get(action="staff.removed").before["user"] == referee.username
    own = StaffRole.objects.get(user=organizer, tournament=tournament)
    with pytest.raises(ValidationError):
        remove_staff(own.pk, user=organizer)


def test_a_refused_invitation_leaves_no_new_account_behind():
    championship = create_championship(plan_from_preset("jordan-2022"), user=make_admin())
    with pytest.raises(ValidationError, match="Referees are appointed per tournament"):
        invite_staff("someone.new@example.com", "referee", user=make_admin(), championship=championship)
    assert not get_user_model().objects.filter(email="someone.new@example.com").exists()
    assert not AuditEntry.objects.filter(action="staff.account_created").exists()


def test_an_unknown_country_creates_nothing_at_all():
    plan = replace(plan_from_preset("uae-2022"), country="XX")
    with pytest.raises(ValidationError):
        create_championship(plan, user=make_admin())
    assert not Championship.objects.exists() and not Tournament.objects.exists() and not AuditEntry.objects.exists()
