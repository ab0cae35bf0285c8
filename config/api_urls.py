"""REST API v1: every service reachable with the right permissions."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
