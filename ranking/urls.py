from django.urls import path

from .views import desk, discipline, organize, public, sheets

urlpatterns = [
    path("referee/", desk.referee_home, name="referee-home"),
    path("referee/<slug:slug>/", desk.desk, name="referee-desk"),
    path("referee/<slug:slug>/tables/<int:table_id>/", sheets.sheet_page, name="referee-sheet"),
    path("referee/<slug:slug>/tables/<int:table_id>/scores/", sheets.save_scores, name="referee-scores"),
    path("referee/<slug:slug>/tables/<int:table_id>/play-order/", sheets.play_order, name="referee-play-order"),
    path("referee/<slug:slug>/tables/<int:table_id>/sign/", sheets.add_signature, name="referee-sign"),
    path("referee/<slug:slug>/tables/<int:table_id>/sign-off/", sheets.sign_off, name="referee-sign-off"),
    path("referee/<slug:slug>/tables/<int:table_id>/correct/", sheets.correct_sheet, name="referee-correct"),
    path("referee/<slug:slug>/penalties/", discipline.penalties, name="referee-penalties"),
    path("referee/<slug:slug>/draws/", discipline.draws, name="referee-draws"),
    path("organize/<slug:slug>/qualification/", organize.qualification, name="qualification"),
    path("organize/<slug:slug>/qualification/advance/", organize.advance, name="qualification-advance"),
    path("organize/<slug:slug>/entries/<int:entry_id>/replace/", organize.replace, name="qualification-replace"),
    path("organize/<slug:slug>/stages/<int:stage_id>/seed/", organize.seed_stage, name="stage-seed"),
    path("organize/<slug:slug>/stages/<int:stage_id>/games/<int:game_id>/unpublish/", organize.unpublish,
         name="game-unpublish"),
    path("t/<slug:slug>/standings/", public.standings, name="public-standings"),
    path("t/<slug:slug>/standings.csv", public.standings_csv, name="public-standings-csv"),
]
