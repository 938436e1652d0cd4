"""The rules a stored player name is checked by, for the models' validators and every way a name comes in
(`tournament.text.names.clean_player_name`): why a name is refused, as the person who typed it reads it."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from swiss.names import NAME_MAX, name_fault, printable, stored_name

NAME_FAULTS = {  # why a stored name is refused (`swiss.names.name_fault`), as the person who typed it reads it
    "control": _("The name “%(name)s” holds a control character."),
    "surrogate": _("The name “%(name)s” holds half of a character (a lone surrogate), which no text can hold."),
    "invisible": _("A player needs a name with at least one visible letter."),
    "too_long": _("“%(name)s…” is longer than %(max)d characters."),
}


def check_player_name(name: str) -> None:
    """A stored name (`swiss.names.stored_name`) is refused when it holds a control character or half of one, nothing
    visible, or more than NAME_MAX characters. Every way in goes through here: the model's validator and
    `tournament.text.names.clean_player_name`, which forms, paste, CSV and event files use."""
    fault = name_fault(name)
    if fault:
        shown = name[:40] if fault == "too_long" else printable(name)
        raise ValidationError(NAME_FAULTS[fault], params={"name": shown, "max": NAME_MAX})


def validate_player_name(value: str) -> None:
    name = stored_name(value)
    check_player_name(name)
    if name != value:
        raise ValidationError(_("Names are stored without extra spaces or direction controls."))
