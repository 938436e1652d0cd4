"""The player's own pages (mounted at /e/ beside the public pages): their link, code, page and reports."""

from django.urls import path

from tournament.views import player

app_name = "player"
urlpatterns = [
    path("<slug:slug>/me/", player.me, name="me"),
    path("<slug:slug>/me/code/", player.code, name="code"),
    path("<slug:slug>/me/forget/", player.forget, name="forget"),
    path("<slug:slug>/me/report/", player.report, name="report"),
    path("<slug:slug>/me/drop/", player.drop, name="drop"),
    path("<slug:slug>/me/bye/", player.bye, name="bye"),
    path("<slug:slug>/me/<int:pk>/<str:token>/", player.link, name="link"),
    path("<slug:slug>/t/<int:number>/<int:table>/", player.table, name="table"),
]
