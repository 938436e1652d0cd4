"""The organiser's prize list form (docs/prizes.md): one prize a line, `name | value | conditions`, and the rules.

A line is what the swiss-event file's prize says, written for a person: the value an amount ("40", "12.50") or a
count with its unit ("3 packs"); the conditions, comma-separated, the file's category keys ("rating_below=1600",
"women", "players=12 31"). The list is checked by the file's own reader (`swiss.prizelist`), so what the form
accepts a file carries and the other way round; `as_lines` writes a stored list back the same way."""

import re

from django import forms
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from swiss.prizelist import dump_category, prize_settings
from swiss.prizemodel import Prize, PrizeRules, amount_text
from swiss.strictjson import EventFileError
from tournament.text import engine_text

_ITEMS = re.compile(r"(\d{1,9})(?:\s+(.+))?")
_FLAGS = ("women", "unrated")
_NUMBERS = ("rating_below", "rating_from")
MAX_LINES = 500


class PrizeListForm(forms.Form):
    lines = forms.CharField(
        label=_("Prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    ties = forms.ChoiceField(
        label=_("Ties"),
        choices=[
            ("shared", _("Shared: the tied players pool the prizes of their places and split them equally")),
            ("hort", _("Hort system: half of each place's prize by place, the other half shared")),
            ("tiebreak", _("By tie-breaks: the event's own order")),
        ],
    )
    one_per_player = forms.BooleanField(label=_("One prize per player"), required=False)
    priority = forms.ChoiceField(
        label=_("With one prize per player, first"),
        choices=[("value", _("the prize of higher value")), ("order", _("the prize higher in the list"))],
    )
    currency = forms.CharField(
        label=pgettext_lazy("money", "Currency"), required=False, max_length=10, help_text=_("For example €, EUR or ¥.")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The examples are what the organiser types, in <kbd> as the desk's other typed input: the catalogs are
        # ours, so the markup is trusted; it is read in the request's language.
        self.fields["lines"].help_text = mark_safe(  # noqa: S308
            gettext(
                "One prize a line, best first: name | amount or items | conditions. Place prizes have no "
                "conditions. Examples: <kbd>1st | 500</kbd>, <kbd>Best under 1600 | 100 | rating_below=1600</kbd>, "
                "<kbd>Junior | 50 | born_after=2008-12-31</kbd>, <kbd>Best woman | 50 | women</kbd>, <kbd>4-1 or "
                "better | 3 packs | record=4-1</kbd>. Other conditions: <kbd>rating_from=1400</kbd>, "
                "<kbd>born_before=…</kbd>, <kbd>unrated</kbd>, <kbd>section=…</kbd>, <kbd>players=12 31</kbd>."
            )
        )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        doc = {"prizes": [], "prize_rules": {}}
        rows = [line for line in (data.get("lines") or "").splitlines() if line.strip()]
        if len(rows) > MAX_LINES:
            raise forms.ValidationError(_("At most %(count)s prizes.") % {"count": MAX_LINES})
        for n, line in enumerate(rows, 1):
            try:
                doc["prizes"].append(_prize_doc(line))
            except ValueError:
                self.add_error("lines", _("Line %(n)s: write name | amount or items | conditions.") % {"n": n})
                return data
        doc["prize_rules"] = {
            "ties": data["ties"],
            "one_per_player": data["one_per_player"],
            "priority": data["priority"],
            "currency": data.get("currency", "").strip(),
        }
        try:
            found = prize_settings(doc)
        except EventFileError as e:
            m = re.match(r"prizes\[(\d+)\]", e.path or "")
            where = _("Line %(n)s") % {"n": int(m[1]) + 1} if m else ""
            self.add_error(
                "lines", f"{where}: {engine_text.translate(e.message)}" if where else engine_text.translate(e.message)
            )
            return data
        data["prizes"], data["rules"] = found["prizes"], found["prize_rules"]
        return data


def _prize_doc(line: str) -> dict:
    """A line as the file's prize object (checked by the file's reader after); ValueError for no name or value."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 2 or len(parts) > 3 or not parts[0] or not parts[1]:
        raise ValueError(line)
    doc: dict = {"name": parts[0]}
    value = parts[1].replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", parts[1]) else parts[1]
    items = _ITEMS.fullmatch(value)
    if items and items[2] and not re.fullmatch(r"\d+(\.\d+)?", value):
        doc["items"] = int(items[1])
        doc["unit"] = items[2].strip()
    else:
        doc["amount"] = value
    if len(parts) == 3 and parts[2]:
        doc["category"] = _category_doc(parts[2])
    return doc


def _category_doc(text: str) -> dict:
    category: dict = {}
    for condition in (c.strip() for c in text.split(",")):
        if not condition:
            continue
        key, _eq, value = (s.strip() for s in condition.partition("="))
        if key in _FLAGS and not value:
            category[key] = True
        elif key in _NUMBERS and value.isdecimal():
            category[key] = int(value)
        elif key == "players":
            category[key] = value.split()
        else:
            category[key] = value  # the file's reader refuses an unknown key or a bad value, by its name
    return category


def as_lines(prizes: tuple[Prize, ...]) -> str:
    """A stored list written as the form's lines."""
    lines = []
    for p in prizes:
        value = amount_text(p.amount) if p.amount is not None else f"{p.items} {p.unit}".strip()
        parts = [p.name, value]
        if p.category is not None:
            conditions = []
            for key, v in dump_category(p.category).items():
                if v is True:
                    conditions.append(key)
                elif isinstance(v, list):
                    conditions.append(f"{key}={' '.join(v)}")
                else:
                    conditions.append(f"{key}={v}")
            parts.append(", ".join(conditions))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def initial_of(prizes: tuple[Prize, ...], rules: PrizeRules) -> dict:
    return {
        "lines": as_lines(prizes),
        "ties": rules.ties,
        "one_per_player": rules.one_per_player,
        "priority": rules.priority,
        "currency": rules.currency,
    }
