"""Web pages of tournaments: public pages, the organiser console and PDFs."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import (
    hall,
    my_seat,
    pdfs,
    public,
    referee_calls,
    results,
    signups,
    teams,
)
from tournaments.views.console import (
    cuts,
    overview,
    penalties,
    registrations,
    seating,
    sessions,
    staff,
)

app_name = "tournaments"
urlpatterns: list[URLPattern | URLResolver] = [
    path("", public.tournament_list, name="list"),
    path("new/", overview.tournament_create, name="create"),
    # Referee calls (issue 35.2): not under a slug, the table and the call say whose they are.
    path(
        "tables/<int:table_id>/call-referee/",
        referee_calls.call_referee,
        name="call_referee",
    ),
    path("referee-calls/", referee_calls.open_calls, name="referee_calls"),
    path(
        "referee-calls/<int:call_id>/<str:action>/",
        referee_calls.call_action,
        name="referee_call_action",
    ),
    path("<slug:slug>/", public.tournament_detail, name="detail"),
    path("<slug:slug>/standings/", public.standings, name="standings"),
    path("<slug:slug>/awards/", public.awards, name="awards"),
    path("<slug:slug>/register/", signups.register, name="register"),
    path("<slug:slug>/register/<str:token>/", signups.sign_up_status, name="sign_up_status"),
    path("<slug:slug>/register/<str:token>/data.json", signups.sign_up_data, name="sign_up_data"),
    path(
        "<slug:slug>/standings/projector/",
        hall.projector_standings,
        name="projector_standings",
    ),
    # Team events (issue 32.1): the Teams tab of the standings, its projector and CSV, a team.
    path("<slug:slug>/standings/teams/", teams.team_standings_page, name="team_standings"),
    path(
        "<slug:slug>/standings/teams/projector/",
        teams.projector_team_standings,
        name="projector_team_standings",
    ),
    path(
        "<slug:slug>/team-standings.csv", teams.team_standings_download, name="team_standings_csv"
    ),
    path("<slug:slug>/teams/<str:team>/", teams.team_page, name="team"),
    path("<slug:slug>/clock/", hall.hall_clock, name="clock"),
    path("<slug:slug>/players/<int:player_id>/", public.player_page, name="player"),
    path("<slug:slug>/seating/", public.seating, name="seating"),
    path("<slug:slug>/me/<str:token>/", my_seat.my_seat_page, name="my_seat"),
    path("<slug:slug>/seating/<int:number>/", public.seating, name="seating_session"),
    path("<slug:slug>/standings.csv", results.standings_download, name="standings_csv"),
    path("<slug:slug>/results/", results.results, name="results"),
    path("<slug:slug>/results.pdf", pdfs.results_pdf, name="results_pdf"),
    # organiser console
    path("<slug:slug>/console/", overview.console, name="console"),
    path("<slug:slug>/console/status/", overview.tournament_set_status, name="set_status"),
    path(
        "<slug:slug>/console/standings-settings/",
        overview.standings_settings,
        name="standings_settings",
    ),
    path("<slug:slug>/console/time-zone/", overview.time_zone_settings, name="time_zone_settings"),
    path("<slug:slug>/console/publish/", overview.tournament_publish, name="publish"),
    path("<slug:slug>/console/registrations/", registrations.registrations, name="registrations"),
    path(
        "<slug:slug>/console/registrations/<int:registration_id>/",
        registrations.registration_edit,
        name="registration_edit",
    ),
    path(
        "<slug:slug>/console/registrations/<int:registration_id>/drop/",
        registrations.registration_drop,
        name="drop",
    ),
    path(
        "<slug:slug>/console/registrations/<int:registration_id>/erase/",
        registrations.registration_erase,
        name="erase",
    ),
    path("<slug:slug>/console/sign-ups/", signups.sign_ups_page, name="sign_ups"),
    path("<slug:slug>/console/staff/", staff.staff, name="staff"),
    path(
        "<slug:slug>/console/staff/<int:staff_id>/remove/",
        staff.staff_remove,
        name="staff_remove",
    ),
    path("<slug:slug>/console/seating/", seating.seating_console, name="seating_console"),
    path("<slug:slug>/console/seating/swap/", seating.seating_swap, name="seating_swap"),
    path("<slug:slug>/console/seating/upload/", seating.seating_upload, name="seating_upload"),
    path("<slug:slug>/console/seating/<int:plan_id>/", seating.seating_plan, name="seating_plan"),
    path("<slug:slug>/console/sessions/<int:number>/", sessions.session_console, name="session"),
    path(
        "<slug:slug>/console/sessions/<int:number>/tables/<int:table>/online-log/",
        sessions.table_online_log,
        name="table_online_log",
    ),
    path(
        "<slug:slug>/console/sessions/<int:number>/clock/",
        sessions.session_clock_action,
        name="session_clock",
    ),
    path(
        "<slug:slug>/console/sessions/<int:number>/<str:action>/",
        sessions.session_action,
        name="session_action",
    ),
    path(
        "<slug:slug>/console/sessions/<int:number>/pdf/<str:document>.pdf",
        pdfs.session_pdf,
        name="session_pdf",
    ),
    path("<slug:slug>/console/penalties/", penalties.penalties, name="penalties"),
    path("<slug:slug>/console/cuts/", cuts.cuts, name="cuts"),
    path("<slug:slug>/console/cuts/<int:cut_id>/undo/", cuts.undo_cut, name="cut_undo"),
    path("<slug:slug>/console/cuts/<int:cut_id>/promote/", cuts.promote_at_cut, name="cut_promote"),
    path("<slug:slug>/console/penalties/table/", penalties.penalty_table, name="penalty_table"),
    path(
        "<slug:slug>/console/penalties/<int:penalty_id>/cancel/",
        penalties.penalty_cancel,
        name="penalty_cancel",
    ),
    path("<slug:slug>/console/results/", results.exports, name="exports"),
    path("<slug:slug>/console/results/ema.<str:fmt>", results.ema_download, name="ema_download"),
    path("<slug:slug>/console/results/backup.json", results.backup_download, name="backup"),
    path("<slug:slug>/console/results/import/", results.import_records, name="import_records"),
]
