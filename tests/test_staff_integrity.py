"""Invitations to an event's staff: taken once however many first requests arrive together (issue 21, item 5),
and never by a look-alike username (item 7)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_concurrency import at_once
from tournament import services
from tournament.models import EventLog, EventRole, StaffInvite


@pytest.mark.django_db(transaction=True)
def test_an_invited_judges_first_requests_at_once_all_open_the_event(event, organiser, django_user_model):
    """A phone opens the event page, its CSS, its polls: twenty requests at once, one takes the invitation,
    none may answer 404 (the others waited for it)."""
    nadia = django_user_model.objects.create_user("nadia", password="judge-pass-2")
    services.invite_staff(event, "nadia", EventRole.Role.JUDGE, organiser)
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
