"""Deployment checks of our own settings (`manage.py check --deploy`)."""

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def site_url_is_set(app_configs, **kwargs):
    if settings.SITE_URL:
        return []
    return [
        checks.Warning(
            "SITE_URL is not set: QR codes and cached public pages follow each request's Host header.",
            hint="Set SITE_URL to the address players use, e.g. https://swiss.example.org.",
            id="tournament.W001",
        )
    ]
