"""Helpers shared by the tests: databases, servers, browsers."""
