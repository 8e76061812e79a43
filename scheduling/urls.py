from django.urls import path

from . import views

urlpatterns = [
    path("organize/<slug:slug>/seating/", views.seating_overview, name="seating-overview"),
    path("organize/<slug:slug>/stages/<int:stage_id>/", views.stage_seating, name="stage-seating"),
    path("organize/<slug:slug>/stages/<int:stage_id>/generate/", views.generate, name="stage-generate"),
    path("organize/<slug:slug>/stages/<int:stage_id>/tasks/<str:task_id>/", views.task_progress,
         name="stage-task"),
    path("organize/<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/swap/", views.swap, name="game-swap"),
    path("organize/<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/publish/", views.publish,
         name="game-publish"),
]
