"""`swiss prizes FILE` (and `manage.py prizes`): the prize list of a swiss-event file split over its final
standings (standings.prizes, docs/prizes.md), as JSON for programs or a list for people."""

from __future__ import annotations

from pairing.tools.files import FileRefused, read_event_bytes, sections_to_run

PRIZES_HELP = "print who takes which prize: the file's prize list split over its final standings (docs/prizes.md)"


def run_prizes(file: str, format: str, section: str | None) -> str:
    """What `swiss prizes` and `manage.py prizes` print. The standings are those after the last round with a
    result; a file with no prize list prints an empty list."""
    from standings import StandingsError, compute
    from standings.prizes import dumps_json, entrants_of, split, to_text

    doc, _, _ = read_event_bytes(file)
    parts = []
    for heading, event in sections_to_run(doc, file, section, one=format == "json"):
        try:
            table = compute(event)
        except StandingsError as e:
            raise FileRefused(f"{file}: {e}") from None
        s = event.settings
        result = split(entrants_of(event, table.rows), s.prizes, s.prize_rules, s.scoring)
        names = {p.id: p.name for p in event.players}
        text = dumps_json(result) if format == "json" else to_text(result, names)
        parts.append(text if heading is None else f"== {heading} ==\n\n{text}")
    return "\n".join(parts)
