"""Ratings (app/groups/ratings.py): openskill's Plackett-Luce update of a 3-player game with a
tie, worked out by hand from the model's formulas, against the library's; bots keep their
level's prior; over a simulated season a stronger level ends rated higher."""

from __future__ import annotations

import math
import random

from app.engines.knister import KnisterRules, score_grid
from app.engines.knister_bot import choose_cell
from app.groups.ratings import BOT_PRIORS, NEW, Skill, prior, ranks_of, update

A, B, C = "a" * 32, "b" * 32, "c" * 32


def _by_hand(mus: list[float], sigmas: list[float], ranks: list[int]) -> list[tuple]:
    """Weng-Lin's Plackett-Luce update (Algorithm 4 of "A Bayesian Approximation Method for
    Online Ranking", 2011) with openskill's defaults: beta = 25/6, tau = 25/300 (added to
    sigma before the update), kappa = 0.0001, gamma = sigma / c; a tie shares a rank, and
    each term is divided by the number of teams at that rank (A_q)."""
    beta, tau, kappa = 25 / 6, 25 / 300, 0.0001
    var = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in var))
    e = [math.exp(m / c) for m in mus]
    n = len(mus)
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a_q = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            quotient = e[i] / sum_q[q]
            omega += ((1 if i == q else 0) - quotient) / a_q[q]
            delta += quotient * (1 - quotient) / a_q[q]
        gamma = math.sqrt(var[i]) / c
        mu = mus[i] + var[i] / c * omega
        sigma = math.sqrt(var[i]) * math.sqrt(max(1 - gamma * var[i] / c ** 2 * delta, kappa))
        out.append((mu, sigma))
    return out


def test_three_newcomers_with_two_sharing_first_place():
    rated = update({}, {A: 120, B: 120, C: 80})
    # by hand: sigma^2 = 69.4514, c = sqrt(3 (69.4514 + 17.3611)) = 16.1381; all e equal:
    # the two winners get omega = (1 - 1/3)/2 - (1/3)/2 = 1/6, the last -2 (1/3)/2 = -1/3;
    # times sigma^2 / c = 4.3035: +0.7173 and -1.4345
    assert round(rated[A].mu, 4) == round(rated[B].mu, 4) == 25.7173
    assert round(rated[C].mu, 4) == 23.5655
    assert round(rated[A].sigma, 4) == round(rated[C].sigma, 4) == 8.2052
    expected = _by_hand([25.0] * 3, [25 / 3] * 3, [1, 1, 2])
    for who, (mu, sigma) in zip((A, B, C), expected, strict=True):
        assert math.isclose(rated[who].mu, mu, abs_tol=1e-9)
        assert math.isclose(rated[who].sigma, sigma, abs_tol=1e-9)
        assert rated[who].games == 1


def test_players_with_history_and_a_tie_for_last():
    before = {A: Skill(30.0, 5.0, 12), B: Skill(22.0, 7.0, 3), C: Skill(27.0, 6.0, 9)}
    rated = update(before, {A: 50, B: 10, C: 10})
    expected = _by_hand([30.0, 22.0, 27.0], [5.0, 7.0, 6.0], [1, 2, 2])
    for who, (mu, sigma) in zip((A, B, C), expected, strict=True):
        assert math.isclose(rated[who].mu, mu, abs_tol=1e-9)
        assert math.isclose(rated[who].sigma, sigma, abs_tol=1e-9)
    assert [rated[w].games for w in (A, B, C)] == [13, 4, 10]
    assert rated[A].provisional is False and rated[B].provisional is True


def test_bots_keep_their_prior_and_beating_a_strong_bot_counts_more():
    strong, casual = "bot-s-0000000000000001", "bot-c-0000000000000002"
    assert prior(strong) == Skill(*BOT_PRIORS["strong"]) and prior(A) is None
    over_strong = update({}, {A: 100, strong: 90})
    over_casual = update({}, {A: 100, casual: 90})
    assert set(over_strong) == {A}  # the bot is not rated
    assert over_strong[A].mu > over_casual[A].mu > NEW.mu
    expected = _by_hand([25.0, 32.0], [25 / 3, 2.0], [1, 2])
    assert math.isclose(over_strong[A].mu, expected[0][0], abs_tol=1e-9)


def test_nothing_is_rated_without_an_opponent_or_a_person():
    assert update({}, {A: 100}) == {}
    assert update({}, {"bot-s-0000000000000001": 1, "bot-c-0000000000000002": 2}) == {}
    assert ranks_of({A: 5, B: 5, C: 1}) == {A: 1, B: 1, C: 3}


def test_a_season_of_simulated_games_rates_the_stronger_level_higher():
    """Two people who play like the strong and the casual bot (Kniffel totals drawn around
    the levels' measured means, bench/README.md "Bots": strong about 25 points better) and a
    third player meet 60 times; the stronger ends rated higher, and over the casual player."""
    rng = random.Random(20261201)
    strong, casual, third = A, B, C
    ratings: dict[str, Skill] = {}
    for _ in range(60):
        totals = {strong: round(rng.gauss(245, 35)), casual: round(rng.gauss(220, 35)),
                  third: round(rng.gauss(220, 35))}
        ratings.update(update(ratings, totals))
    assert ratings[strong].shown > ratings[casual].shown
    assert ratings[strong].mu > ratings[third].mu
    assert ratings[strong].games == 60 and not ratings[strong].provisional


def _knister_total(level: str, dice: random.Random, choices: random.Random) -> int:
    """One Knister sheet played by the bot ``level`` on the rolls ``dice`` draws (docs/rules.md,
    "Knister"; straight without 7: 10 points)."""
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    for rolls_done in range(25):
        value = dice.randint(1, 6) + dice.randint(1, 6)
        r, c = choose_cell(grid, value, rolls_done, 10, choices, level=level)
        grid[r][c] = value
    return score_grid(grid, KnisterRules(straight_without_seven=10)).total


def test_a_season_of_knister_bot_games_rates_the_strong_level_above_the_casual():
    """A season of 16 Knister games between the bot levels themselves, each seat rated as an
    unknown player (not by its fixed prior): the strong level ends rated above both casual
    seats, which is the order of the levels' fixed priors."""
    seats = {A: "strong", B: "casual", C: "casual"}
    ratings: dict[str, Skill] = {}
    for game in range(16):
        totals = {who: _knister_total(level, random.Random(game), random.Random(f"{game}{who}"))
                  for who, level in seats.items()}
        ratings.update(update(ratings, totals))
    assert ratings[A].mu > max(ratings[B].mu, ratings[C].mu)
    assert BOT_PRIORS["strong"][0] > BOT_PRIORS["casual"][0]
