"""The root URLconf: sign-in and the language switcher, the admin, then the player's, public and organiser pages
(one module each beside this one)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter

from tournament.text.slugs import SlugConverter
from tournament.views import account

register_converter(SlugConverter, "eventslug")  # an event's slug, in any script (tournament/text/slugs.py)

urlpatterns = [
    path("login/", account.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/<str:code>/", account.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("e/", include("tournament.urls.player")),
    path("e/", include("tournament.urls.public")),
    path("", include("tournament.urls.organiser")),
]
