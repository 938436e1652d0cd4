"""The person's address is read in one place, `tournament.infra.middleware.client_ip` (behind the configured
proxies, X-Forwarded-For counted from the right): the login lockout, the code guesses and the player search's
budget all count the same address."""

import re
from pathlib import Path

from django.conf import settings
from django.utils.module_loading import import_string

from tournament.infra.middleware import client_ip

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "tournament" / "infra" / "middleware.py"
# Reading the connection's or the proxies' address, or asking a library for the client's.
READS = re.compile(r"REMOTE_ADDR|X_FORWARDED_FOR|X-Forwarded-For|get_client_ip|ipware", re.IGNORECASE)


def address_reads(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if READS.search(line) and not line.lstrip().startswith("#")]


def test_only_the_middleware_reads_the_clients_address():
    offenders = []
    for path in sorted((ROOT / "tournament").rglob("*.py")):
        if path == HOME:
            continue
        offenders += [f"{path.relative_to(ROOT)}: {line}" for line in address_reads(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_check_catches_a_second_reader():
    assert address_reads('ip = request.META["REMOTE_ADDR"]\n# REMOTE_ADDR in a comment\n') == [
        'ip = request.META["REMOTE_ADDR"]'
    ]
    assert address_reads("from axes.helpers import get_client_ip_address\n")


def test_the_login_lockout_asks_the_same_function():
    assert import_string(settings.AXES_CLIENT_IP_CALLABLE) is client_ip
