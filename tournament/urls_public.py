"""Public pages: read-only, no login, short URLs for QR codes and projectors (mounted at /e/)."""

from django.urls import path

from tournament import views_public as views

app_name = "public"
urlpatterns = [
    path("<slug:slug>/", views.home, name="home"),
    path("<slug:slug>/pairings/", views.pairings, name="pairings"),
    path("<slug:slug>/standings/", views.standings_page, name="standings"),
    path("<slug:slug>/players/<int:pk>/", views.player, name="player"),
    path("<slug:slug>/screen/", views.screen, name="screen"),
    path("<slug:slug>/bracket/", views.bracket, name="bracket"),
]
