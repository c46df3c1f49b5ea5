"""Daily challenges (docs/rules.md, "Daily challenges"): one set of dice per game and UTC
day for everyone, played alone in a solo room whose dice come from the day's seed
(docs/dice.md); the first attempt of each player is ranked; par is the strong bot's score on
the same dice."""
