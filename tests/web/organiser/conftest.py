"""Fixtures the organiser pages' tests share."""

import pytest
from django.test import Client


@pytest.fixture
def org(organiser) -> Client:
    """A browser signed in as the event's organiser (a client of its own, apart from pytest-django's `client`)."""
    c = Client()
    c.force_login(organiser)
    return c
