"""Web pages of scoring."""

from django.urls import URLPattern, URLResolver

app_name = "scoring"
urlpatterns: list[URLPattern | URLResolver] = []
