"""A number in a URL path beyond the database's integer columns is refused (422) before it
reaches the database, on SQLite and Postgres (schemathesis found
``/daily/s/9223372036854775808`` answered with a 500: SQLite's ``OverflowError``). Every
route whose path holds a row id or a game number (``app/web/ids.py``)."""

from __future__ import annotations

import pytest

HUGE = ("2147483648", "9223372036854775808", "0")
PATHS = (
    "/daily/s/{n}", "/daily/s/{n}.png",
    "/r/ABCDEFGH/games/{n}.json", "/r/ABCDEFGH/games/{n}/verify",
    "/r/ABCDEFGH/games/{n}/accuracy", "/r/ABCDEFGH/games/{n}/review",
    "/knikkers/games/{n}", "/knikkers/games/{n}/state", "/knikkers/games/{n}/replay",
)


@pytest.mark.parametrize("path", PATHS)
def test_a_number_out_of_range_is_refused_not_looked_up(client, path: str) -> None:
    for n in HUGE:
        r = client.get(path.format(n=n))
        assert r.status_code == 422, (path, n, r.status_code)


def test_a_number_in_range_that_names_nothing_is_not_found(client) -> None:
    for path in ("/daily/s/{n}", "/daily/s/{n}.png", "/knikkers/games/{n}/replay"):
        assert client.get(path.format(n=2**31 - 1)).status_code == 404, path
