"""API v1 routes of tournaments and what is in them."""

from django.urls import URLPattern, URLResolver
from rest_framework.routers import SimpleRouter

from .views import (
    PenaltyViewSet,
    RegistrationViewSet,
    SeatingPlanViewSet,
    SessionViewSet,
    TableViewSet,
    TournamentViewSet,
)

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("sessions", SessionViewSet, basename="session")
router.register("tables", TableViewSet, basename="table")
router.register("seating-plans", SeatingPlanViewSet, basename="seating-plan")
router.register("penalties", PenaltyViewSet, basename="penalty")

urlpatterns: list[URLPattern | URLResolver] = [*router.urls]
