"""The Day-2 cut rule (standings/cut.py): who makes Day 2 from the standings order at the cut, ties at the line,
both rules together, divisions cut apart, and the standings as listed once the cut is made."""

from fractions import Fraction as F

from standings.cut import TIES_BREAKERS, TIES_POINTS, CutRule, Standing, cut_standings, made_day_2
from standings.engine import Row, Standings


def order(*points, division=""):
    """Players p1, p2… in rank order with these match points."""
    return [Standing(f"{division}p{k}", F(x), division) for k, x in enumerate(points, 1)]


def test_at_least_x_points_takes_everyone_with_x_or_more():
    made = made_day_2(order(21, 21, 19, F(37, 2), 18), CutRule(points=F(19)))
    assert made == {"p1", "p2", "p3"}


def test_at_least_a_fraction_of_points_is_exact():
    made = made_day_2(order(F(13, 2), F(13, 2), 6), CutRule(points=F(13, 2)))
    assert made == {"p1", "p2"}


def test_top_n_with_ties_by_points_takes_everyone_level_with_the_nth():
    made = made_day_2(order(12, 9, 9, 9, 6), CutRule(top=2, ties=TIES_POINTS))
    assert made == {"p1", "p2", "p3", "p4"}


def test_top_n_with_ties_by_breakers_takes_exactly_n_in_standings_order():
    made = made_day_2(order(12, 9, 9, 9, 6), CutRule(top=2, ties=TIES_BREAKERS))
    assert made == {"p1", "p2"}


def test_top_n_with_no_tie_at_the_line_is_n_either_way():
    for ties in (TIES_POINTS, TIES_BREAKERS):
        assert made_day_2(order(12, 9, 6, 6), CutRule(top=2, ties=ties)) == {"p1", "p2"}


def test_top_n_larger_than_the_field_takes_everyone():
    assert made_day_2(order(3, 0), CutRule(top=8)) == {"p1", "p2"}


def test_both_rules_take_the_larger_group_points_larger():
    # At least 9 points: four players; the top 2: two.
    made = made_day_2(order(12, 9, 9, 9, 6), CutRule(points=F(9), top=2, ties=TIES_BREAKERS))
    assert made == {"p1", "p2", "p3", "p4"}


def test_both_rules_take_the_larger_group_top_larger():
    # At least 12 points: one player; the top 3: three.
    made = made_day_2(order(12, 9, 9, 6, 6), CutRule(points=F(12), top=3, ties=TIES_BREAKERS))
    assert made == {"p1", "p2", "p3"}


def test_nobody_reaching_x_makes_nobody_go_on():
    assert made_day_2(order(6, 3, 0), CutRule(points=F(7))) == set()


def test_divisions_are_cut_each_by_its_own_standings():
    # Paired together, ranked apart: the juniors' top 1 is the best junior, below every senior.
    seniors = order(12, 9, 6, division="s")
    juniors = order(6, 3, 3, division="j")
    interleaved = [seniors[0], seniors[1], seniors[2], juniors[0], juniors[1], juniors[2]]
    assert made_day_2(interleaved, CutRule(top=1)) == {"sp1", "jp1"}
    assert made_day_2(interleaved, CutRule(top=2, ties=TIES_POINTS)) == {"sp1", "sp2", "jp1", "jp2", "jp3"}
    assert made_day_2(interleaved, CutRule(points=F(6))) == {"sp1", "sp2", "sp3", "jp1"}


def row(pid, rank, points, omw=F(1, 3)):
    return Row(rank, pid, pid, F(points), 0, 0, 0, 0, {"omw": omw})


def test_cut_standings_list_day_2_first_then_the_cut_in_their_order_at_the_cut():
    at_cut = Standings(9, ("omw",), (row("a", 1, 21), row("b", 2, 18), row("c", 3, 18), row("d", 4, 15)))
    # After Day 2, cut player c (18 points) outranks Day-2 player d by points, and b's OMW% moved.
    final = Standings(
        12,
        ("omw",),
        (row("a", 1, 27), row("c", 2, 18, F(1, 2)), row("b", 3, 18, F(2, 5)), row("d", 4, 16)),
    )
    shown = cut_standings(final, at_cut, {"b", "c"}, 9)
    assert [(r.player_id, r.rank) for r in shown.rows] == [("a", 1), ("d", 2), ("b", 3), ("c", 4)]
    # Cut players keep their figures at the cut (which decided their place); Day-2 players count every round.
    assert shown.rows[2].tiebreakers["omw"] == F(1, 3)
    assert shown.rows[1].points == 16
    assert (shown.after_round, shown.cut_after, shown.day_2) == (12, 9, 2)


def test_cut_standings_keep_shared_places_shared():
    at_cut = Standings(9, (), (row("a", 1, 9), row("b", 2, 6), row("c", 2, 6), row("d", 4, 3)))
    final = Standings(10, (), (row("a", 1, 12), row("b", 2, 6), row("c", 2, 6), row("d", 4, 3)))
    shown = cut_standings(final, at_cut, {"b", "c", "d"}, 9)
    assert [r.rank for r in shown.rows] == [1, 2, 2, 4]
    assert shown.day_2 == 1
