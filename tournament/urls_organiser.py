"""Organiser and judge pages: login and a role in the event required."""

from django.urls import path

from tournament import views, views_players, views_reports, views_results, views_staff, views_top_cut, views_trf

E = "events/<slug:slug>/"
R = E + "rounds/<int:number>/"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("events/new/", views.event_new, name="org_event_new"),
    path("events/new/trf/", views_trf.import_trf, name="org_event_import_trf"),
    path(E, views.event_home, name="org_event"),
    path(E + "settings/", views.event_settings, name="org_settings"),
    path(E + "staff/", views_staff.staff_add, name="org_staff_add"),
    path(E + "staff/<int:role_id>/remove/", views_staff.staff_remove, name="org_staff_remove"),
    path(E + "staff/invites/<int:invite_id>/withdraw/", views_staff.invite_withdraw, name="org_invite_withdraw"),
    path(E + "players/", views.players, name="org_players"),
    path(E + "players/add/", views.player_add, name="org_player_add"),
    path(E + "players/paste/", views.players_paste, name="org_players_paste"),
    path(E + "players/csv/", views.players_csv, name="org_players_csv"),
    path(E + "players/csv/confirm/", views.players_csv_confirm, name="org_players_csv_confirm"),
    path(E + "players/<int:player_id>/", views.player_edit, name="org_player_edit"),
    path(E + "players/<int:player_id>/drop/", views.player_drop, name="org_player_drop"),
    path(E + "players/<int:player_id>/undrop/", views.player_undrop, name="org_player_undrop"),
    path(E + "players/<int:player_id>/delete/", views_players.player_delete, name="org_player_delete"),
    path(E + "players/<int:player_id>/card/", views_reports.player_card, name="org_player_card"),
    path(E + "players/<int:player_id>/reissue/", views_reports.player_reissue, name="org_player_reissue"),
    path(E + "print/cards/", views_reports.print_cards, name="org_print_cards"),
    path(E + "reporting/", views_reports.reporting_mode, name="org_reporting"),
    path(R + "reporting/", views_reports.round_reporting, name="org_round_reporting"),
    path(E + "rounds/pair/", views.round_pair, name="org_round_pair"),
    path(R, views.round_page, name="org_round"),
    path(R + "publish/", views.round_publish, name="org_round_publish"),
    path(R + "repair/", views.round_repair, name="org_round_repair"),
    path(R + "swap/", views.round_swap, name="org_round_swap"),
    path(R + "clock/", views.round_clock, name="org_round_clock"),
    path(R + "result/", views_results.table_result, name="org_table_result"),
    path(R + "matches/<int:match_id>/", views_results.match_page, name="org_match"),
    path(R + "matches/<int:match_id>/result/", views_results.match_result, name="org_match_result"),
    path(E + "top-cut/", views_top_cut.top_cut, name="org_top_cut"),
    path(E + "top-cut/start/", views_top_cut.top_cut_start, name="org_top_cut_start"),
    path(E + "top-cut/publish/", views_top_cut.top_cut_publish, name="org_top_cut_publish"),
    path(E + "top-cut/undo/", views_top_cut.top_cut_undo, name="org_top_cut_undo"),
    path(E + "standings/", views.standings_page, name="org_standings"),
    path(R + "print/by-name/", views.print_round, {"kind": "by-name"}, name="org_print_by_name"),
    path(R + "print/by-table/", views.print_round, {"kind": "by-table"}, name="org_print_by_table"),
    path(R + "print/slips/", views.print_round, {"kind": "slips"}, name="org_print_slips"),
    path(E + "print/standings/", views.print_standings, name="org_print_standings"),
    path(E + "export/event.json", views.export_json, name="org_export_json"),
    path(E + "export/event.trf", views_trf.export_trf, name="org_export_trf"),
    path(E + "export/players.csv", views.export_csv, {"what": "players"}, name="org_export_players"),
    path(E + "export/pairings.csv", views.export_csv, {"what": "pairings"}, name="org_export_pairings"),
    path(E + "export/standings.csv", views.export_csv, {"what": "standings"}, name="org_export_standings"),
]
