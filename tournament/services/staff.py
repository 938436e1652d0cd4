"""Who runs an event: creating it (its creator becomes the organiser), inviting judges and organisers,
removing them, and claiming the invitations waiting for a person when they sign in."""

import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import (
    Event,
    EventRole,
    StaffInvite,
)
from tournament.services.locks import ServiceError, lock_event, log
from tournament.text.i18n import VENUE_ZONES
from tournament.text.lookalikes import username_key
from tournament.text.slugs import slug_text


def insert_with_new_slug(event: Event) -> None:
    """Save this new event under a slug drawn for it: its name and date, and a random suffix.

    Every new event gets one this way, from the web or from a file. A slug derived from the name alone
    would come out as `…-2` when a hidden event of that name exists, telling anyone that it does; two
    creations at once cannot collide on it (and if the suffix ever repeats, another one is drawn).
    """
    base = slug_text(f"{event.name} {event.date}") or "event"
    for attempt in range(5):
        event.slug = f"{base}-{secrets.token_hex(3)}"
        try:
            with transaction.atomic():
                event.save(force_insert=True)
            return
        except IntegrityError:
            if attempt == 4 or not Event.objects.filter(slug=event.slug).exists():
                raise
            event.pk = None


def may_create_events(user) -> bool:
    """EVENT_CREATION "invited" (the default): superusers and accounts given the "Can add event" permission;
    "open": any signed-in account. The same rule for an event and for a section of one."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return settings.EVENT_CREATION == "open" or user.is_superuser or user.has_perm("tournament.add_event")


class MayNotCreate(ServiceError):
    """The account may not create events or sections (any more)."""


def check_may_create(by) -> None:
    """Refuse (`MayNotCreate`) unless `by` may create events now: asked by every path that stores a new event or
    section (the forms, the file imports, the jobs and their "Run again"), as it stores it, so a permission taken
    away after a job was queued is obeyed when the worker gets to it. `by` None is the server's administrator at
    `manage.py` (a job whose account was deleted is refused before it gets here: `jobs.files`)."""
    if by is None:
        return
    now = get_user_model()._default_manager.filter(pk=by.pk).first()  # as the database says now, not as cached
    if not may_create_events(now):
        raise MayNotCreate(
            _(
                "This account may not create events on this site. Ask its administrator to give your account the "
                "permission “Can add event”, or ask an organiser to invite you to their event."
            )
        )


def create_event(event: Event, by) -> Event:
    """Save a new event with `by` as its organiser, under a slug that says nothing about other events
    (`insert_with_new_slug`)."""
    check_may_create(by)
    event.fide_mode = event.chess_results  # FIDE mode: on for every new chess event (docs/fide-mode.md)
    try:
        with transaction.atomic():
            insert_with_new_slug(event)
            EventRole.objects.create(event=event, user=by, role=EventRole.Role.ORGANISER)
    except IntegrityError:
        raise ServiceError(_("The event could not be created just now; try again.")) from None
    return event


def new_event_zone(user, language: str) -> str:
    """The zone a new event starts in: the organiser's latest venue's, else their language's venues' (Japanese:
    Asia/Tokyo, Danish: Europe/Copenhagen), else "" (the server's; the New event page may offer the browser's)."""
    return last_time_zone(user) or VENUE_ZONES.get(language[:2], "")


def last_time_zone(user) -> str:
    """The venue zone of the organiser's latest event that has one ("" when none does: the server's)."""
    latest = (
        Event.objects.filter(roles__user=user, roles__role=EventRole.Role.ORGANISER)
        .exclude(time_zone="")
        .order_by("-date", "-pk")
        .values_list("time_zone", flat=True)
        .first()
    )
    return latest or ""


# ---------------------------------------------------------------- staff


ORGANISER = EventRole.Role.ORGANISER


def _keeps_an_organiser(event: Event, role: EventRole, new_role: str | None) -> None:
    """Refuse a change that would leave the event without an organiser (the caller holds the event lock)."""
    if role.role != ORGANISER or new_role == ORGANISER:
        return
    if not event.roles.filter(role=ORGANISER).exclude(pk=role.pk).exists():
        raise ServiceError(
            _("%(user)s is this event's only organiser: make someone else organiser first.") % {"user": role.user}
        )


def invite_staff(event: Event, username: str, role: str, by) -> str:
    """Give a role: at once to someone already on the staff, else as an invitation to `username`.

    What the organiser is told does not depend on whether an account of that name exists.
    """
    key = username_key(username)
    with transaction.atomic():
        event = lock_event(event)
        current = next((r for r in event.roles.select_related("user") if username_key(r.user.username) == key), None)
        if current is not None:
            _keeps_an_organiser(event, current, role)
            if current.role != role:
                current.role = role
                current.save(update_fields=["role"])
            log(event, "staff_add", by, user=current.user.username, role=role)
            return _("%(user)s is now %(role)s of this event.") % {
                "user": current.user.username,
                "role": current.get_role_display().lower(),
            }
        invite = StaffInvite.objects.filter(event=event, key=key).first()
        if invite is None:
            invite = StaffInvite(event=event, username=username)
        invite.username, invite.key, invite.role, invite.by, invite.at = username, key, role, by, timezone.now()
        invite.save()
        log(event, "staff_invite", by, user=username, role=role)
    return _(
        "%(user)s is invited as %(role)s: the role becomes theirs when they next sign in with that username "
        "and open their events."
    ) % {"user": username, "role": invite.get_role_display().lower()}


def remove_staff(event: Event, role: EventRole, by) -> None:
    with transaction.atomic():
        event = lock_event(event)
        role = event.roles.select_related("user").filter(pk=role.pk).first()
        if role is None:
            return
        if role.user_id == by.pk:
            raise ServiceError(_("You cannot remove yourself; ask another organiser."))
        _keeps_an_organiser(event, role, None)
        role.delete()
        log(event, "staff_remove", by, user=role.user.username)


def _folded(username: str) -> str:
    return unicodedata.normalize("NFKC", username).casefold()


def claim_invites(user, event: Event | None = None) -> int:
    """Turn the invitations addressed to this user's username into roles; how many were taken. An expired
    invitation is left for its organisers to see and renew.

    Found by the look-alike key, then taken only by the name it was written to (up to case and width): an
    account that only looks like the invited one ("ılse" for "ilse") never takes it."""
    if not user.is_authenticated:
        return 0
    invites = StaffInvite.objects.filter(key=username_key(user.username), at__gt=StaffInvite.sent_since())
    if event is not None:
        invites = invites.filter(event=event)
    taken = 0
    name = _folded(user.username)
    for pk in [pk for pk, invited in invites.values_list("pk", "username") if _folded(invited) == name]:
        with transaction.atomic():
            # Read again, locked: since the list was read it may have been taken, withdrawn, renewed or expired.
            invite = (
                StaffInvite.objects.select_for_update(of=("self",))
                .select_related("event")
                .filter(pk=pk, at__gt=StaffInvite.sent_since())
                .first()
            )
            if invite is None:
                continue
            invite.delete()
            _role, created = EventRole.objects.get_or_create(
                event=invite.event, user=user, defaults={"role": invite.role}
            )
            log(invite.event, "staff_join", user, user=user.username, role=invite.role)
            taken += created
    return taken
