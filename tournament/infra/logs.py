"""Secrets never reach a log: a player's personal link `/e/<event>/me/<number>/<secret>/` is written with
its secret replaced, in every log the deployment writes.

- Django's own (a 404 for a revoked link, a 405, a server error: "Not Found: /e/…"): `RedactSecrets`
  on the handlers of `settings.LOGGING`;
- gunicorn's access and error logs (the request line, the referrer, "Error handling request …"):
  `GunicornLogger`, the `--logger-class` of deploy/start.sh;
- nginx's access log: the same pattern as a `map` in deploy/nginx.conf.

The secret is the only part taken out: the event, the player's number and the rest of the line stay,
so a log still says who opened their link when.
"""

import logging
import re

from gunicorn.glogging import Logger

# The player's number, then the secret up to the next slash, query, fragment, space or quote.
PERSONAL_LINK = re.compile(r"(/me/\d+/)[^/?#\s\"']+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    return PERSONAL_LINK.sub(rf"\g<1>{REDACTED}", text)


class RedactSecrets(logging.Filter):
    """Rewrites a record's message (and its traceback) with the secrets taken out; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class GunicornLogger(Logger):
    """gunicorn's logger with `RedactSecrets` on its access and error logs (set up again on a reload)."""

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactSecrets) for f in log.filters):
                log.addFilter(RedactSecrets())
