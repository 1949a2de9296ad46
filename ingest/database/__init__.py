"""The bundles loaded into DuckDB: the tables (sql/), the run-quality grades, and the staging of validated bundles in a cache that a build loads its database from."""
