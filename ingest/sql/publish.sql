-- Views the publish step reads; readers of benchmarks.duckdb may use them too.

-- One row per coordinate (study, system, metric, unit, state, load) with the value it stands for:
-- its only value, or the mean of repeated measured runs with their lowest, highest and count.
-- A coordinate holding two printed values is ambiguous and has no row. "text" is how a chart or
-- table labels the value; "position" orders coordinates as their first value is printed.
CREATE VIEW coordinates AS
SELECT
    study, system, metric, unit, state, threads,
    count(*) AS runs,
    CASE WHEN count(*) = 1 THEN any_value(value) ELSE avg(value) END AS value,
    min(value) AS low,
    max(value) AS high,
    CASE WHEN count(*) = 1 THEN any_value(value_text) ELSE printf('%.2f', avg(value)) END AS value_text,
    CASE WHEN count(*) = 1 THEN any_value(value_text)
         ELSE printf('%.2f (mean of %d runs, %g to %g)', avg(value), count(*), min(value), max(value)) END AS text,
    any_value(value_kind) AS value_kind,
    CASE WHEN count(*) = 1 THEN any_value(provenance)
         ELSE printf('mean of %d runs: ', count(*))
              || string_agg(provenance, '; ' ORDER BY result_index, row_index, col_index) END AS provenance,
    CASE WHEN count(*) = 1 THEN any_value(printed_as) END AS printed_as,
    CASE WHEN count(*) = 1 THEN any_value(flag) END AS flag,
    CASE WHEN count(*) = 1 THEN any_value(note) END AS note,
    CASE WHEN count(*) = 1 THEN any_value(source_href) END AS source_href,
    min([result_index, row_index, col_index]) AS position
FROM results
GROUP BY study, system, metric, unit, state, threads
HAVING count(*) = 1 OR bool_and(value_kind = 'measured');

-- Two coordinates cannot be ranked when at least one is the mean of repeated runs and their
-- lowest-to-highest ranges meet (a single value's range is the value itself).
CREATE MACRO spreads_overlap(a_runs, a_low, a_high, b_runs, b_low, b_high) AS
    (a_runs > 1 OR b_runs > 1) AND NOT (a_low > b_high OR a_high < b_low);

-- Two coordinates at the same metric, unit, state and load (NULL state or load match NULL).
CREATE MACRO same_point(a_metric, a_unit, a_state, a_threads, b_metric, b_unit, b_state, b_threads) AS
    a_metric = b_metric AND a_unit = b_unit AND a_state IS NOT DISTINCT FROM b_state
    AND a_threads IS NOT DISTINCT FROM b_threads;

-- Each value with the coordinate it belongs to (for repeated runs: their mean, lowest and highest).
CREATE VIEW values_at AS
SELECT r.*, c.runs, c.value AS mean, c.text AS mean_text, c.low, c.high
FROM results AS r LEFT JOIN coordinates AS c
  ON c.study = r.study AND c.system = r.system
     AND same_point(c.metric, c.unit, c.state, c.threads, r.metric, r.unit, r.state, r.threads);
