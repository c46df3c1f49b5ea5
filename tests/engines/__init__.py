"""Tests for the pure game engines in app.engines."""
