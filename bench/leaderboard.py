"""Knikkers leaderboard benchmark on Postgres: 1,000,000 finished games over 100,000 players.

    .venv/bin/python bench/leaderboard.py \
        [--database-url postgresql://postgres@127.0.0.1:5432/knobel_bench] \
        [--games 1000000] [--players 100000] [--runs 200] [--writes 500] [--refill]

1. Creates the database when missing and migrates it (Alembic, up to ``k001``).
2. Fills it (skipped when it already holds ``--games`` scores, unless ``--refill``) with
   ``generate_series`` SQL: players, ``games`` rows, ``knikkers_scores``, and ``knikkers_bests``
   derived by the same rule the app applies on every finish (per variant, board and player the
   highest score, the earlier game on a tie; boards ``all``, ``month:``, ``week:``, ``day:``,
   ``daily:``) and ``knikkers_score_counts`` (players per best score). Then it finishes
   ``--writes`` more games through the app's own write path (``ranking.raise_bests``) and checks
   the bests against a recomputation for those players, and the counts against the bests.
3. Times the app's own queries (``app.knikkers.leaderboard``, through SQLAlchemy + asyncpg, warm
   cache) and the naive ``DISTINCT ON`` + ``rank()`` for comparison; prints median / p95 ms and
   ``EXPLAIN (ANALYZE, BUFFERS)`` of each statement as the app sends it.

Goals (issue 6): top-50 of a variant (per-player best) <= 5 ms, one player's rank <= 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
from sqlalchemy import event, func, select
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.knikkers import leaderboard, ranking  # noqa: E402
from app.knikkers.leaderboard import Board  # noqa: E402
from app.settings import normalise_database_url  # noqa: E402
from app.store.db import Database  # noqa: E402
from app.store.models import Game, KnikkersScore  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/knobel_bench"

FILL_SQL = [
    "SET work_mem = '256MB'",
    "SET maintenance_work_mem = '512MB'",
    "TRUNCATE knikkers_score_counts, knikkers_bests, knikkers_scores, game_events, games, players "
    "RESTART IDENTITY CASCADE",
    "SELECT setseed(0.4242)",
    """INSERT INTO players (id, name, knikkers_variant, created_at)
       SELECT md5('bench-player-' || i), 'Player ' || i, 5, now() - interval '420 days'
       FROM generate_series(1, {players}) AS i""",
    # players are skewed (a few play a lot); scores roughly log-normal, even, 0..~8000;
    # 70% of games in the 5-variant, 10% are daily games; finished over the last 400 days.
    """CREATE TEMP TABLE bench_src AS
       SELECT g AS id,
              md5('bench-player-' || (1 + floor({players} * power(random(), 2))::int)) AS pid,
              CASE WHEN random() < 0.7 THEN 5 ELSE 4 END AS variant,
              now() - random() * interval '400 days' AS finished_at,
              2 * floor(exp(3.9 + 0.95 * sqrt(-2 * ln(1 - random()))
                            * cos(2 * pi() * random())))::int AS score,
              random() < 0.1 AS is_daily
       FROM generate_series(1, {games}) AS g""",
    """INSERT INTO games (id, room_id, player_id, number, kind, options, seat_ids, seed, status,
                          result, started_at, finished_at)
       SELECT id, NULL, pid, 1, 'knikkers',
              json_build_object('min_line', variant, 'daily',
                                CASE WHEN is_daily THEN (finished_at AT TIME ZONE 'UTC')::date::text
                                END),
              '[]'::json, id, 'finished', json_build_object('score', score),
              finished_at - interval '6 minutes', finished_at
       FROM bench_src""",
    "SELECT setval(pg_get_serial_sequence('games', 'id'), {games})",
    """INSERT INTO knikkers_scores (game_id, player_id, variant, daily, score, moves, lines,
                                   finished_at, duration_s)
       SELECT id, pid, variant,
              CASE WHEN is_daily THEN (finished_at AT TIME ZONE 'UTC')::date END,
              score, 25 + score / 4, score / 12, finished_at, 360
       FROM bench_src""",
    # the app's rule, set-based: per (variant, board, player) the best score, earlier on a tie
    """INSERT INTO knikkers_bests (variant, board, player_id, score, finished_at, game_id, moves,
                                  lines)
       SELECT DISTINCT ON (s.variant, b.board, s.player_id)
              s.variant, b.board, s.player_id, s.score, s.finished_at, s.game_id, s.moves, s.lines
       FROM knikkers_scores s
       CROSS JOIN LATERAL (VALUES
           ('all'),
           ('month:' || date_trunc('month', s.finished_at AT TIME ZONE 'UTC')::date),
           ('week:' || date_trunc('week', s.finished_at AT TIME ZONE 'UTC')::date),
           ('day:' || (s.finished_at AT TIME ZONE 'UTC')::date),
           ('daily:' || s.daily)) AS b(board)
       WHERE b.board IS NOT NULL
       ORDER BY s.variant, b.board, s.player_id, s.score DESC, s.finished_at, s.game_id""",
    """INSERT INTO knikkers_score_counts (variant, board, score, players)
       SELECT variant, board, score, count(*) FROM knikkers_bests GROUP BY variant, board, score""",
    "DROP TABLE bench_src",
]

NAIVE_BEST = """
    SELECT DISTINCT ON (player_id) player_id, score, finished_at
    FROM knikkers_scores WHERE variant = $1
    ORDER BY player_id, score DESC, finished_at"""
NAIVE_TOP = f"""
    SELECT player_id, score, rank() OVER (ORDER BY score DESC) AS rank
    FROM ({NAIVE_BEST}) AS best ORDER BY score DESC, finished_at LIMIT 50"""
NAIVE_RANK = f"""
    SELECT rank FROM (SELECT player_id, rank() OVER (ORDER BY score DESC) AS rank
                      FROM ({NAIVE_BEST}) AS best) AS ranked
    WHERE player_id = $2"""


def asyncpg_dsn(url: str) -> str:
    """A plain ``postgresql://`` DSN for asyncpg."""
    return make_url(normalise_database_url(url)).set(drivername="postgresql").render_as_string(
        hide_password=False
    )


