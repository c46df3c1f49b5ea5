"""Pure game rules: one module per game, no I/O, no clock, no randomness."""
