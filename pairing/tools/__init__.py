"""The file tools: `python -m swiss pair | standings | check | generate` (swiss/__main__.py), and the `pair` and
`standings` management commands, which are thin wrappers of the same code.

`files` reads a swiss-event or TRF file with a one-line refusal; `next_round` pairs the next round and writes it
as text or JSON; `check` pairs every round of a file again from the rounds before it and ranks the players by the
file's tie-break list, listing what differs; `generate` writes a random tournament paired by the Dutch system;
`main` is the command line. Pure Python like the rest of the core: they import the engines, `swiss` and the
standard library, never Django, so the tools start without the web app.
"""
