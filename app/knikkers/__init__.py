"""Knikkers as a product: server-verified single-player games over the event log, ranked
leaderboards per variant, the daily game, player statistics and the replay viewer.

The rules are in ``app.engines.knikkers`` (pure); this package stores, verifies and ranks.
"""
