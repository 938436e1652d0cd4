"""The pages, one module per audience or area. Every view starts by fetching its event through `access`
(which says what this person may do with it); a URL name leads to one module here, and its workflow to one
module of `tournament.services`.

- organiser: the organiser's events, settings and rounds; registration; print
- results, top_cut, players, staff, trf, reports (the organiser's side of players reporting)
- public: phones and the venue screen (conditional requests and cached renderings: `public_cache`)
- player: the player's own page, reached by their personal link or code (its words and the parts that hold
  for a round: player_parts)

May import services, text, files, forms and models; nothing imports views but the urls.
"""
