"""The players' URLs (docs/interfaces.md): registering and checking in under the tournament's address, their own
pages under /me/. Included in every language (catan_tournaments/urls.py)."""
from django.urls import path

from . import calendars, calls, data, seat, signup, views

urlpatterns = [
    path("t/<slug:slug>/register/", signup.register, name="players-register"),
    path("t/<slug:slug>/register/confirm/<str:token>/", signup.register_confirm, name="players-register-confirm"),
    path("t/<slug:slug>/check-in/<str:code>/", views.check_in, name="players-check-in"),
    path("t/<slug:slug>/calendar.ics", calendars.tournament_calendar, name="players-tournament-calendar"),
    path("c/<slug:championship_slug>/calendar.ics", calendars.championship_calendar,
         name="players-championship-calendar"),
    path("me/", views.me_home, name="players-me-home"),
    path("me/erase/<str:token>/", data.erase_confirm, name="players-erase-confirm"),
    path("me/<str:token>/", views.me, name="players-me"),
    path("me/<str:token>/t/<slug:slug>/seat/", seat.me_seat, name="players-me-seat"),
    path("me/<str:token>/calendar.ics", calendars.me_calendar, name="players-me-calendar"),
    path("me/<str:token>/registrations/<int:registration_id>/cancel/", signup.me_cancel, name="players-me-cancel"),
    path("me/<str:token>/sheets/<int:sheet_id>/", views.me_sheet, name="players-me-sheet"),
    path("me/<str:token>/entries/<int:entry_id>/confirm/", views.me_confirm_entry, name="players-me-entry-confirm"),
    path("me/<str:token>/tables/<int:table_id>/calls/", calls.me_calls, name="players-me-calls"),
    path("me/<str:token>/tables/<int:table_id>/call/", calls.me_call, name="players-me-call"),
    path("me/<str:token>/push/subscribe/", views.me_push_subscribe, name="players-me-push-subscribe"),
    path("me/<str:token>/push/unsubscribe/", views.me_push_unsubscribe, name="players-me-push-unsubscribe"),
    path("me/<str:token>/data/", data.me_data, name="players-me-data"),
    path("me/<str:token>/data.json", data.me_data_json, name="players-me-data-json"),
    path("me/<str:token>/data/erase/", data.me_erase, name="players-me-erase"),
]
