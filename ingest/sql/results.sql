-- The published shape: one row per value, with the facets of the system it was measured on.
CREATE VIEW results AS
SELECT
    m.study,
    m.source,
    m.system,
    s.label              AS system_label,
    s.storage_product,
    s.raid_level,
    s.drives,
    s.chunk_kib,
    s.protocol,
    s.doublewrite,
    s.compression,
    s.device,
    w.tool || ' ' || w.test AS benchmark,
    m.threads,
    m.state,
    m.metric,
    m.unit,
    m.value,
    m.value_text,
    m.value_kind,
    m.provenance,
    m.printed_as,
    m.correction,
    m.spread_cv,
    m.result,
    m.result_index,
    m.row_label,
    m.column_label,
    m.row_index,
    m.col_index
FROM measurements AS m
JOIN systems   AS s USING (study, system)
JOIN workloads AS w USING (study, workload);
