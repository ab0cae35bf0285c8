"""Web pages of club."""

from django.urls import URLPattern, URLResolver, path

from club import views

app_name = "club"
urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.club_list, name="list"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/nights/new/", views.create_night, name="create_night"),
    path("<slug:slug>/nights/<int:night_id>/", views.club_night, name="night"),
    path("<slug:slug>/leagues/<int:league_id>/", views.league_detail, name="league"),
    path("<slug:slug>/ratings/", views.ratings, name="ratings"),
    path("<slug:slug>/online-import/", views.online_import, name="online_import"),
]
