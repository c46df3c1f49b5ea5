"""Guest players: identity from the session cookie, display names."""
