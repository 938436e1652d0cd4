"""Every row of the tables `pairing/rounds.py` recommends rounds and top cuts from, at both ends of each row.

Magic: the Magic Tournament Rules effective 10 November 2025, Appendix E ("Recommended Number of Rounds in Swiss
Tournaments"), checked against that document's text. Pokémon: the table docs/engines.md gives for the Play! Pokémon
Tournament Rules Handbook; its rounds for 4-32 players agree with what organisers quote from the Handbook, the top
cuts and the rows past 32 players are pinned as given and not yet checked against the Handbook's current text."""

import pytest

from pairing.rounds import pokemon_structure, recommended_rounds

# Appendix E's rows from 9 players: (fewest, most, Swiss rounds, top cut); 410+ is open-ended.
MTR_APPENDIX_E = [
    (9, 16, 5, 4),
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, 4096, 10, 8),
]


@pytest.mark.parametrize(("fewest", "most", "rounds", "cut"), MTR_APPENDIX_E)
def test_mtr_appendix_e_rows(fewest, most, rounds, cut):
    for players in (fewest, most):
        rec = recommended_rounds(players, preset="mtg")
        assert (rec.rounds, rec.top_cut, rec.rule, rec.single_elimination) == (rounds, cut, "mtr", False)


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_mtr_appendix_e_5_to_8_players_play_3_single_elimination_rounds(players):
    rec = recommended_rounds(players, preset="mtg")
    assert (rec.rounds, rec.top_cut, rec.rule, rec.single_elimination) == (0, 8, "mtr_single_elimination", True)
    assert "(3 rounds)" in rec.explanation


@pytest.mark.parametrize(("players", "draft"), [(9, True), (16, True), (17, False)])
def test_mtr_appendix_e_booster_draft_playoff_is_4_rounds_and_a_top_8_for_9_to_16(players, draft):
    assert ("4 rounds and top 8 for a booster-draft playoff" in recommended_rounds(players).explanation) == draft


@pytest.mark.parametrize(
    ("players", "byes", "counted", "rounds", "cut"),
    [
        (31, [1], 32, 5, 8),  # a 1-round bye counts as 2 players
        (31, [2], 34, 6, 8),  # a 2-round bye as 4
        (31, [3], 38, 6, 8),  # a 3-round bye as 8
        (225, [1, 1], 227, 9, 8),  # two byes carry 225 players over the 226 line
        (50, [3, 3, 3, 3], 78, 7, 8),
    ],
)
def test_mtr_appendix_e_byes_count_2_4_8_players(players, byes, counted, rounds, cut):
    rec = recommended_rounds(players, byes, "mtg")
    assert (rec.counted, rec.rounds, rec.top_cut) == (counted, rounds, cut)


@pytest.mark.parametrize(
    ("players", "byes", "single_elimination", "rounds", "cut"),
    [
        (7, [1], True, 0, 8),  # counted as 8: still the 5-8 row
        (7, [2], False, 5, 4),  # counted as 10: the 9-16 row, not a knockout of 7
        (8, [1, 1], False, 5, 4),  # counted as 10
        (6, [3], False, 5, 4),  # counted as 13
    ],
)
def test_mtr_appendix_e_byes_count_on_the_single_elimination_row_too(players, byes, single_elimination, rounds, cut):
    """The chart's bye rule applies "when using the above chart", whose first rows are the single-elimination ones:
    an event of 8 players or fewer that counts as more with its byes plays the Swiss of its counted size."""
    rec = recommended_rounds(players, byes, "mtg")
    assert (rec.single_elimination, rec.rounds, rec.top_cut) == (single_elimination, rounds, cut)


# The Pokémon table docs/engines.md gives: (fewest, most, Swiss rounds, top cut).
POKEMON_TABLE = [
    (4, 8, 3, 0),
    (9, 12, 4, 4),
    (13, 20, 5, 4),
    (21, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, 4096, 10, 8),
]


@pytest.mark.parametrize(("fewest", "most", "rounds", "cut"), POKEMON_TABLE)
def test_pokemon_rounds_and_top_cut_by_attendance_rows(fewest, most, rounds, cut):
    for players in (fewest, most):
        assert pokemon_structure(players) == (rounds, cut)
        rec = recommended_rounds(players, preset="pokemon")
        assert (rec.rounds, rec.top_cut, rec.rule) == (rounds, cut, "pokemon")


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2)])
def test_pokemon_below_the_table_plays_enough_rounds_for_one_unbeaten_player(players, rounds):
    rec = recommended_rounds(players, preset="pokemon")
    assert (rec.rounds, rec.top_cut, rec.rule) == (rounds, 0, "unbeaten")
