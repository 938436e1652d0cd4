"""The engine tests run in two environments: the project's own (Django installed) and the core's alone (`pip
install .`, no Django: .ci/core runs them there with `--confcutdir tests/engines`, so tests/conftest.py, which
sets Django up, is not loaded). These modules test the management commands or the web app's reading of a file,
and need Django: they are left out where it is absent. Every other module here imports only the core."""

import importlib.util

NEED_DJANGO = [
    "test_eventfile.py",
    "test_pairing_event.py",
    "test_standings_command.py",
    "test_trf_commands.py",
    "test_why_not_cli.py",
    "test_venuefile.py",  # builds its events with test_eventfile's generator
]

collect_ignore = NEED_DJANGO if importlib.util.find_spec("django") is None else []
