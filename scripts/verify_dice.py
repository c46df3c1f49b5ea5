#!/usr/bin/env python3
"""Recompute every die of a finished Knobel room game from its revealed seed (docs/dice.md).

Usage::

    python3 scripts/verify_dice.py https://knobel.example/r/KX7Q2M/games/1.json
    python3 scripts/verify_dice.py game.json

Python's standard library only: it reads the game's public JSON, checks that the seed's
SHA-256 is the commitment shown during the game, works out where each thrown die sits (turn,
throw, slot) from the logged events alone, and recomputes its face:

    face = 1 + int.from_bytes(HMAC-SHA256(seed, f"{game}:{turn}:{throw}:{slot}"), "big") % 6

Exit status: 0 when every throw matches, 1 when one does not (each is named), 2 when the game
is not over yet (no seed) or the file cannot be read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
import urllib.request

FUNCTION = "knobel-dice-1"
BOXES = {"kniffel": 13, "kitkniff": 13, "yatzy": 15}  # boxes per column of each rule set
DICE = 5


def face(seed: str, game: str, turn: int, throw: int, slot: int) -> int:
    """The face 1..6 of die ``slot`` in throw ``throw`` of turn ``turn`` of ``game``."""
    message = f"{game}:{turn}:{throw}:{slot}".encode("ascii")
    digest = hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest()
    return 1 + int.from_bytes(digest, "big") % 6


def knister_throws(record):
    """Knister: roll k of the game (the dice on screen) is turn k, throw 1, slots 0 and 1."""
    rolls = 0
    for event in record["events"]:
        payload = event["payload"]
        if event["type"] != "roll" or "dice" not in payload or payload.get("entered") \
                or payload.get("corrects"):
            continue
        rolls += 1
        yield rolls, 1, (0, 1), event["seat"], list(payload["dice"])


def kniffel_throws(record):
    """The Kniffel family: the turn counts from 1, one more after each filled box and after
    the player on turn leaves; the throw counts the turn's rolls from 1; the slots thrown
    are the places 0..4 of the dice not held (all five in a turn's first throw)."""
    order = list(record["order"])
    per_seat = BOXES[record["kind"]] * int(record["options"].get("columns", 1))
    scores = dict.fromkeys(order, 0)
    left = set()
    state = {"current": order[0] if order else None, "turn": 1, "rolls": 0,
             "held": [False] * DICE}

    def next_turn(after):
        start = order.index(after)
        ring = order[start + 1:] + order[:start + 1]
        state["current"] = next((s for s in ring if s not in left and scores[s] < per_seat),
                                None)
        state.update(turn=state["turn"] + 1, rolls=0, held=[False] * DICE)

    for event in record["events"]:
        kind, seat, payload = event["type"], event["seat"], event["payload"]
        if kind == "roll" and payload.get("entered"):
            continue
        if kind == "roll":
            held = state["held"]
            slots = tuple(range(DICE)) if state["rolls"] == 0 else \
                tuple(i for i in range(DICE) if not held[i])
            state["rolls"] += 1
            yield state["turn"], state["rolls"], slots, seat, [payload["dice"][i] for i in slots]
        elif kind == "hold":
            state["held"][int(payload["die"])] = bool(payload["held"])
        elif kind == "score":
            scores[seat] += 1
            next_turn(seat)
        elif kind == "leave":
            left.add(seat)
            if seat == state["current"]:
                next_turn(seat)


def check(record) -> tuple[int, list[str]]:
    """(throws checked, problems found) for a game's public JSON ``record``."""
    if record.get("function") != FUNCTION:
        return 0, [f"unknown dice function {record.get('function')!r}"]
    seed = record["seed"]
    problems = []
    if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != record["commitment"]:
        problems.append("the seed's SHA-256 is not the commitment shown during the game")
    game = record["game"]  # <room>-<number>; daily-<kind>-<day> for a daily challenge
    throws = knister_throws(record) if record["kind"] == "knister" else kniffel_throws(record)
    count = 0
    for turn, throw, slots, seat, logged in throws:
        count += 1
        expected = [face(seed, game, turn, throw, slot) for slot in slots]
        if expected != logged:
            problems.append(f"turn {turn} throw {throw} (seat {seat}, dice {list(slots)}): "
                            f"logged {logged}, the seed gives {expected}: does not match")
    return count, problems


def load(source: str):
    """The JSON record at ``source``: an http(s) URL or a file path."""
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as answer:  # noqa: S310 (the user's URL)
            return json.load(answer)
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0])
        print("usage: verify_dice.py <url or file of /r/<code>/games/<n>.json>")
        return 2
    try:
        record = load(argv[1])
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[1]}: {exc}")
        return 2
    if not record.get("seed"):
        print("the game is not over: its seed is not revealed yet "
              f"(commitment {record.get('commitment')})")
        return 2
    count, problems = check(record)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {count} throws")
        return 1
    print(f"all {count} throws match (seed {record['seed']}, commitment {record['commitment']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
