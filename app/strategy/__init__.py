"""Kniffel-family strategy tables: on disk, loaded on demand, built in the background."""
