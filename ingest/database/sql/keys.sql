-- The keys schema.sql does not declare on its largest tables, checked by unique indexes where a
-- bundle's rows are made (load.py: create_schema(keyed=True)); the database loaded from staged bundles
-- goes without them (schema.sql, above the intervals table, says why).
CREATE UNIQUE INDEX intervals_key ON intervals (study, artifact, t_s);
