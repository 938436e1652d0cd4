"""Public pages: read-only, no login, short URLs for QR codes and projectors (mounted at /e/)."""

from django.urls import path

from tournament.views import crosstable, public

app_name = "public"
urlpatterns = [
    path("<slug:slug>/", public.home, name="home"),
    path("<slug:slug>/pairings/", public.pairings, name="pairings"),
    path("<slug:slug>/standings/", public.standings_page, name="standings"),
    path("<slug:slug>/crosstable/", crosstable.public_crosstable, name="crosstable"),
    path("<slug:slug>/players/<int:pk>/", public.player, name="player"),
    path("<slug:slug>/screen/", public.screen, name="screen"),
    path("<slug:slug>/bracket/", public.bracket, name="bracket"),
]
