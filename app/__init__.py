"""Knobel: live multiplayer Dutch and German table games."""
