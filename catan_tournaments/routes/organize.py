"""The organizer's pages: seating, publishing, qualification and the activity log of a tournament."""
from django.urls import path

from organize.views import activity, checkin, console, entries, new, players
from ranking.views import qualification
from results.views import penalties, publishing
from scheduling import views as seating

urlpatterns = [
    # before the <slug> patterns: "new" and "championships" are reserved slugs (championships.models)
    path("", console.home, name="organize-home"),
    path("new/", new.new_championship, name="organize-new"),
    path("championships/<slug:championship_slug>/", console.championship, name="organize-championship"),
    path("championships/<slug:championship_slug>/staff/", console.championship_staff,
         name="organize-championship-staff"),
    path("staff/<int:role_id>/remove/", console.remove_role, name="organize-staff-remove"),
    path("<slug:slug>/", console.tournament, name="organize-tournament"),
    path("<slug:slug>/status/", console.change_status, name="organize-status"),
    path("<slug:slug>/staff/", console.tournament_staff, name="organize-staff"),
    path("<slug:slug>/missing-results/", console.missing, name="organize-missing"),
    path("<slug:slug>/penalties/<int:penalty_id>/withdraw/", penalties.withdraw, name="penalty-withdraw"),
    path("<slug:slug>/activity/", activity.activity_log, name="activity-log"),
    path("<slug:slug>/activity.csv", activity.activity_csv, name="activity-log-csv"),
    path("<slug:slug>/seating/", seating.seating_overview, name="seating-overview"),
    path("<slug:slug>/stages/<int:stage_id>/", seating.stage_seating, name="stage-seating"),
    path("<slug:slug>/stages/<int:stage_id>/generate/", seating.generate, name="stage-generate"),
    path("<slug:slug>/stages/<int:stage_id>/tasks/<str:task_id>/", seating.task_progress, name="stage-task"),
    path("<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/swap/", seating.swap, name="game-swap"),
    path("<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/publish/", publishing.publish, name="game-publish"),
    path("<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/unpublish/", publishing.unpublish,
         name="game-unpublish"),
    path("<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/repair-status/", publishing.repair_status,
         name="game-repair-status"),
    path("<slug:slug>/stages/<int:stage_id>/seed/", qualification.seed_stage, name="stage-seed"),
    path("<slug:slug>/qualification/", qualification.qualification, name="qualification"),
    path("<slug:slug>/qualification/advance/", qualification.advance, name="qualification-advance"),
    path("<slug:slug>/entries/<int:entry_id>/replace/", qualification.replace, name="qualification-replace"),
    path("<slug:slug>/players/", players.player_list, name="organize-players"),
    path("<slug:slug>/players.csv", players.player_csv, name="organize-players-csv"),
    path("<slug:slug>/players/add/", players.player_add, name="organize-player-add"),
    path("<slug:slug>/players/import/", players.player_import, name="organize-player-import"),
    path("<slug:slug>/relationships/", players.relationship_list, name="organize-relationships"),
    path("<slug:slug>/relationships.csv", players.relationship_csv, name="organize-relationships-csv"),
    path("<slug:slug>/relationships/<int:relationship_id>/remove/", players.relationship_remove,
         name="organize-relationship-remove"),
    path("<slug:slug>/entries/", entries.entry_list, name="organize-entries"),
    path("<slug:slug>/entries.csv", entries.entries_csv, name="organize-entries-csv"),
    path("<slug:slug>/entries/add/", entries.entries_add, name="organize-entries-add"),
    path("<slug:slug>/entries/remove/", entries.entries_remove, name="organize-entries-remove"),
    path("<slug:slug>/check-in/", checkin.check_in_page, name="organize-checkin"),
    path("<slug:slug>/check-in.csv", checkin.check_in_csv, name="organize-checkin-csv"),
    path("<slug:slug>/check-in/no-shows/", checkin.mark_no_shows, name="organize-checkin-no-shows"),
    path("<slug:slug>/check-in/<int:entry_id>/", checkin.check_in_entry, name="organize-checkin-entry"),
]
