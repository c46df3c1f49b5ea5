"""Shared by the race tests: a seed's moves worked out with the engine, as a scripted player
who knows the seed (the test loaded the dice that made it) would play them."""

from __future__ import annotations

from app.engines import knikkers as engine

SEED = 20261130


def first_move(game: engine.Game) -> tuple[tuple[int, int], tuple[int, int]]:
    """A legal move on ``game``: the first ball in reading order that can move, to the first
    cell it can reach in reading order."""
    board = game.board
    for r in range(9):
        for c in range(9):
            if board[r][c] is not None:
                reach = game.reachable((r, c))
                if reach:
                    return (r, c), min(reach)
    raise AssertionError("no legal move")


def moves_to_the_end(seed: int, variant: int = 5, limit: int = 200) -> list:
    """``first_move`` again and again from ``seed``'s start until the board is full."""
    game = engine.Game.new(seed, variant)
    moves = []
    while not game.over and len(moves) < limit:
        move = first_move(game)
        game.move(*move)
        moves.append(move)
    assert game.over
    return moves


def cell(rc) -> str:
    """``(r, c)`` as the page's ``"r,c"``."""
    return f"{rc[0]},{rc[1]}"
