"""The event as everything sees it: pure Python, no Django.

`model` holds the frozen dataclasses (settings, players, matches, rounds), the result kinds and the limits
a stored event keeps to; `eventfile` reads and writes the swiss-event JSON file (on `strictjson`, which
decodes it and checks each value by its JSON path), `trf` the FIDE TRF (on `trflines`, one line at a
time); `presets` gives each game's scoring and tie-breakers, `numbers` the players' pairing numbers,
`messages` the English sentences with a code that the web app translates.

The pairing and standings engines and the web app build on this package; it imports only the standard
library and its own modules (tests/test_guards.py checks), so the readers, the engines and the commands
share one model.
"""
