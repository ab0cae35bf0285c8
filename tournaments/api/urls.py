"""API v1 routes of tournaments and what is in them.

A tournament's resources are view sets of their own (staff, registrations, sessions, seating
plans, penalties, exports) on the tournament's URLs, /tournaments/{slug}/<resource>/, with the
tournament's URL names (tournament-staff, tournament-registrations, ...): each is registered
under the prefix and basename "tournament", on a router of its own (a router takes a basename
once).
"""

from django.urls import URLPattern, URLResolver
from rest_framework.routers import SimpleRouter

from .views import (
    PenaltyViewSet,
    RegistrationViewSet,
    SeatingPlanViewSet,
    SessionViewSet,
    TableViewSet,
    TournamentExportsViewSet,
    TournamentPenaltiesViewSet,
    TournamentRegistrationsViewSet,
    TournamentSeatingPlansViewSet,
    TournamentSessionsViewSet,
    TournamentStaffViewSet,
    TournamentTeamsViewSet,
    TournamentViewSet,
)
from .views.cuts import TournamentCutsViewSet
from .views.online import TableOnlineLogViewSet
from .views.referee_calls import (
    RefereeCallViewSet,
    TableRefereeCallsViewSet,
    TournamentRefereeCallsViewSet,
)
from .views.signups import SignUpViewSet, TournamentSignUpsViewSet
from .views.substitutes import GameSubstitutesViewSet

TOURNAMENT_RESOURCES = (
    TournamentViewSet,
    TournamentStaffViewSet,
    TournamentRegistrationsViewSet,
    TournamentSessionsViewSet,
    TournamentSeatingPlansViewSet,
    TournamentPenaltiesViewSet,
    TournamentExportsViewSet,
    TournamentSignUpsViewSet,
    TournamentRefereeCallsViewSet,
    TournamentTeamsViewSet,
    TournamentCutsViewSet,
)

urlpatterns: list[URLPattern | URLResolver] = []
for viewset in TOURNAMENT_RESOURCES:
    resource = SimpleRouter()
    resource.register("tournaments", viewset, basename="tournament")
    urlpatterns += resource.urls

router = SimpleRouter()
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("sessions", SessionViewSet, basename="session")
router.register("tables", TableViewSet, basename="table")
router.register("seating-plans", SeatingPlanViewSet, basename="seating-plan")
router.register("penalties", PenaltyViewSet, basename="penalty")
router.register("sign-ups", SignUpViewSet, basename="sign-up")
urlpatterns += router.urls
# A tournament game's substitutes, on the game's URL (/games/{id}/substitutes/, game-substitutes).
substitutes = SimpleRouter()
substitutes.register("games", GameSubstitutesViewSet, basename="game")
urlpatterns += substitutes.urls

# A table's referee calls (issue 35.2): under /tables/{id}/, a router of its own (basename
# "table" is the TableViewSet's too).
table_calls = SimpleRouter()
table_calls.register("tables", TableRefereeCallsViewSet, basename="table")
urlpatterns += table_calls.urls
# A table's online log (issue 32.5): under /tables/{id}/ too.
table_logs = SimpleRouter()
table_logs.register("tables", TableOnlineLogViewSet, basename="table")
urlpatterns += table_logs.urls
calls = SimpleRouter()
calls.register("referee-calls", RefereeCallViewSet, basename="referee-call")
urlpatterns += calls.urls
