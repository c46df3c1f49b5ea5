"""Knobel's test suite; folders mirror app/."""
