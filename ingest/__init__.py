"""benchdb ingestion: validation, DuckDB loading, export and the site build."""
