from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("privacy/", views.privacy, name="privacy"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", views.ApiDocsView.as_view(url_name="schema"), name="swagger-ui"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("config.api_urls")),
    path("clubs/", include("club.urls")),
    path("t/", include("tournaments.urls")),
    path("games/", include("scoring.urls")),
]
