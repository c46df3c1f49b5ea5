"""Groups: friends who play together keep a standing table, ratings, head-to-head, records
and group evenings (docs/rules.md, "Groups"; docs/architecture.md, "Groups")."""
