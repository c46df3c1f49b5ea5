"""Looking back and ahead at Kniffel-family games: hints for the player on turn, the analysis
of finished games, their review pages and every player's history of room games
(docs/rules.md, "Hints and game analysis")."""
