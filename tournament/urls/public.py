"""Public pages: read-only, no login, short URLs for QR codes and projectors (mounted at /e/)."""

from django.urls import path

from tournament.views import crosstable, public, venue

app_name = "public"
urlpatterns = [
    path("<eventslug:slug>/", venue.home, name="home"),
    path("<eventslug:slug>/pairings/", venue.pairings, name="pairings"),
    path("<eventslug:slug>/standings/", public.standings_page, name="standings"),
    path("<eventslug:slug>/crosstable/", crosstable.public_crosstable, name="crosstable"),
    path("<eventslug:slug>/players/<int:pk>/", public.player, name="player"),
    path("<eventslug:slug>/screen/", venue.screen, name="screen"),
    path("<eventslug:slug>/screen/panel/", venue.screen_panel, name="screen_panel"),
    path("<eventslug:slug>/bracket/", public.bracket, name="bracket"),
]
