"""deploy/nginx.conf as the compose proxy runs it, rendered to run on this machine in front of an app on
loopback: for tests/test_deploy.py and bench/self_report.py, never for deployment."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

SITE = Path(__file__).resolve().parent / "nginx.conf"


def binary() -> str | None:
    """The nginx executable, if installed (apt-get install nginx-light)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


UPSTREAM = "server app:8000 max_fails=1 fail_timeout=10s;"


def write_config(root: Path, app_port: int | Sequence[int], port: int, error_log: str = "", events: str = "") -> Path:
    """The site in `root`, listening on 127.0.0.1:`port` and passing to the app on `app_port` (several ports:
    one upstream server each, as compose's replicas), its logs and temporary files in `root`; the main
    configuration file to start nginx with (daemon off)."""
    root.mkdir(parents=True)
    site = SITE.read_text()
    ports = [app_port] if isinstance(app_port, int) else list(app_port)
    servers = "\n    ".join(UPSTREAM.replace("app:8000", f"127.0.0.1:{p}") for p in ports)
    for was, now in (
        (UPSTREAM, servers),
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("/var/log/nginx/", f"{root}/"),
    ):
        if was not in site:
            raise ValueError(f"deploy/nginx.conf no longer has {was!r}")
        site = site.replace(was, now)
    (root / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {root}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = root / "nginx.conf"
    main.write_text(
        f"daemon off; pid {root}/nginx.pid; error_log {root}/error.log {error_log};\n"
        f"events {{ {events} }}\nhttp {{ {temp} include {root}/site.conf; }}\n"
    )
    return main
