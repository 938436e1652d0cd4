"""The models kept beside the event row of tournament/models.py, which imports and registers each of them: an event's
players, their numbers, keys and codes (players), its rounds, matches and seats (rounds), players' reports and the
result audit log (results), its staff, invitations, chosen languages and audit log (staff), one-time form tokens and
code budgets (limits), the public trail of a published round (round_changes), why a round is paired as it is
(round_explanations), what each player needs from the last rounds (round_outlooks), an event's prize list
(prize_lists), and the field validators the models share (validators). Models here import only Django and each
other; never a view, page or service."""
