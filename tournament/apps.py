from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournament.infra import checks  # noqa: F401 - registers the deployment checks
