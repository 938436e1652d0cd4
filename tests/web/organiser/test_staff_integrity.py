"""Invitations to an event's staff: taken once however many first requests arrive together,
and never by a look-alike username."""

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.web.organiser.test_concurrency import at_once
from tournament.models import EventLog, EventRole, StaffInvite
from tournament.services.staff import invite_staff
from tournament.text.lookalikes import username_key


@pytest.mark.django_db(transaction=True)
def test_an_invited_judges_first_requests_at_once_all_open_the_event(event, organiser, django_user_model):
    """A phone opens the event page, its CSS, its polls: twenty requests at once, one takes the invitation,
    none may answer 404 (the others waited for it)."""
    nadia = django_user_model.objects.create_user("nadia", password="judge-pass-2")
    invite_staff(event, "nadia", EventRole.Role.JUDGE, organiser)
    clients = []
    for _ in range(20):
        c = Client()
        c.force_login(nadia)
        clients.append(c)
    url = reverse("org_event", args=[event.slug])
    responses = at_once(*(lambda c=c: c.get(url) for c in clients))
    assert [getattr(r, "status_code", r) for r in responses] == [200] * 20
    assert EventRole.objects.filter(event=event, user=nadia).values_list("role", flat=True).get() == "judge"
    assert not StaffInvite.objects.exists()
    assert EventLog.objects.filter(event=event, action="staff_join").count() == 1


# ---------------------------------------------------------------- look-alike usernames


@pytest.mark.parametrize("name", ["ilse", "ILSE", "ılse", "Іlse", "ｉｌｓｅ", "iIse", "i1se"])
def test_look_alike_usernames_share_one_key(name):
    assert username_key(name) == username_key("ilse")


@pytest.mark.parametrize("name", ["else", "ilsa", "ilsee", "elsa"])
def test_different_usernames_keep_different_keys(name):
    assert username_key(name) != username_key("ilse")


@pytest.mark.django_db
def test_an_invitation_is_never_taken_by_a_look_alike_account(event, organiser, django_user_model):
    """An account that only looks like the invited name (made before accounts were checked) signs in first:
    the invitation stays for the person it was written to. (PostgreSQL's upper() reads "ılse" as "ILSE".)"""
    impostor, invited = "ılse", "ilse"
    invite_staff(event, invited, EventRole.Role.JUDGE, organiser)
    fake = django_user_model.objects.create_user(impostor, password="impostor-pass-1")
    c = Client()
    c.force_login(fake)
    assert c.get(reverse("org_event", args=[event.slug])).status_code == 404
    assert c.get(reverse("event_list")).status_code == 200
    assert not EventRole.objects.filter(user=fake).exists() and StaffInvite.objects.filter(event=event).exists()
    real = django_user_model.objects.create_user(invited.upper(), password="real-pass-1")
    c.force_login(real)
    assert c.get(reverse("org_event", args=[event.slug])).status_code == 200
    assert EventRole.objects.filter(user=real, event=event).exists()


@pytest.mark.django_db
def test_inviting_a_look_alike_of_a_staff_member_changes_their_role(event, organiser, judge):
    """ "jules" is the judge; an invitation typed "JULES" or "juIes" is about the same person, not a second one."""
    invite_staff(event, "juIes", EventRole.Role.ORGANISER, organiser)
    assert EventRole.objects.get(event=event, user=judge).role == EventRole.Role.ORGANISER
    assert not StaffInvite.objects.exists()
    invite_staff(event, "nadia", EventRole.Role.JUDGE, organiser)
    invite_staff(event, "nadіa", EventRole.Role.ORGANISER, organiser)  # a Cyrillic і: renewed, not added
    assert StaffInvite.objects.get().role == EventRole.Role.ORGANISER


@pytest.mark.django_db
def test_createsuperuser_refuses_a_look_alike_username(django_user_model, monkeypatch):
    django_user_model.objects.create_user("ilse", password="real-pass-1")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-password-1")
    with pytest.raises(CommandError, match="looks like one that is already taken"):
        call_command("createsuperuser", "--noinput", "--username", "ılse", "--email", "x@example.com")
    call_command("createsuperuser", "--noinput", "--username", "nadia", "--email", "n@example.com")
    assert sorted(django_user_model.objects.values_list("username", flat=True)) == ["ilse", "nadia"]


@pytest.mark.django_db
def test_the_admin_refuses_a_look_alike_username(django_user_model):
    root = django_user_model.objects.create_superuser("root", password="root-pass-1")
    django_user_model.objects.create_user("ilse", password="real-pass-1")
    c = Client()
    c.force_login(root)
    form = {"username": "Іlse", "password1": "a-long-password-1", "password2": "a-long-password-1"}
    refused = c.post(reverse("admin:auth_user_add"), form)
    assert refused.status_code == 200 and "looks like one that is already taken" in refused.content.decode()
    ilse = django_user_model.objects.get(username="ilse")
    change = c.get(reverse("admin:auth_user_change", args=[ilse.pk]))
    assert change.status_code == 200
    renamed = c.post(reverse("admin:auth_user_add"), {**form, "username": "nadia"})
    assert renamed.status_code == 302
    assert sorted(django_user_model.objects.values_list("username", flat=True)) == ["ilse", "nadia", "root"]
