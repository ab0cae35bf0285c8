"""Web pages of tournaments: public pages, the organiser console and PDFs."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import console, hall, pdfs, public, results

app_name = "tournaments"
urlpatterns: list[URLPattern | URLResolver] = [
    path("", public.tournament_list, name="list"),
    path("new/", console.tournament_create, name="create"),
    path("<slug:slug>/", public.tournament_detail, name="detail"),
    path("<slug:slug>/standings/", public.standings, name="standings"),
    path(
        "<slug:slug>/standings/projector/",
        hall.projector_standings,
        name="projector_standings",
    ),
    path("<slug:slug>/clock/", hall.hall_clock, name="clock"),
    path("<slug:slug>/players/<int:player_id>/", public.player_page, name="player"),
    path("<slug:slug>/seating/", public.seating, name="seating"),
    path("<slug:slug>/seating/<int:number>/", public.seating, name="seating_session"),
    path("<slug:slug>/standings.csv", results.standings_download, name="standings_csv"),
    path("<slug:slug>/results/", results.results, name="results"),
    path("<slug:slug>/results.pdf", pdfs.results_pdf, name="results_pdf"),
    # organiser console
    path("<slug:slug>/console/", console.console, name="console"),
    path("<slug:slug>/console/status/", console.tournament_set_status, name="set_status"),
    path(
        "<slug:slug>/console/standings-settings/",
        console.standings_settings,
        name="standings_settings",
    ),
    path("<slug:slug>/console/publish/", console.tournament_publish, name="publish"),
    path("<slug:slug>/console/registrations/", console.registrations, name="registrations"),
    path(
        "<slug:slug>/console/registrations/<int:registration_id>/",
        console.registration_edit,
        name="registration_edit",
    ),
    path(
        "<slug:slug>/console/registrations/<int:registration_id>/drop/",
        console.registration_drop,
        name="drop",
    ),
    path("<slug:slug>/console/staff/", console.staff, name="staff"),
    path(
        "<slug:slug>/console/staff/<int:staff_id>/remove/",
        console.staff_remove,
        name="staff_remove",
    ),
    path("<slug:slug>/console/seating/", console.seating_console, name="seating_console"),
    path("<slug:slug>/console/seating/swap/", console.seating_swap, name="seating_swap"),
    path("<slug:slug>/console/seating/upload/", console.seating_upload, name="seating_upload"),
    path("<slug:slug>/console/seating/<int:plan_id>/", console.seating_plan, name="seating_plan"),
    path("<slug:slug>/console/sessions/<int:number>/", console.session_console, name="session"),
    path(
        "<slug:slug>/console/sessions/<int:number>/clock/",
        console.session_clock_action,
        name="session_clock",
    ),
    path(
        "<slug:slug>/console/sessions/<int:number>/<str:action>/",
        console.session_action,
        name="session_action",
    ),
    path(
        "<slug:slug>/console/sessions/<int:number>/pdf/<str:document>.pdf",
        pdfs.session_pdf,
        name="session_pdf",
    ),
    path("<slug:slug>/console/penalties/", console.penalties, name="penalties"),
    path("<slug:slug>/console/penalties/table/", console.penalty_table, name="penalty_table"),
    path(
        "<slug:slug>/console/penalties/<int:penalty_id>/cancel/",
        console.penalty_cancel,
        name="penalty_cancel",
    ),
    path("<slug:slug>/console/results/", results.exports, name="exports"),
    path("<slug:slug>/console/results/ema.<str:fmt>", results.ema_download, name="ema_download"),
    path("<slug:slug>/console/results/backup.json", results.backup_download, name="backup"),
    path("<slug:slug>/console/results/import/", results.import_records, name="import_records"),
]
