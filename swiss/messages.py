"""Messages the engines give people: an English sentence that also carries a stable code and parameters.

The engines stay pure Python (no Django): the command line prints the English sentence as it is, and
the web app translates by code (`tournament/text/engine_text.py`), so a warning such as "Rematch at table 4:
… because …" reads in the organiser's language. A `Message` is a `str`, so code that only wants the
sentence (tests, logs, the CLI) needs nothing new. A parameter may itself be a Message (a reason
inside a warning); it is translated too.
"""

from __future__ import annotations

from typing import Any


class Message(str):
    """`template.format(**params)`, knowing its `code` and `params`."""

    code: str
    template: str
    params: dict[str, Any]

    def __new__(cls, code: str, template: str, /, **params: Any) -> Message:
        self = super().__new__(cls, template.format(**params))
        self.code = code
        self.template = template
        self.params = params
        return self

    def __reduce__(self):
        return _rebuild, (self.code, self.template, self.params)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready form (stored with a paired round): code, parameters and the English text."""
        params = {k: v.as_dict() if isinstance(v, Message) else v for k, v in self.params.items()}
        return {"code": self.code, "params": params, "text": str(self)}


def _rebuild(code: str, template: str, params: dict[str, Any]) -> Message:
    return Message(code, template, **params)


def message_of(error: BaseException) -> Message | str:
    """The Message an engine error was raised with, or its plain text."""
    first = error.args[0] if error.args else ""
    return first if isinstance(first, Message) else str(error)
