-- The published shape: one row per value, with the facets of the system it was measured on.
-- Its columns are the fields of schema/fields.yaml, put in place of the braces below.

-- Buffer pool over the stated data size: derived, approximate, four places.
CREATE MACRO buffer_pool_to_data(pool_mib, data_gb) AS round(pool_mib / 1024 / data_gb, 4);

CREATE VIEW results AS
SELECT {fields}
FROM measurements AS m
JOIN studies   AS st USING (study)
JOIN systems   AS s  USING (study, system)
JOIN workloads AS w  USING (study, workload)
LEFT JOIN artifacts AS a   ON a.study = m.study AND a.artifact = m.result
LEFT JOIN origins   AS o   ON o.study = m.study AND o.artifact = m.result
LEFT JOIN sources   AS src ON src.study = m.study AND src.source = m.source
LEFT JOIN run_grades AS q  ON q.study = m.study AND q.artifact = m.result;
