"""Who runs an event and what they did: the roles (EventRole), the invitations to one (StaffInvite), the language
an account chose (LanguagePreference) and the organiser actions worth auditing (EventLog). Registered with the
other models by `tournament.models`, which imports it (models.py is kept under its size guard)."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventRole(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        JUDGE = "judge", _("Judge")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_role_per_user_per_event")]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()} of {self.event}"


class LanguagePreference(models.Model):
    """The language a signed-in person chose with the switcher, kept with their account: their organiser
    pages speak it on every device they sign in on (tournament/text/i18n.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="language_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.user}: {self.language}"


class StaffInvite(models.Model):
    """A role offered to whoever signs in with `username`: the staff form never says whether that account
    exists (it would tell anyone who can create an event which usernames this site has). The role is
    taken when that user next opens their events list or this event (`services.claim_invites`), within
    STAFF_INVITE_DAYS of `at`: an offer nobody took should not wait for whoever registers that name
    months later. Inviting the same username again renews it."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="invites")
    username = models.CharField(max_length=150)
    # `text.lookalikes.username_key(username)`, set by `services.staff.invite_staff`: an invitation is found by
    # it, so a name that only looks like another's (a dotless ı, a Cyrillic letter) is not another invitation.
    key = models.CharField(max_length=600, default="")
    role = models.CharField(max_length=10, choices=EventRole.Role.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["username"]
        constraints = [
            models.UniqueConstraint(fields=["key", "event"], name="one_invite_per_username_key_per_event"),
        ]

    def __str__(self):
        return f"{self.username} invited as {self.get_role_display()} of {self.event}"

    @staticmethod
    def sent_since():
        """Invitations sent before this moment have expired."""
        return timezone.now() - timedelta(days=settings.STAFF_INVITE_DAYS)

    @property
    def expires(self):
        return self.at + timedelta(days=settings.STAFF_INVITE_DAYS)

    @property
    def expired(self) -> bool:
        return self.expires <= timezone.now()


class EventLog(models.Model):
    """Organiser actions worth auditing beyond results: settings changed after pairing, re-pairs, swaps."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self):
        return f"{self.event}: {self.action}"
