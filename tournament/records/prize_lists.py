"""An event's prize list and its rules, stored as the swiss-event file writes them (docs/prizes.md): `prizes`, the
list in the organiser's order, and `rules`, the file's `prize_rules` (`swiss.prizelist` reads and writes both).

A row of its own beside the event, made when the organiser first saves a list or a file with one is imported.
Registered with the other models by `tournament.models`."""

from django.db import models

from swiss.prizelist import dump_prize_settings, prize_settings
from swiss.prizemodel import Prize, PrizeRules


class PrizeList(models.Model):
    event = models.OneToOneField("tournament.Event", on_delete=models.CASCADE, related_name="prize_list")
    prizes = models.JSONField(default=list, blank=True)
    rules = models.JSONField(default=dict, blank=True)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"prize list of {self.event_id}"

    def parsed(self) -> tuple[tuple[Prize, ...], PrizeRules]:
        """The list and rules as the model holds them (stored only after `swiss.prizelist` accepted them)."""
        found = prize_settings({"prizes": self.prizes, "prize_rules": self.rules})
        return found["prizes"], found["prize_rules"]


def prize_list_of(event) -> tuple[tuple[Prize, ...], PrizeRules]:
    """The event's prize list and rules; none and the defaults when it has no list."""
    try:
        row = event.prize_list
    except PrizeList.DoesNotExist:
        return (), PrizeRules()
    return row.parsed()


def store_prize_list(event, prizes: tuple[Prize, ...], rules: PrizeRules) -> None:
    """Keep the list and rules on the event (a list emptied back to the defaults keeps an empty row)."""
    doc = dump_prize_settings(prizes, rules)
    if not doc and not PrizeList.objects.filter(event=event).exists():
        return
    PrizeList.objects.update_or_create(
        event=event, defaults={"prizes": doc.get("prizes", []), "rules": doc.get("prize_rules", {})}
    )
