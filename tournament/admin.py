from django.contrib import admin

from tournament.models import Event, EventLog, EventRole, Match, Player, ResultChange, Round, Seat


class RoleInline(admin.TabularInline):
    model = EventRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "date", "preset", "public", "version"]
    list_filter = ["preset", "public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoleInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "rating", "byes", "joined_round", "dropped_after", "fixed_table"]
    list_filter = ["event"]
    search_fields = ["name", "external_id"]
    list_select_related = ["event"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "state", "seed"]
    list_filter = ["kind", "state"]
    list_select_related = ["event"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "player_a", "player_b", "games_a", "games_b", "games_drawn", "result"]
    list_filter = ["result"]
    list_select_related = ["round__event", "player_a", "player_b"]
    raw_id_fields = ["player_a", "player_b", "round"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
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
