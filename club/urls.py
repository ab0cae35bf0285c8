"""Web pages of club."""

from django.urls import URLPattern, URLResolver

app_name = "club"
urlpatterns: list[URLPattern | URLResolver] = []
