from django.contrib import admin

from tournament.models import Event, EventLog, EventRole, Match, Player, ResultChange, Round, Seat


class ChangesTheEvent:
    """A change made here is a change of its event, as one made in the app: the event's version moves, so
    cached pages, ETags and the standings after every round are read again (`Event.touch`)."""

    @staticmethod
    def event_of(obj) -> Event:
        if isinstance(obj, Event):
            return obj
        return obj.event if hasattr(obj, "event_id") else obj.round.event

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self.event_of(obj).touch()

    def delete_model(self, request, obj):
        event = self.event_of(obj)
        super().delete_model(request, obj)
        if not isinstance(obj, Event):
            event.touch()

    def delete_queryset(self, request, queryset):
        events = {self.event_of(obj).pk: self.event_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for event in events.values():
            if Event.objects.filter(pk=event.pk).exists():
                event.touch()


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

    def save_model(self, request, obj, form, change):
        if change:
            # Not the version as this form loaded it: results stored meanwhile moved it on (`touch` moves it).
            obj.save(update_fields=[f.name for f in Event._meta.concrete_fields if f.attname not in _MOVED])
            obj.touch()
        else:
            super().save_model(request, obj, form, change)


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
    list_display = ["round", "table", "player_a", "player_b", "games_a", "games_b", "games_drawn", "result"]
    list_filter = ["result"]
    list_select_related = ["round__event", "player_a", "player_b"]
    raw_id_fields = ["player_a", "player_b", "round"]


@admin.register(Seat)
class SeatAdmin(ChangesTheEvent, admin.ModelAdmin):
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
