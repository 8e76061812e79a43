"""The rating engine against the Weng–Lin Plackett–Luce update worked by hand (Weng & Lin 2011, Algorithm 4).

The reference below is the paper's formulas written out plainly, independent of the library: with
c² = Σ(σᵢ² + β²), C_q = {s: r(s) ≥ r(q)}, A_q = |{s: r(s) = r(q)}| and pᵢ,q = exp(μᵢ/c) / Σ_{s∈C_q} exp(μ_s/c),
  μᵢ ← μᵢ + σᵢ²/c · Σ_{q: r(q) ≤ r(i)} (δ_{q,i} − pᵢ,q) / A_q
  σᵢ² ← σᵢ² · max(1 − γᵢ σᵢ²/c² · Σ_{q: r(q) ≤ r(i)} pᵢ,q (1 − pᵢ,q) / A_q, κ),  γᵢ = σᵢ / c,
after σ² += τ² (additive dynamics). Players tied on a place count as neither beating the other (A_q).
"""
import math

import pytest

from engines.ratings import INITIAL, MODEL, PROVISIONAL_GAMES, Rating, Table, rate_table, replay


def weng_lin_pl(priors: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    beta2, tau2, kappa = MODEL.beta ** 2, MODEL.tau ** 2, MODEL.kappa
    var = [sigma * sigma + tau2 for _mu, sigma in priors]
    mus = [mu for mu, _sigma in priors]
    c = math.sqrt(sum(v + beta2 for v in var))
    e = [math.exp(mu / c) for mu in mus]
    n = len(priors)
    sums = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    tied = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = e[i] / sums[q]
                omega += ((1.0 if q == i else 0.0) - p) / tied[q]
                delta += p * (1 - p) / tied[q]
        gamma = math.sqrt(var[i]) / c
        mu = mus[i] + var[i] / c * omega
        sigma = math.sqrt(var[i] * max(1 - gamma * var[i] / c ** 2 * delta, kappa))
        out.append((mu, sigma))
    return out


def test_four_player_table_of_newcomers_matches_the_hand_computed_update():
    # Equal priors: every exp(μ/c) is the same, so p at the q-th place is 1/(5 − q) and the sums are fractions:
    # Ω = 3/4, 5/12, −1/12, −13/12 for places 1–4; Σ p(1−p) = 3/16, 3/16 + 2/9, … ; σ²/c = 69.45139 / 18.63465;
    # the last place adds p(1 − p) = 0 (it is alone in C_4), so 3rd and 4th end equally sure.
    var = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(4 * (var + (25 / 6) ** 2))
    assert c == pytest.approx(18.634645, abs=1e-6)
    omegas = [3 / 4, 5 / 12, -1 / 12, -13 / 12]
    spreads = [3 / 16, 3 / 16 + 2 / 9, 3 / 16 + 2 / 9 + 1 / 4, 3 / 16 + 2 / 9 + 1 / 4 + 0]
    hand = [(25 + var / c * omega, math.sqrt(var * (1 - math.sqrt(var) / c * var / c ** 2 * spread)))
            for omega, spread in zip(omegas, spreads)]
    assert [round(mu, 4) for mu, _ in hand] == [27.7953, 26.5529, 24.6894, 20.9624]
    assert [round(sigma, 4) for _, sigma in hand] == [8.2636, 8.1796, 8.0841, 8.0841]

    changes = rate_table(Table("k", ((11, 1), (12, 2), (13, 3), (14, 4))), {})
    for change, (mu, sigma) in zip(changes, hand):
        assert change.after.mu == pytest.approx(mu, abs=1e-9)
        assert change.after.sigma == pytest.approx(sigma, abs=1e-9)
        assert change.before == INITIAL and change.after.games == 1
    reference = weng_lin_pl([(25, 25 / 3)] * 4, [1, 2, 3, 4])
    assert [x for c in changes for x in (c.after.mu, c.after.sigma)] == pytest.approx(
        [x for pair in reference for x in pair], abs=1e-12)


def test_three_player_table_with_a_tie_matches_the_paper_and_shares_the_tied_change():
    priors = {1: Rating(30.0, 5.0, 12), 2: Rating(22.0, 7.0, 3), 3: Rating(26.0, 6.0, 20)}
    table = Table("k", ((1, 2), (2, 1), (3, 2)))  # player 2 won; 1 and 3 tied for second (equal VP)
    changes = rate_table(table, priors)
    expected = weng_lin_pl([(30.0, 5.0), (22.0, 7.0), (26.0, 6.0)], [2, 1, 2])
    for change, (mu, sigma) in zip(changes, expected):
        assert change.after.mu == pytest.approx(mu, abs=1e-9)
        assert change.after.sigma == pytest.approx(sigma, abs=1e-9)
    one, two, three = changes
    assert two.after.mu > 22.0 and one.after.mu < 30.0  # the underdog's win moves them up, the favourite down
    assert [c.after.games for c in changes] == [13, 4, 21]


def test_players_tied_on_a_place_with_equal_ratings_end_equal():
    changes = rate_table(Table("k", ((1, 1), (2, 2), (3, 2), (4, 4))), {})
    assert changes[1].after == changes[2].after
    assert changes[0].after.mu > changes[1].after.mu > changes[3].after.mu


def test_same_tables_same_ratings_whatever_the_seat_order():
    tables = [Table(f"{n:03}", tuple(sorted(((n % 7) + p, p) for p in (1, 2, 3, 4)))) for n in range(50)]
    first, second = {}, {}
    list(replay(tables, first))
    list(replay(tables, second))
    assert first == second
    reordered = rate_table(Table("x", ((3, 2), (1, 1), (2, 3))), {})
    ordered = rate_table(Table("x", ((1, 1), (2, 3), (3, 2))), {})
    assert {c.player: c.after for c in reordered} == {c.player: c.after for c in ordered}


def test_provisional_until_enough_games():
    assert Rating(25, 8, PROVISIONAL_GAMES - 1).provisional
    assert not Rating(25, 8, PROVISIONAL_GAMES).provisional
    assert Rating(30, 2).ordinal == pytest.approx(24)
