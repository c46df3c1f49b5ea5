"""Storage: SQLAlchemy models, the database engine, and the event log."""
