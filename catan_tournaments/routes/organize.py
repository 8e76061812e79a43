"""The organizer's pages: seating, publishing, qualification and the activity log of a tournament."""
from django.urls import path

from organize.views import activity
from ranking.views import qualification
from results.views import publishing
from scheduling import views as seating

urlpatterns = [
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
]
