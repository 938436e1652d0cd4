"""`python -m swiss` and the `swiss` console script: the file tools (pair, standings, check, generate) from the core
alone, without Django (docs/tools.md). The one module of swiss/ above the engines: it only starts
pairing/tools/main.py, and nothing imports it."""

from __future__ import annotations

import sys


def main() -> int:
    from pairing.tools.main import main as run

    return run()


if __name__ == "__main__":
    sys.exit(main())
