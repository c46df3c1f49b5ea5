"""Rooms: seats, hosts, the per-room action service and the game plug-ins."""
