"""The event's staff: roles are given by username as invitations, so the form never tells whether an
account exists; the event always keeps an organiser (also when two organisers demote each other at once)."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.template.defaultfilters import date
from django.urls import reverse
from django.utils import timezone

from tests.web.organiser.test_concurrency import at_once, logged_in
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


def age(invite: StaffInvite, days: float) -> None:
    StaffInvite.objects.filter(pk=invite.pk).update(at=timezone.now() - timedelta(days=days))


def test_an_invitation_expires_and_is_never_claimed_after(event, organiser, outsider, settings):
    """Invitations never expired: one nobody took was still a role for whoever registered that name months later."""
    settings.STAFF_INVITE_DAYS = 14
    add(logged_in(organiser), event, "otto")
    invite = StaffInvite.objects.get()
    assert invite.expires == invite.at + timedelta(days=14)
    age(invite, 14.01)
    otto = logged_in(outsider)
    assert otto.get(reverse("org_event", args=[event.slug])).status_code == 404
    assert event.name not in otto.get(reverse("event_list")).content.decode()
    assert not EventRole.objects.filter(user=outsider).exists()
    # Kept for the organisers to see, with when it expired and a way to send it again.
    page = logged_in(organiser).get(reverse("org_settings", args=[event.slug])).content.decode()
    assert "invitation expired" in page and "invite again" in page
    assert StaffInvite.objects.filter(pk=invite.pk).exists()


def test_an_invitation_just_inside_its_days_is_claimed(event, organiser, outsider, settings):
    settings.STAFF_INVITE_DAYS = 3
    add(logged_in(organiser), event, "otto", "organiser")
    age(StaffInvite.objects.get(), 2.99)
    assert logged_in(outsider).get(reverse("org_event", args=[event.slug])).status_code == 200
    assert EventRole.objects.get(event=event, user=outsider).role == "organiser"


def test_inviting_again_renews_an_expired_invitation(event, organiser, outsider):
    client = logged_in(organiser)
    add(client, event, "otto")
    invite = StaffInvite.objects.get()
    age(invite, 30)
    page = client.get(reverse("org_settings", args=[event.slug])).content.decode()
    invite.refresh_from_db()
    assert f"Judge, invitation expired {date(invite.expires, 'DATETIME_FORMAT')}" in page
    # The page's "invite again" posts the same username and role.
    add(client, event, "otto", "judge")
    renewed = StaffInvite.objects.get()
    assert renewed.pk == invite.pk and not renewed.expired
    page = client.get(reverse("org_settings", args=[event.slug])).content.decode()
    assert "Judge, invited until" in page and "invitation expired" not in page
    assert logged_in(outsider).get(reverse("org_event", args=[event.slug])).status_code == 200
    assert EventRole.objects.get(event=event, user=outsider).role == "judge"
