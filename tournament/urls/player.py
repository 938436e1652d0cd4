"""The player's own pages (mounted at /e/ beside the public pages): their link, code, page and reports."""

from django.urls import path

from tournament.views import player, why_not

app_name = "player"
urlpatterns = [
    path("<eventslug:slug>/me/", player.me, name="me"),
    path("<eventslug:slug>/me/code/", player.code, name="code"),
    path("<eventslug:slug>/me/forget/", player.forget, name="forget"),
    path("<eventslug:slug>/me/report/", player.report, name="report"),
    path("<eventslug:slug>/me/drop/", player.drop, name="drop"),
    path("<eventslug:slug>/me/bye/", player.bye, name="bye"),
    path("<eventslug:slug>/me/why-not/", why_not.player_why_not, name="why_not"),
    path("<eventslug:slug>/me/<int:pk>/<str:token>/", player.link, name="link"),
    path("<eventslug:slug>/t/<int:number>/<int:table>/", player.table, name="table"),
]
