"""The pages, one module per audience or area. Every view starts by fetching its event through `access`
(which says what this person may do with it); a URL name leads to one module here, and its workflow to one
module of `tournament.services`.

- organiser: the organiser's events, settings and rounds; registration; print
- results, top_cut, players, staff, trf, reports (the organiser's side of players reporting)
- public, venue, crosstable: phones and the venue screen (the HTTP answer of their cached renderings: `public_cache`)
- player: the player's own page, reached by their personal link or code
- jobs: imports, exports and prints made by the worker, and the job box's poll
- access (who may do what), pages (what every organiser page does)

Views keep the request: access, forms, HTTP headers. What a page shows is tournament/pages/'s.
May import pages, services, text, files, forms, jobs and models; nothing imports views but the urls; no view takes
a private name (`_x`) from another.
"""
