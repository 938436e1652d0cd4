from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import transaction
from django.utils.translation import gettext as _

from swiss import rules
from tournament.forms.accounts import refuse_lookalike_username
from tournament.models import (
    Event,
    EventLog,
    EventRole,
    Job,
    Match,
    Player,
    ResultChange,
    Round,
    Seat,
)
from tournament.services import locks


class ChangesTheEvent:
    """A change made here is a change of its event, as one made in the app: the event's version moves, so
    cached pages, ETags and the standings after every round are read again (`services.locks.changed`)."""

    event_path = "event"  # how the model's rows reach their event

    def events(self, rows) -> list[Event]:
        """The events of `rows` (a queryset), read before they are deleted."""
        path = "pk" if rows.model is Event else self.event_path
        return list(Event.objects.filter(pk__in=rows.values_list(path, flat=True)))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        for event in self.events(type(obj).objects.filter(pk=obj.pk)):
            locks.changed(event)

    def delete_model(self, request, obj):
        events = self.events(type(obj).objects.filter(pk=obj.pk))
        super().delete_model(request, obj)
        for event in events if not isinstance(obj, Event) else ():
            locks.changed(event)

    def delete_queryset(self, request, queryset):
        events = self.events(queryset)
        super().delete_queryset(request, queryset)
        for event in events if queryset.model is not Event else ():
            locks.changed(event)


class RoleInline(admin.TabularInline):
    model = EventRole
    extra = 0
    autocomplete_fields = ["user"]


_MOVED = Event.CHANGE_FIELDS | {"id"}  # what saving the event's own form leaves alone


@admin.register(Event)
class EventAdmin(ChangesTheEvent, admin.ModelAdmin):
    list_display = ["name", "slug", "date", "preset", "public", "version"]
    list_filter = ["preset", "public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoleInline]
    readonly_fields = sorted(Event.CHANGE_FIELDS - {"updated_at"})

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        # Round 1's colours came from it, as on the settings page.
        return [*fields, "initial_colour"] if obj is not None and obj.rounds.exists() else fields

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        # As the settings page does: under the event's lock, which pairing takes too; only the fields this form
        # changed are written (not the version, which results move on, nor what others saved meanwhile); the
        # initial colour stays once round 1 is paired, and scoring changed after pairing is logged.
        with transaction.atomic():
            before = locks.lock_event(obj)
            paired = obj.rounds.exists()
            fields = form.changed_data if form is not None else [f.name for f in Event._meta.concrete_fields]
            changed = [f for f in fields if f not in _MOVED and not (paired and f == "initial_colour")]
            if changed:
                obj.save(update_fields=changed)
            scoring = [f for f in changed if f in Event.SCORING_FIELDS and getattr(obj, f) != getattr(before, f)]
            # A new date that moves the FIDE rules the event follows (its C.07 edition or the 2650 rule).
            named = obj.tiebreak_rules
            if "date" in changed and obj.preset == "chess" and any(rules.moved(before.date, named, obj.date, named)):
                scoring.append("date")
            if paired and scoring:
                locks.log(obj, "settings_after_pairing", request.user, fields=scoring)
                message = _("Scoring or tie-breakers changed after pairing; the change is logged.")
                messages.warning(request, message, fail_silently=True)
            locks.changed(obj)


@admin.register(Player)
class PlayerAdmin(ChangesTheEvent, admin.ModelAdmin):
    list_display = ["name", "event", "rating", "byes", "joined_round", "dropped_after", "fixed_table"]
    list_filter = ["event"]
    search_fields = ["name", "external_id"]
    list_select_related = ["event"]


@admin.register(Round)
class RoundAdmin(ChangesTheEvent, admin.ModelAdmin):
    list_display = ["event", "number", "kind", "state", "seed"]
    list_filter = ["kind", "state"]
    list_select_related = ["event"]


@admin.register(Match)
class MatchAdmin(ChangesTheEvent, admin.ModelAdmin):
    event_path = "round__event"
    list_display = ["round", "table", "player_a", "player_b", "games_a", "games_b", "games_drawn", "result"]
    list_filter = ["result"]
    list_select_related = ["round__event", "player_a", "player_b"]
    raw_id_fields = ["player_a", "player_b", "round"]

    def save_model(self, request, obj, form, change):
        players = Match.objects.filter(pk=obj.pk).values_list("player_a_id", "player_b_id").first()
        super().save_model(request, obj, form, change)
        # Other players make it another pairing: what was reported on it was said of the old one.
        if players is not None and players != (obj.player_a_id, obj.player_b_id):
            locks.discard_reports([obj.pk])


@admin.register(Seat)
class SeatAdmin(ChangesTheEvent, admin.ModelAdmin):
    event_path = "round__event"
    list_display = ["round", "player"]
    raw_id_fields = ["round", "player"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "before", "after", "by", "at"]
    raw_id_fields = ["match"]


@admin.register(EventLog)
class EventLogAdmin(admin.ModelAdmin):
    list_display = ["event", "action", "by", "at"]
    list_filter = ["action"]


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    """The pairings the worker ran or runs (tournament/jobs/workflow.py): read only; the task queue's own rows are under
    django_tasks_db."""

    list_display = ["event", "kind", "round_number", "state", "created_by", "created_at", "started_at", "finished_at"]
    list_filter = ["state", "kind"]
    readonly_fields = [f.name for f in Job._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class UserCreation(AdminUserCreationForm):
    def clean_username(self):
        username = super().clean_username()
        refuse_lookalike_username(username)
        return username


class UserChange(UserChangeForm):
    def clean_username(self):
        username = self.cleaned_data["username"]
        refuse_lookalike_username(username, account=self.instance.pk)
        return username


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's user admin, refusing a username that reads like another account's (`refuse_lookalike_username`)."""

    add_form = UserCreation
    form = UserChange
