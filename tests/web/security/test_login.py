"""Login: works, and repeated failures lock the account from that address (django-axes)."""

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_login_with_the_right_password(client, organiser):
    response = client.post("/login/", {"username": "olga", "password": "organiser-pass-1"})
    assert response.status_code == 302
    assert client.session.get("_auth_user_id") == str(organiser.pk)


def test_repeated_failures_are_throttled_even_with_the_right_password(client, organiser):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/login/", {"username": "olga", "password": "nope"})
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    assert client.post("/login/", {"username": "olga", "password": "nope"}).status_code == 429
    response = client.post("/login/", {"username": "olga", "password": "organiser-pass-1"})
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_is_per_account_and_address(client, organiser, judge):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": "olga", "password": "nope"})
    # Another account from the same address still gets in; so does olga from another address.
    assert client.post("/login/", {"username": "jules", "password": "judge-pass-1"}).status_code == 302
    client.logout()
    other = client.post("/login/", {"username": "olga", "password": "organiser-pass-1"}, REMOTE_ADDR="10.9.8.7")
    assert other.status_code == 302
