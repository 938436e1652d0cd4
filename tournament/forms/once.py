"""Forms that create rows run once per submission, decided by the database.

Every such form carries a one-time token (`once`, made when the page is rendered). The view claims it
inside the transaction that does the form's work: the row's unique index makes a second submission of
the same form (a double click, a browser resending) wait until the first commits and then find it taken.
A session cannot do this: two requests arriving together both read the session before either saves it.
"""

import re
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from tournament.models import FormSubmission

KEEP = timedelta(days=2)


class Repeated(Exception):
    """This form was submitted before; `outcome` is where that submission led (or "")."""

    def __init__(self, outcome: str):
        super().__init__(outcome)
        self.outcome = outcome


_TOKEN = re.compile(r"[-\w.:=]+", re.ASCII)


def claim(request: HttpRequest, token: str | None = None) -> FormSubmission | None:
    """Record this submission's token; raises `Repeated` if it was recorded already. Call inside `atomic()`.

    The token is the form's `once` field unless the caller names the submission itself (a file's digest).
    A form without a token (a script, an old page) is not deduplicated: there is nothing to tell it apart.
    """
    token = (token or request.POST.get("once", ""))[:80]
    # Only a token of the shape the app hands out is recorded: junk (a NUL byte, which PostgreSQL refuses in
    # a text column) is no token, and the submission is simply not deduplicated.
    if not token or not _TOKEN.fullmatch(token) or not request.user.is_authenticated:
        return None
    try:
        with transaction.atomic():
            submission = FormSubmission.objects.create(user=request.user, token=token)
    except IntegrityError:
        first = FormSubmission.objects.filter(user=request.user, token=token).first()
        raise Repeated(first.outcome if first else "") from None
    # Tokens older than KEEP belong to pages nobody resubmits; each person's own are swept as they go.
    FormSubmission.objects.filter(user=request.user, at__lt=timezone.now() - KEEP).delete()
    return submission


def done(submission: FormSubmission | None, outcome: str) -> None:
    """Remember where the first submission led, so a repeat can go there too."""
    if submission is not None:
        submission.outcome = outcome[:300]
        submission.save(update_fields=["outcome"])
