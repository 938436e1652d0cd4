"""A player's section by the placement rules (swiss/placement.py): first fit in order, open ends, unknowns."""

from swiss.placement import Rules, birth_year, section_for

OPEN_A = Rules(rating_min=1800)
UNDER_1800 = Rules(rating_max=1799)
JUNIORS = Rules(birth_year_min=2010)


def test_the_first_section_in_order_whose_rules_fit():
    sections = [JUNIORS, OPEN_A, UNDER_1800]
    assert section_for(sections, 1900, "2011/04/01") == 0  # a junior rated 1900 fits both: the first wins
    assert section_for(sections, 1900, "1980") == 1
    assert section_for(sections, 1500, "") == 2


def test_either_end_of_a_band_is_open_and_both_ends_are_in_it():
    band = Rules(rating_min=1600, rating_max=1999)
    assert [section_for([band], r) for r in (1599, 1600, 1999, 2000)] == [None, 0, 0, None]
    assert section_for([Rules(birth_year_min=2008, birth_year_max=2010)], None, "2010/12/31") == 0


def test_an_unrated_player_counts_as_rated_0_and_an_unknown_birth_year_fits_no_age_rule():
    assert section_for([OPEN_A, UNDER_1800], None) == 1
    assert section_for([JUNIORS], 1500, "") is None
    assert section_for([Rules(rating_min=0)], None) == 0  # an open section: rating from 0


def test_a_section_without_rules_takes_players_by_hand_only():
    assert section_for([Rules(), UNDER_1800], 1500) == 1
    assert section_for([Rules()], 1500) is None


def test_birth_years_as_player_details_hold_them():
    assert [birth_year(t) for t in ("1969/12/06", "1969", "", "69", "1969-12-06")] == [1969, 1969, None, None, 1969]
