from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import i18n

urlpatterns = [
    path("login/", i18n.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/<str:code>/", i18n.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("e/", include("tournament.urls_player")),
    path("e/", include("tournament.urls_public")),
    path("", include("tournament.urls_organiser")),
]
