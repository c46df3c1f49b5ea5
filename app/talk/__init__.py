"""Talk at the table: quick reactions and a small chat in every room (docs/rules.md, "Talk at
the table"). Apart from the game: no room version, no game event, no basis."""
