"""The player's own pages (mounted at /e/ beside the public pages): their link, code, page and reports."""

from django.urls import path

from tournament import views_player as views

app_name = "player"
urlpatterns = [
    path("<slug:slug>/me/", views.me, name="me"),
    path("<slug:slug>/me/code/", views.code, name="code"),
    path("<slug:slug>/me/forget/", views.forget, name="forget"),
    path("<slug:slug>/me/report/", views.report, name="report"),
    path("<slug:slug>/me/drop/", views.drop, name="drop"),
    path("<slug:slug>/me/<int:pk>/<str:token>/", views.link, name="link"),
    path("<slug:slug>/t/<int:number>/<int:table>/", views.table, name="table"),
]
