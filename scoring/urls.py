"""Web pages of scoring: the referee's table entry and public game pages."""

from django.urls import URLPattern, URLResolver, path

from scoring import offline, views

app_name = "scoring"
urlpatterns: list[URLPattern | URLResolver] = [
    path("referee/", views.referee_home, name="referee"),
    # Issue 21: the installable, offline-capable referee pages (scope: this folder).
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline_page, name="offline"),
    path("<int:game_id>/", views.game_public, name="game"),
    path("<int:game_id>/record.json", views.game_record_download, name="record"),
    path("<int:game_id>/entry/", views.game_entry, name="entry"),
    path("<int:game_id>/entry/preview/", views.game_preview, name="preview"),
    path("<int:game_id>/entry/hands/", views.game_add_hand, name="add_hand"),
    path("<int:game_id>/entry/last/", views.game_edit_last, name="edit_last"),
    path("<int:game_id>/entry/last/delete/", views.game_delete_last, name="delete_last"),
    path("<int:game_id>/entry/hands/<int:number>/edit/", views.game_edit_hand, name="edit_hand"),
    path(
        "<int:game_id>/entry/hands/<int:number>/edit/preview/",
        views.game_edit_preview,
        name="edit_preview",
    ),
    path("<int:game_id>/entry/finalize/", views.game_finalize, name="finalize"),
    path("<int:game_id>/entry/paper/", views.game_paper_sheet, name="paper_sheet"),
    path("<int:game_id>/entry/reopen/", views.game_reopen, name="reopen"),
    path("<int:game_id>/entry/confirm/", views.game_confirm, name="confirm_game"),
    path(
        "<int:game_id>/entry/hands/<int:number>/confirm/",
        views.game_confirm_hand,
        name="confirm_hand",
    ),
]
