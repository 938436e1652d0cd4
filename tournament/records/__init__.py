"""What is kept beside the rows of tournament/models.py, which imports and registers each of these models: the
public trail of a published round (round_changes), why a round is paired as it is (round_explanations), what each
player needs from the last rounds (round_outlooks), an event's prize list (prize_lists), and the field validators
the models share (validators). Models here import only Django and each other; never a view, page or service."""
