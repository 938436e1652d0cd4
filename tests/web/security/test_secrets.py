"""A player's secret never reaches a log or a cache.

The filter every log of the app goes through: tests/web/deploy/test_deploy.py runs the real gunicorn and nginx and
reads what they wrote; here are the cases a running server does not easily produce (a traceback,
runserver's request lines). And the pages that show personal links are never kept by a browser's cache."""

import io
import logging

import pytest
from django.conf import settings
from django.urls import reverse

from tournament.infra.logs import RedactSecrets, redact

SECRET = "Zq3-_x9AbCdEfGhIjKlMnOpQrStU"


def test_the_secret_goes_and_everything_else_stays():
    assert redact(f"GET /e/spring/me/12/{SECRET}/ HTTP/1.1") == "GET /e/spring/me/12/[redacted]/ HTTP/1.1"
    assert redact(f"/e/spring/me/12/{SECRET}") == "/e/spring/me/12/[redacted]"  # before APPEND_SLASH
    assert redact(f'"https://venue/e/s/me/3/{SECRET}/?from=qr#x"') == '"https://venue/e/s/me/3/[redacted]/?from=qr#x"'
    for kept in ("/e/spring/me/", "/e/spring/me/code/", "/e/spring/t/3/14/", "/events/spring/players/12/card/"):
        assert redact(f"GET {kept} HTTP/1.1") == f"GET {kept} HTTP/1.1"


def configured_stream(name: str) -> tuple[logging.Logger, io.StringIO]:
    """A logger of `name` writing through a handler with the filters settings.LOGGING gives the console."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets())
    logger = logging.getLogger(f"test_logs.{name}")
    logger.handlers, logger.propagate = [handler], False
    return logger, stream


def test_a_traceback_and_the_message_arguments_are_redacted():
    logger, stream = configured_stream("traceback")
    try:
        raise ValueError(f"cannot open /e/s/me/4/{SECRET}/")
    except ValueError:
        logger.exception("Internal Server Error: %s", f"/e/s/me/4/{SECRET}/")
    written = stream.getvalue()
    assert SECRET not in written, written
    assert "Internal Server Error: /e/s/me/4/[redacted]/" in written
    assert "ValueError: cannot open /e/s/me/4/[redacted]/" in written


def test_every_handler_of_the_settings_redacts():
    """Django's console (root: django.request, django.security) and runserver's request lines."""
    handlers = settings.LOGGING["handlers"]
    assert all("secrets" in h.get("filters", ()) for h in handlers.values()), handlers
    assert settings.LOGGING["filters"]["secrets"]["()"] == "tournament.infra.logs.RedactSecrets"
    assert settings.LOGGING["loggers"]["django.server"]["handlers"] == ["django.server"]
    stream = io.StringIO()
    server = logging.getLogger("django.server")
    (handler,) = [h for h in server.handlers if any(isinstance(f, RedactSecrets) for f in h.filters)]
    was = handler.setStream(stream)
    try:
        server.info('"%s" %s %s', f"GET /e/s/me/4/{SECRET}/ HTTP/1.1", 302, 0, extra={"status_code": 302})
    finally:
        handler.setStream(was)
    assert "/e/s/me/4/[redacted]/" in stream.getvalue() and SECRET not in stream.getvalue()


@pytest.mark.django_db
def test_pages_showing_personal_links_are_not_kept_in_caches(client, organiser, event):
    """The player's card and the printed cards hold links: a shared laptop's cache or back button keeps none."""
    client.force_login(organiser)
    player = event.players.first()
    for path in (
        reverse("org_player_card", args=[event.slug, player.pk]),
        reverse("org_print_cards", args=[event.slug]),
    ):
        response = client.get(path)
        assert response.status_code == 200 and player.card_code in response.content.decode()  # and the QR of the link
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"], path
