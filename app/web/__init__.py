"""Web layer: page routes, templates, request dependencies."""
