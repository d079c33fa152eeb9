"""Game URLs (namespace ``games``)."""

from __future__ import annotations

from django.urls import path

from games import presentation, views
from games.views import live as live_views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_new, name="new"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/join", views.game_join, name="join"),
    path("games/<int:game_id>/leave", views.game_leave, name="leave"),
    path("games/<int:game_id>/cancel", views.game_cancel, name="cancel"),
    path("games/<int:game_id>/resign", views.game_resign, name="resign"),
    path("games/<int:game_id>/move", views.game_move, name="move"),
    path("games/<int:game_id>/undo", views.game_undo, name="undo"),
    path("games/<int:game_id>/undo/answer", views.game_undo_answer, name="undo_answer"),
    path("games/<int:game_id>/standing", views.game_standing, name="standing"),
    path("games/<int:game_id>/poll", views.game_poll, name="poll"),
    path("games/<int:game_id>/live", live_views.game_live, name="live"),
    path("live/lobby", live_views.lobby_live, name="lobby_live"),
    path("games/<int:game_id>/chat", views.game_chat, name="chat"),
    path("games/<int:game_id>/notes", views.game_notes, name="notes"),
    path("games/<int:game_id>/record.json", views.game_record, name="record"),
    path("games/<int:game_id>/replay", views.game_replay, name="replay"),
    # Each game's own views (a board built by clicks), from its urls part: the platform names none.
    *presentation.urlpatterns(),
]
