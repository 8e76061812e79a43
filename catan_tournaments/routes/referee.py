"""The referee's tablet (organizers use it too): the desk, record sheets, penalties and draws."""
from django.urls import path

from web.referee.views import announcements, boards, calls, desk, draws, offline, penalties, sheets

urlpatterns = [
    path("", desk.referee_home, name="referee-home"),
    path("<slug:slug>/", desk.desk, name="referee-desk"),
    path("<slug:slug>/tables/<int:table_id>/", sheets.sheet_page, name="referee-sheet"),
    path("<slug:slug>/tables/<int:table_id>/scores/", sheets.save_scores, name="referee-scores"),
    path("<slug:slug>/tables/<int:table_id>/play-order/", sheets.play_order, name="referee-play-order"),
    path("<slug:slug>/tables/<int:table_id>/banker/", sheets.banker, name="referee-banker"),
    path("<slug:slug>/tables/<int:table_id>/sign/", sheets.add_signature, name="referee-sign"),
    path("<slug:slug>/tables/<int:table_id>/sign-off/", sheets.sign_off, name="referee-sign-off"),
    path("<slug:slug>/tables/<int:table_id>/send/", offline.send, name="referee-offline-send"),
    path("<slug:slug>/tables/<int:table_id>/correct/", sheets.correct_sheet, name="referee-correct"),
    path("<slug:slug>/pending/", offline.pending, name="referee-pending"),
    path("<slug:slug>/penalties/", penalties.penalties, name="referee-penalties"),
    path("<slug:slug>/draws/", draws.draws, name="referee-draws"),
    path("<slug:slug>/calls/", calls.queue, name="referee-calls"),
    path("<slug:slug>/calls/<int:call_id>/", calls.handle, name="referee-call"),
    path("<slug:slug>/calls/<int:call_id>/take/", calls.take, name="referee-call-take"),
    path("<slug:slug>/announcements/", announcements.post, name="referee-announce"),
    path("<slug:slug>/games/<int:game_id>/clock/", boards.clock, name="referee-clock"),
    path("<slug:slug>/tables/<int:table_id>/timed-turns/", boards.timed_turns, name="referee-timed-turns"),
    path("<slug:slug>/announcements/<int:announcement_id>/remove/", announcements.remove,
         name="referee-announcement-remove"),
]
