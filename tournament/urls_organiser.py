"""Organiser and judge pages: login and a role in the event required."""

urlpatterns: list = []
