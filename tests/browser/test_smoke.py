import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_login_page_says_why_a_login_failed_and_keeps_the_username(live_server, page, organiser, shot):
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("wrong-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    expect(page.get_by_label("Username")).to_have_value("olga")
    shot("login-error")
