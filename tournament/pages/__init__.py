"""What each page shows, between the views (which answer the request: access, forms, HTTP headers) and the
services (which change the event): the pages' contexts, their rows as small dataclasses with `reverse()`d URLs,
the crosstable, the round's results board, the job box, and the public pages made once per event version and kept
(memo.py). The jobs render their prints from here too.

- memo: the per-version memo of the public pages (the event as a poll reads it, values, rows and renderings kept)
- rows: the pieces the public and the player's pages are made of (pairings, standings, a player's lines, QR codes)
- public, venue, player, crosstable: what each of those pages shows
- round, results_board: the organiser's round pages (the results page's rows, the draft, a match's history)
- standings, printing, players, sections, top_cut: the organiser's other pages and prints
- jobs: the job box

May import services, text, files, forms, jobs, models and the engines; never views or urls.
"""
