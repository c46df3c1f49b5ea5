"""Skill ratings: openskill's Plackett-Luce model over one finished game (docs/rules.md,
"Ratings").

Pure: ``update`` takes the players' current ratings and the game's totals and returns the new
ratings; storing them is ``app.groups.record``'s job. Ties are ties (equal totals share a
rank). Bots are rated as their level: each level has a fixed prior (``BOT_PRIORS``) that is
never updated, so beating a strong bot moves a person up more than beating a casual one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from app.rooms.bots.identity import bot_level

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (openskill's defaults)
PROVISIONAL_GAMES = 10  # a rating over fewer games is shown as provisional
BOT_PRIORS: dict[str, tuple[float, float]] = {"strong": (32.0, 2.0), "casual": (24.0, 2.0)}
"""A bot level's fixed (mu, sigma): "strong" plays the optimal strategy and wins most games
against people; "casual" about as well as a person who plays by feel (docs/rules.md,
"Ratings")."""


@dataclass(frozen=True)
class Skill:
    """One rating: mean ``mu``, uncertainty ``sigma``, ``games`` rated so far."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> float:
        """The number shown: ``mu - 3 * sigma`` (a cautious estimate; 0 for a newcomer)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Fewer than ``PROVISIONAL_GAMES`` games rated."""
        return self.games < PROVISIONAL_GAMES


NEW = Skill(MODEL.mu, MODEL.sigma, 0)


def prior(player_id: str) -> Skill | None:
    """A bot's fixed rating by its level; None for a person."""
    level = bot_level(player_id)
    if level is None:
        return None
    mu, sigma = BOT_PRIORS[level]
    return Skill(mu, sigma, 0)


def ranks_of(totals: Mapping[str, int]) -> dict[str, int]:
    """Competition ranks of ``totals`` (player -> points): 1 + the number of higher totals, so
    equal totals share a rank."""
    return {who: 1 + sum(1 for other in totals.values() if other > points)
            for who, points in totals.items()}


def update(current: Mapping[str, Skill], totals: Mapping[str, int]) -> dict[str, Skill]:
    """The new ratings of the people in one game.

    ``current``: player id -> rating before the game (people only; a missing one is ``NEW``);
    ``totals``: player id -> final points, every seat of the game, bots included. Returns
    player id -> rating after the game for each person (bots keep their prior and are left
    out). A game needs two seats and one person; otherwise nothing changes (an empty dict).
    """
    players = list(totals)
    people = [p for p in players if prior(p) is None]
    if len(players) < 2 or not people:
        return {}
    before = {p: prior(p) or current.get(p, NEW) for p in players}
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in players]
    ranks = ranks_of(totals)
    rated = MODEL.rate(teams, ranks=[float(ranks[p]) for p in players])
    return {p: Skill(team[0].mu, team[0].sigma, before[p].games + 1)
            for p, team in zip(players, rated, strict=True) if p in people}