async def ensure_database(url: str) -> None:
    """Create the database of ``url`` when it does not exist."""
    dsn = make_url(asyncpg_dsn(url))
    admin = await asyncpg.connect(dsn.set(database="postgres").render_as_string(False))
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1",
                                      dsn.database)
        if not exists:
            await admin.execute(f'CREATE DATABASE "{dsn.database}"')
            print(f"created database {dsn.database}")
    finally:
        await admin.close()


def migrate(url: str) -> None:
    """Alembic upgrade to ``k001`` (and everything it needs)."""
    from alembic import command
    from alembic.config import Config

    root = Path(__file__).resolve().parent.parent
    cfg = Config(str(root / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", normalise_database_url(url).replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "k001")


async def fill(conn: asyncpg.Connection, games: int, players: int) -> None:
    """Run ``FILL_SQL``, then ``VACUUM ANALYZE``; prints each step's time."""
    for sql in FILL_SQL:
        started = time.perf_counter()
        await conn.execute(sql.format(games=games, players=players))
        print(f"  {time.perf_counter() - started:7.1f} s  {' '.join(sql.split())[:70]}")
    started = time.perf_counter()
    await conn.execute("VACUUM ANALYZE")
    print(f"  {time.perf_counter() - started:7.1f} s  VACUUM ANALYZE")


async def app_writes(db: Database, count: int) -> tuple[list[float], list[str]]:
    """Finish ``count`` more games through the app's write path (score row + bests upsert,
    one transaction each, as ``ranking.finish`` does); returns latencies (ms) and players."""
    now = datetime.now(UTC)
    rng = random.Random(7)
    latencies, players = [], []
    async with db.sessionmaker() as session:
        pids = (await session.execute(
            select(KnikkersScore.player_id).where(KnikkersScore.game_id <= 5000)
        )).scalars().all()
    for i in range(count):
        pid = rng.choice(pids)
        score = 2 * rng.randrange(1, 4000)
        started = time.perf_counter()
        async with db.sessionmaker() as session:
            row = Game(kind="knikkers", player_id=pid, options={"min_line": 5, "daily": None},
                       seat_ids=[], seed=i, status="finished", result={"score": score},
                       started_at=now, finished_at=now)
            session.add(row)
            await session.flush()
            result = {"score": score, "moves": 30, "lines": 3}
            session.add(KnikkersScore(game_id=row.id, player_id=pid, variant=5, daily=None,
                                      score=score, moves=30, lines=3, finished_at=now,
                                      duration_s=300))
            await ranking.raise_bests(session, pid, 5, None, row.id, result, now)
            await session.commit()
        latencies.append((time.perf_counter() - started) * 1000)
        players.append(pid)
    return latencies, players


CHECK_SQL = """
    WITH expected AS (
      SELECT DISTINCT ON (s.variant, b.board, s.player_id)
             s.variant, b.board, s.player_id, s.score, s.game_id
      FROM knikkers_scores s
      CROSS JOIN LATERAL (VALUES
          ('all'), ('month:' || date_trunc('month', s.finished_at AT TIME ZONE 'UTC')::date),
          ('week:' || date_trunc('week', s.finished_at AT TIME ZONE 'UTC')::date),
          ('day:' || (s.finished_at AT TIME ZONE 'UTC')::date), ('daily:' || s.daily)) b(board)
      WHERE b.board IS NOT NULL AND s.player_id = ANY($1::text[])
      ORDER BY s.variant, b.board, s.player_id, s.score DESC, s.finished_at, s.game_id)
    SELECT count(*) FROM expected e
    FULL JOIN (SELECT * FROM knikkers_bests WHERE player_id = ANY($1::text[])) k
      USING (variant, board, player_id)
    WHERE e.score IS DISTINCT FROM k.score"""


COUNTS_CHECK_SQL = """
    SELECT count(*) FROM (
      SELECT variant, board, score, count(*) AS players FROM knikkers_bests
      GROUP BY variant, board, score) b
    FULL JOIN (SELECT * FROM knikkers_score_counts WHERE players <> 0) c
      USING (variant, board, score)
    WHERE b.players IS DISTINCT FROM c.players"""


class Capture:
    """Remembers the last SQL statement (and parameters) the app's engine sent."""

    def __init__(self, db: Database) -> None:
        self.statements: list[tuple[str, tuple]] = []

        @event.listens_for(db.engine.sync_engine, "before_cursor_execute")
        def _seen(conn, cursor, statement, parameters, context, executemany):
            self.statements.append((statement, tuple(parameters or ())))


def stats_ms(samples: list[float]) -> str:
    """``median / p95 / max`` in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms   "
            f"max {ordered[-1]:7.2f} ms")


async def timed(runs: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    """Run ``call(i)`` 5 times to warm up, then ``runs`` times; return the latencies (ms)."""
    for i in range(5):
        await call(i)
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        await call(i)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def explain(conn: asyncpg.Connection, sql: str, params: tuple) -> str:
    """``EXPLAIN (ANALYZE, BUFFERS)`` of one statement, as text."""
    rows = await conn.fetch("EXPLAIN (ANALYZE, BUFFERS) " + sql, *params)
    return "\n".join("      " + r[0] for r in rows)


async def main() -> None:
    """Parse the arguments, make and fill the database when needed, then report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument("--refill", action="store_true")
    args = parser.parse_args()

    await ensure_database(args.database_url)
    await asyncio.to_thread(migrate, args.database_url)
    conn = await asyncpg.connect(asyncpg_dsn(args.database_url))
    db = Database(normalise_database_url(args.database_url))
    try:
        have = await conn.fetchval("SELECT count(*) FROM knikkers_scores")
        complete = await conn.fetchval("SELECT count(*) > 0 FROM knikkers_score_counts")
        if args.refill or have < args.games or not complete:  # counts are filled last
            print(f"filling: {args.games:,} games over {args.players:,} players")
            await fill(conn, args.games, args.players)
            latencies, players = await app_writes(db, args.writes)
            print(f"app write path (finish: score row + bests upsert, commit) x{args.writes}: "
                  f"{stats_ms(latencies)}")
            bad = await conn.fetchval(CHECK_SQL, sorted(set(players)))
            print(f"bests after app writes match a recomputation: {bad == 0} ({bad} differ)")
            bad = await conn.fetchval(COUNTS_CHECK_SQL)
            print(f"score counts match the bests: {bad == 0} ({bad} differ)")
            await conn.execute("VACUUM ANALYZE knikkers_bests, knikkers_scores, "
                               "knikkers_score_counts")
        sizes = await conn.fetch(
            "SELECT relname, n_live_tup, pg_size_pretty(pg_total_relation_size(relid)) AS size "
            "FROM pg_stat_user_tables WHERE relname LIKE 'knikkers%' OR relname = 'games' "
            "ORDER BY relname")
        print("tables:", ", ".join(f"{r['relname']} {r['n_live_tup']:,} rows {r['size']}"
                                   for r in sizes))
        await report(conn, db, args.runs)
    finally:
        await conn.close()
        await db.dispose()


async def report(conn: asyncpg.Connection, db: Database, runs: int) -> None:
    """Time every leaderboard query and print its plan."""
    now = datetime.now(UTC)
    capture = Capture(db)
    boards = {p: Board.for_period(5, p, now) for p in ("all", "month", "week", "today")}
    async with db.sessionmaker() as session:
        pids = (await session.execute(
            select(KnikkersScore.player_id).where(KnikkersScore.variant == 5)
            .order_by(func.random()).limit(runs + 5)
        )).scalars().all()
        worst = (await conn.fetchrow(
            "SELECT player_id FROM knikkers_bests WHERE variant = 5 AND board = 'all' "
            "ORDER BY score, finished_at DESC LIMIT 1"))["player_id"]
        deep = await leaderboard.page(session, boards["all"], limit=5000)
        cursor = leaderboard.encode_cursor(deep.entries[-1], "players")

        cases: list[tuple[str, Callable[[int], Awaitable[object]]]] = [
            ("top-50, per-player best, all time",
             lambda i: leaderboard.page(session, boards["all"])),
            ("top-50, per-player best, this month",
             lambda i: leaderboard.page(session, boards["month"])),
            ("top-50, per-player best, today",
             lambda i: leaderboard.page(session, boards["today"])),
            ("one player's rank, all time (random players)",
             lambda i: leaderboard.own_entry(session, boards["all"], pids[i % len(pids)])),
            ("one player's rank, all time (worst case: the lowest score)",
             lambda i: leaderboard.own_entry(session, boards["all"], worst)),
            ("one player's rank, this month (random players)",
             lambda i: leaderboard.own_entry(session, boards["month"], pids[i % len(pids)])),
            ("top-50, all games, all time",
             lambda i: leaderboard.page(session, boards["all"], mode="games")),
            ("top-50, all games, this month",
             lambda i: leaderboard.page(session, boards["month"], mode="games")),
            ("keyset page after rank ~5000, per-player best (page + 2 rank counts)",
             lambda i: leaderboard.page(session, boards["all"], after=cursor)),
            ("whole page as served: top-50 + viewer's own row and rank",
             lambda i: leaderboard.page(session, boards["all"], viewer=pids[i % len(pids)])),
        ]
        results = []
        for name, call in cases:
            samples = await timed(runs, call)
            capture.statements.clear()
            await call(0)
            results.append((name, samples, list(capture.statements)))

    naive_pid = pids[0]
    naive_top = await timed(max(5, runs // 20), lambda i: conn.fetch(NAIVE_TOP, 5))
    naive_rank = await timed(max(5, runs // 20), lambda i: conn.fetch(NAIVE_RANK, 5, naive_pid))

    print("\n== timings (warm cache) ==")
    for name, samples, _ in results:
        print(f"  {name:<72} {stats_ms(samples)}")
    print(f"  {'naive DISTINCT ON + rank(): top-50':<72} {stats_ms(naive_top)}")
    print(f"  {'naive DISTINCT ON + rank(): one player rank':<72} {stats_ms(naive_rank)}")

    print("\n== EXPLAIN (ANALYZE, BUFFERS), statements as the app sends them ==")
    for name, _samples, statements in results:
        print(f"\n-- {name}")
        for sql, params in statements:
            print("   " + " ".join(sql.split()))
            print(f"   params: {params}")
            print(await explain(conn, sql, params))
    print("\n-- naive DISTINCT ON + rank(): top-50")
    print(await explain(conn, NAIVE_TOP, (5,)))
    print("\n-- naive DISTINCT ON + rank(): one player's rank")
    print(await explain(conn, NAIVE_RANK, (5, naive_pid)))


if __name__ == "__main__":
    asyncio.run(main())
