"""The event's staff: roles are given by username as invitations, so the form never tells whether an
account exists; the event always keeps an organiser (also when two organisers demote each other at once)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.test_concurrency import at_once, logged_in
from tournament.models import EventRole, StaffInvite

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def add(client, event, username: str, role: str = "judge"):
    return client.post(reverse("org_staff_add", args=[event.slug]), {"username": username, "role": role})


def test_the_staff_form_answers_the_same_whether_or_not_the_account_exists(event, organiser, outsider):
    """Reported: "There is no account called …" told anyone who can create an event which usernames exist."""
    exists, missing = add(logged_in(organiser), event, "otto"), add(logged_in(organiser), event, "nobody")
    assert exists.status_code == missing.status_code == 302
    assert [m.replace("otto", "X") for m in said(exists)] == [m.replace("nobody", "X") for m in said(missing)]
    assert not EventRole.objects.filter(event=event, user=outsider).exists()
    page = logged_in(organiser).get(reverse("org_settings", args=[event.slug])).content.decode()
    assert "otto" in page and "nobody" in page and "invited" in page


def test_an_invitation_becomes_a_role_when_that_user_comes(event, organiser, outsider):
    add(logged_in(organiser), event, "OTTO", "judge")
    otto = logged_in(outsider)
    # A direct link to the event works at once …
    assert otto.get(reverse("org_event", args=[event.slug])).status_code == 200
    assert EventRole.objects.get(event=event, user=outsider).role == "judge"
    assert not StaffInvite.objects.exists()
    # … and so does the events list, for an invitation made later.
    other = logged_in(organiser)
    EventRole.objects.filter(event=event, user=outsider).delete()
    add(other, event, "otto", "organiser")
    assert event.name in otto.get(reverse("event_list")).content.decode()
    assert EventRole.objects.get(event=event, user=outsider).role == "organiser"


def test_an_invitation_can_be_withdrawn_and_an_outsider_still_gets_404(event, organiser, outsider):
    client = logged_in(organiser)
    add(client, event, "otto")
    invite = StaffInvite.objects.get()
    assert client.post(reverse("org_invite_withdraw", args=[event.slug, invite.pk])).status_code == 302
    assert logged_in(outsider).get(reverse("org_event", args=[event.slug])).status_code == 404
    assert not EventRole.objects.filter(user=outsider).exists()


def test_staff_already_in_the_event_change_role_at_once(event, organiser, judge):
    r = add(logged_in(organiser), event, "jules", "organiser")
    assert any("now organiser" in m for m in said(r))
    assert EventRole.objects.get(event=event, user=judge).role == "organiser"


def test_the_only_organiser_cannot_demote_themselves(event, organiser):
    """Reported: an organiser could demote themselves and leave the event with no organiser."""
    r = add(logged_in(organiser), event, "olga", "judge")
    assert any("only organiser" in m for m in said(r))
    assert EventRole.objects.get(event=event, user=organiser).role == "organiser"


def test_with_a_second_organiser_one_may_step_down(event, organiser, judge):
    client = logged_in(organiser)
    add(client, event, "jules", "organiser")
    add(client, event, "olga", "judge")
    assert EventRole.objects.get(event=event, user=organiser).role == "judge"
    # The last one left cannot be removed either.
    last = EventRole.objects.get(event=event, user=judge)
    r = logged_in(judge).post(reverse("org_staff_remove", args=[event.slug, last.pk]))
    assert any("yourself" in m for m in said(r))
    assert EventRole.objects.filter(event=event, role="organiser").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_organisers_demoting_each_other_at_once_leave_one(event, organiser, judge):
    EventRole.objects.filter(event=event, user=judge).update(role="organiser")
    for _attempt in range(4):
        EventRole.objects.filter(event=event).update(role="organiser")
        responses = at_once(
            lambda: add(logged_in(organiser), event, "jules", "judge"),
            lambda: add(logged_in(judge), event, "olga", "judge"),
        )
        assert [r.status_code for r in responses] in ([302, 302], [302, 403], [403, 302])
        assert EventRole.objects.filter(event=event, role="organiser").count() == 1
