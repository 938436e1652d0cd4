"""The prize split (standings.prizes) against hand-worked examples, and its money never exceeding the fund."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from standings.prizes import CENT, Entrant, split, to_json
from swiss.model import Scoring
from swiss.prizemodel import Category, Prize, PrizeRules


def field(*points, ratings=None, **details):
    """Entrants p1, p2… with these points, best first; a new rank at every player (tie-breaks separate them)."""
    ratings = ratings or {}
    return [
        Entrant(id=f"p{i}", name=f"P{i}", points=F(pt), rank=i, rating=ratings.get(f"p{i}"), **details.get(f"p{i}", {}))
        for i, pt in enumerate(points, 1)
    ]


def money(*amounts, category=None):
    return [Prize(name=f"{i}.", amount=F(a), category=category) for i, a in enumerate(amounts, 1)]


def paid(result):
    return {pid: m for a in result.awards for pid, m in zip(a.players, a.money, strict=True)}


def test_three_places_shared_by_four_tied_players():
    # 1st 300, 2nd 200, 3rd 100, 4th 60, 5th 40. p1 and p2 are alone on 5 and 4.5; p3..p6, level on 4, occupy
    # places 3-6 and pool the three prizes left, 100 + 60 + 40 = 200: 50 each.
    entrants = field(5, 4.5, 4, 4, 4, 4, 3)
    result = split(entrants, money(300, 200, 100, 60, 40), PrizeRules(ties="shared"))
    assert paid(result) == {"p1": 300, "p2": 200, "p3": 50, "p4": 50, "p5": 50, "p6": 50}
    shared = result.awards[2]
    assert shared.players == ("p3", "p4", "p5", "p6")
    assert (shared.first_place, shared.last_place) == (3, 6)
    assert shared.money_remainder == 0
    assert result.unawarded == ()


def test_amounts_that_do_not_divide_are_rounded_down_and_the_remainder_stated():
    # One prize of 100 among three tied for first: 33.33 each and 0.01 stated as the remainder.
    result = split(field(3, 3, 3, 1), money(100), PrizeRules())
    (award,) = result.awards
    assert award.money == (F("33.33"),) * 3
    assert award.money_remainder == CENT
    doc = to_json(result)
    assert doc["awards"] == [
        {"prize": "1.", "players": ["p1", "p2", "p3"], "places": [1, 3], "amount_each": "33.33", "remainder": "0.01"}
    ]


def test_hort_system_example():
    # The Hort system's own example (de.wikipedia.org/wiki/Hort-System): prizes 1000 500 350 200 150 100;
    # A, B on 8; C on 7.5; D, E, F on 7. Each keeps half their place's prize and shares the pooled halves.
    entrants = field(8, 8, 7.5, 7, 7, 7)
    result = split(entrants, money(1000, 500, 350, 200, 150, 100), PrizeRules(ties="hort"))
    assert paid(result) == {"p1": 875, "p2": 625, "p3": 350, "p4": 175, "p5": 150, "p6": 125}


def test_hort_rounds_each_player_down_to_the_cent():
    # The same article's smaller example, 100 80 60 40 20 10: D, E, F pool 35 and keep 20, 10, 5 -> 31.66,
    # 21.66, 16.66 to the cent (the article pays whole euros), 0.02 stated as the remainder.
    result = split(field(8, 8, 7.5, 7, 7, 7), money(100, 80, 60, 40, 20, 10), PrizeRules(ties="hort"))
    assert paid(result) == {"p1": 95, "p2": 85, "p3": 60, "p4": F("31.66"), "p5": F("21.66"), "p6": F("16.66")}
    assert result.awards[-1].money_remainder == F("0.02")


def test_tiebreak_gives_places_in_the_event_order():
    result = split(field(3, 3, 3), money(100, 50), PrizeRules(ties="tiebreak"))
    assert paid(result) == {"p1": 100, "p2": 50}


def test_one_prize_per_player_takes_the_category_prize_when_it_is_worth_more():
    # Places 500 300 100 50; under 1600: 150. p4 (1500) is 4th (50) and the best under 1600 (150): the 150 goes
    # out before the 4th prize, so p4 takes it and the 4th place prize goes down to p5.
    entrants = field(5, 4, 3, 2, 1, 0, ratings={"p1": 2000, "p2": 1900, "p3": 1800, "p4": 1500, "p5": 1550})
    prizes = [*money(500, 300, 100, 50), Prize("U1600", F(150), category=Category(rating_below=1600))]
    result = split(entrants, prizes, PrizeRules(ties="tiebreak", one_per_player=True))
    assert paid(result) == {"p1": 500, "p2": 300, "p3": 100, "p4": 150, "p5": 50}
    # Without one prize a player, p4 takes both.
    both = split(entrants, prizes, PrizeRules(ties="tiebreak", one_per_player=False))
    assert [m for _, m, _ in both.of_player("p4")] == [50, 150]


def test_priority_order_gives_the_list_order_precedence():
    # The same list, but in list order: p4 takes the 4th place prize first and the U1600 goes to p5.
    entrants = field(5, 4, 3, 2, 1, 0, ratings={"p1": 2000, "p2": 1900, "p3": 1800, "p4": 1500, "p5": 1550})
    prizes = [*money(500, 300, 100, 50), Prize("U1600", F(150), category=Category(rating_below=1600))]
    result = split(entrants, prizes, PrizeRules(ties="tiebreak", priority="order"))
    assert paid(result)["p4"] == 50 and paid(result)["p5"] == 150


def test_a_prize_nobody_qualifies_for_is_not_awarded():
    prizes = [*money(100), Prize("Best woman", F(30), category=Category(women=True))]
    result = split(field(2, 1), prizes, PrizeRules())
    assert [p.name for p in result.unawarded] == ["Best woman"]
    assert to_json(result)["unawarded"] == ["Best woman"]


def test_more_place_prizes_than_players():
    result = split(field(1), money(100, 50, 25), PrizeRules())
    assert paid(result) == {"p1": 100}
    assert [p.name for p in result.unawarded] == ["2.", "3."]


def test_categories_age_women_unrated_section_and_list():
    entrants = [
        Entrant("a", "A", F(3), 1, 2100, "1980-01-01", "M"),
        Entrant("b", "B", F(2), 2, None, "2010-05-05", "F", "Open B"),
        Entrant("c", "C", F(1), 3, 1400, "2009", "F"),
    ]
    rules = PrizeRules(one_per_player=False)

    def takers(**cat):
        r = split(entrants, [Prize("x", F(10), category=Category(**cat))], rules)
        return r.awards[0].players if r.awards else ()

    assert takers(born_after="2008-12-31") == ("b",)
    assert takers(born_before="2009-01-01") == ("a",)
    assert takers(women=True) == ("b",)
    assert takers(unrated=True) == ("b",)
    assert takers(rating_from=1300, rating_below=1500) == ("c",)
    assert takers(section="Open B") == ("b",)
    assert takers(players=("c",)) == ("c",)


def test_packs_by_record_and_by_place():
    # Magic: 3 packs to every 4-1 or better (12 match points), and 8 packs to the winner; best of five rounds.
    entrants = field(15, 12, 12, 10, 9)
    prizes = [
        Prize("1st", items=8, unit="packs"),
        Prize("4-1 or better", items=3, unit="packs", category=Category(record="4-1")),
    ]
    result = split(entrants, prizes, PrizeRules(), Scoring())
    first, record = result.awards
    assert first.players == ("p1",) and first.items == (8,)
    assert record.players == ("p1", "p2", "p3") and record.items == (3, 3, 3)
    assert to_json(result)["awards"][1] == {
        "prize": "4-1 or better",
        "players": ["p1", "p2", "p3"],
        "items_each": 3,
        "unit": "packs",
    }


def test_items_shared_are_whole_items_with_the_rest_stated():
    result = split(field(3, 3, 3), [Prize("1st", items=8, unit="packs")], PrizeRules())
    (award,) = result.awards
    assert award.items == (2, 2, 2) and award.items_remainder == 2


points = st.lists(st.integers(0, 6), min_size=1, max_size=14).map(lambda xs: sorted(xs, reverse=True))
amounts = st.lists(st.integers(0, 100_000).map(lambda c: F(c, 100)), min_size=1, max_size=10)


@settings(max_examples=300, deadline=None)
@given(
    points=points,
    places=amounts,
    under=amounts,
    ties=st.sampled_from(("shared", "hort", "tiebreak")),
    one=st.booleans(),
    priority=st.sampled_from(("value", "order")),
    seed=st.randoms(),
)
def test_money_paid_never_exceeds_the_fund_and_adds_up(points, places, under, ties, one, priority, seed):
    entrants = [
        Entrant(f"p{i}", f"P{i}", F(pt), i, rating=seed.choice((None, 1200, 1500, 1800, 2100)))
        for i, pt in enumerate(points)
    ]
    prizes = [Prize(f"{i}.", a) for i, a in enumerate(places)]
    prizes += [Prize(f"U1600 {i}", a, category=Category(rating_below=1600)) for i, a in enumerate(under)]
    seed.shuffle(prizes)
    result = split(entrants, prizes, PrizeRules(ties=ties, one_per_player=one, priority=priority))
    fund = sum((p.amount for p in prizes), F(0))
    awarded = sum((p.amount for a in result.awards for p in a.prizes), F(0))
    total = sum((m for a in result.awards for m in a.money), F(0))
    remainders = sum((a.money_remainder for a in result.awards), F(0))
    assert total <= fund
    assert total + remainders == awarded
    assert awarded + sum((p.amount for p in result.unawarded), F(0)) == fund
    for a in result.awards:
        assert all(m % CENT == 0 and m >= 0 for m in a.money)
        assert 0 <= a.money_remainder < CENT * len(a.players)
    # Every prize is either awarded once or listed as not awarded.
    listed = [id(p) for a in result.awards for p in a.prizes] + [id(p) for p in result.unawarded]
    assert sorted(listed) == sorted(id(p) for p in prizes)
    if one:
        holders = [pid for a in result.awards for pid in a.players]
        assert len(holders) == len(set(holders))
