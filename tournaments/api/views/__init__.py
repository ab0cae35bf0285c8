"""The tournament API's view sets, one module per resource: the tournament itself, its staff,
registrations, sessions (and tables), seating plans, penalties and exports (standings, EMA file,
ranking preview, backup). `common` holds what they share."""

from .exports import TournamentExportsViewSet
from .penalties import PenaltyViewSet, TournamentPenaltiesViewSet
from .registrations import RegistrationViewSet, TournamentRegistrationsViewSet
from .seating import SeatingPlanViewSet, TournamentSeatingPlansViewSet
from .sessions import SessionViewSet, TableViewSet, TournamentSessionsViewSet
from .staff import TournamentStaffViewSet
from .teams import TournamentTeamsViewSet
from .tournaments import TournamentViewSet

__all__ = [
    "PenaltyViewSet",
    "RegistrationViewSet",
    "SeatingPlanViewSet",
    "SessionViewSet",
    "TableViewSet",
    "TournamentExportsViewSet",
    "TournamentPenaltiesViewSet",
    "TournamentRegistrationsViewSet",
    "TournamentSeatingPlansViewSet",
    "TournamentSessionsViewSet",
    "TournamentStaffViewSet",
    "TournamentTeamsViewSet",
    "TournamentViewSet",
]
