"""Organiser and judge pages: login and a role in the event required."""

from django.urls import path

from tournament.views import crosstable, organiser, players, printing, reports, results, rounds, staff, top_cut, trf

E = "events/<eventslug:slug>/"
R = E + "rounds/<int:number>/"

urlpatterns = [
    path("", organiser.event_list, name="event_list"),
    path("events/new/", organiser.event_new, name="org_event_new"),
    path("events/new/trf/", trf.import_trf, name="org_event_import_trf"),
    path(E, organiser.event_home, name="org_event"),
    path(E + "settings/", organiser.event_settings, name="org_settings"),
    path(E + "staff/", staff.staff_add, name="org_staff_add"),
    path(E + "staff/<int:role_id>/remove/", staff.staff_remove, name="org_staff_remove"),
    path(E + "staff/invites/<int:invite_id>/withdraw/", staff.invite_withdraw, name="org_invite_withdraw"),
    path(E + "players/", players.players, name="org_players"),
    path(E + "players/add/", players.player_add, name="org_player_add"),
    path(E + "players/paste/", players.players_paste, name="org_players_paste"),
    path(E + "players/csv/", players.players_csv, name="org_players_csv"),
    path(E + "players/csv/confirm/", players.players_csv_confirm, name="org_players_csv_confirm"),
    path(E + "players/<int:player_id>/", players.player_edit, name="org_player_edit"),
    path(E + "players/<int:player_id>/drop/", players.player_drop, name="org_player_drop"),
    path(E + "players/<int:player_id>/bye/", players.player_bye, name="org_player_bye"),
    path(E + "players/<int:player_id>/undrop/", players.player_undrop, name="org_player_undrop"),
    path(E + "players/<int:player_id>/delete/", players.player_delete, name="org_player_delete"),
    path(E + "players/<int:player_id>/card/", reports.player_card, name="org_player_card"),
    path(E + "players/<int:player_id>/reissue/", reports.player_reissue, name="org_player_reissue"),
    path(E + "print/cards/", reports.print_cards, name="org_print_cards"),
    path(E + "reporting/", reports.reporting_mode, name="org_reporting"),
    path(R + "reporting/", reports.round_reporting, name="org_round_reporting"),
    path(E + "rounds/pair/", rounds.round_pair, name="org_round_pair"),
    path(E + "job/", rounds.job_status, name="org_job"),
    path(R, rounds.round_page, name="org_round"),
    path(R + "publish/", rounds.round_publish, name="org_round_publish"),
    path(R + "repair/", rounds.round_repair, name="org_round_repair"),
    path(R + "swap/", rounds.round_swap, name="org_round_swap"),
    path(R + "clock/", rounds.round_clock, name="org_round_clock"),
    path(R + "result/", results.table_result, name="org_table_result"),
    path(R + "matches/<int:match_id>/", results.match_page, name="org_match"),
    path(R + "matches/<int:match_id>/result/", results.match_result, name="org_match_result"),
    path(E + "top-cut/", top_cut.top_cut, name="org_top_cut"),
    path(E + "top-cut/start/", top_cut.top_cut_start, name="org_top_cut_start"),
    path(E + "top-cut/publish/", top_cut.top_cut_publish, name="org_top_cut_publish"),
    path(E + "top-cut/undo/", top_cut.top_cut_undo, name="org_top_cut_undo"),
    path(E + "standings/", organiser.standings_page, name="org_standings"),
    path(R + "print/by-name/", printing.print_round, {"kind": "by-name"}, name="org_print_by_name"),
    path(R + "print/by-table/", printing.print_round, {"kind": "by-table"}, name="org_print_by_table"),
    path(R + "print/slips/", printing.print_round, {"kind": "slips"}, name="org_print_slips"),
    path(E + "print/standings/", printing.print_standings, name="org_print_standings"),
    path(E + "print/crosstable/", crosstable.print_crosstable, name="org_print_crosstable"),
    path(E + "export/event.json", printing.export_json, name="org_export_json"),
    path(E + "export/event.trf", trf.export_trf, name="org_export_trf"),
    path(E + "export/players.csv", printing.export_csv, {"what": "players"}, name="org_export_players"),
    path(E + "export/pairings.csv", printing.export_csv, {"what": "pairings"}, name="org_export_pairings"),
    path(E + "export/standings.csv", printing.export_csv, {"what": "standings"}, name="org_export_standings"),
]
