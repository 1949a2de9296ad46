-- Views the publish step reads; readers of benchmarks.duckdb may use them too.

-- One row per coordinate (study, system, workload, metric, unit, state, load) with the value it stands for:
-- its only value, or the mean of repeated measured runs with their lowest, highest and count.
-- A coordinate holding two printed values is ambiguous and has no row. "text" is how a chart or
-- table labels the value; "position" orders coordinates as their first value is printed;
-- "evidence_rank" is the worst evidence grade of its values (evidence.sql) and "inconsistent" whether
-- one of them is flagged as disagreeing with its source's other figures. The mean is
-- the sum of the values in ascending order over their count, so that two exports of one database agree
-- to the last digit whatever order the rows are read in (avg's sum did not: a test of the export in
-- worker processes saw 4629.8566666666675 against 4629.856666666667).
CREATE VIEW coordinates AS
SELECT
    study, system, workload, metric, unit, state, threads,
    count(*) AS runs,
    CASE WHEN count(*) = 1 THEN any_value(value) ELSE list_sum(list_sort(list(value))) / count(*) END AS value,
    min(value) AS low,
    max(value) AS high,
    CASE WHEN count(*) = 1 THEN any_value(value_text) ELSE printf('%.2f', list_sum(list_sort(list(value))) / count(*)) END AS value_text,
    CASE WHEN count(*) = 1 THEN any_value(value_text)
         ELSE printf('%.2f (mean of %d runs, %g to %g)', list_sum(list_sort(list(value))) / count(*), count(*), min(value), max(value)) END AS text,
    any_value(value_kind) AS value_kind,
    CASE WHEN count(*) = 1 THEN any_value(provenance)
         ELSE printf('mean of %d runs: ', count(*))
              || string_agg(provenance, '; ' ORDER BY result_index, row_index, col_index) END AS provenance,
    CASE WHEN count(*) = 1 THEN any_value(quote) END AS quote,
    CASE WHEN count(*) = 1 THEN any_value(printed_as) END AS printed_as,
    CASE WHEN count(*) = 1 THEN any_value(flag) END AS flag,
    CASE WHEN count(*) = 1 THEN any_value(note) END AS note,
    CASE WHEN count(*) = 1 THEN any_value(source_href) END AS source_href,
    min([result_index, row_index, col_index]) AS position,
    max(evidence_rank(value_kind, grade)) AS evidence_rank,
    bool_or(evidence_inconsistent(flag)) AS inconsistent
FROM results
GROUP BY study, system, workload, metric, unit, state, threads
HAVING count(*) = 1 OR bool_and(value_kind = 'measured');

-- Two coordinates cannot be ranked when at least one is the mean of repeated runs and their
-- lowest-to-highest ranges meet (a single value's range is the value itself).
CREATE MACRO spreads_overlap(a_runs, a_low, a_high, b_runs, b_low, b_high) AS
    (a_runs > 1 OR b_runs > 1) AND NOT (a_low > b_high OR a_high < b_low);

-- Two coordinates at the same metric, unit, state and load (NULL state or load match NULL). Compare
-- applies it across studies, whose workloads are their own; within one study a pair is also of one
-- workload (the facet pages' pairs, values_at).
CREATE MACRO same_point(a_metric, a_unit, a_state, a_threads, b_metric, b_unit, b_state, b_threads) AS
    a_metric = b_metric AND a_unit = b_unit AND a_state IS NOT DISTINCT FROM b_state
    AND a_threads IS NOT DISTINCT FROM b_threads;

-- Each value with the coordinate it belongs to (for repeated runs: their mean, lowest and highest).
CREATE VIEW values_at AS
SELECT r.*, c.runs, c.value AS mean, c.text AS mean_text, c.low, c.high
FROM results AS r LEFT JOIN coordinates AS c
  ON c.study = r.study AND c.system = r.system
     AND c.workload IS NOT DISTINCT FROM r.workload
     AND same_point(c.metric, c.unit, c.state, c.threads, r.metric, r.unit, r.state, r.threads);

-- Tail latency from sysbench --histogram output (the histograms table): a percentile is the value of
-- the first printed bucket at which the running count reaches floor(events x p / 100 + 0.5), as
-- sysbench computes its own (sb_histogram.c, sb_histogram_snapshot_get_pct; it prints only the
-- buckets that hold events, so skipping the empty ones changes nothing). Values are the buckets'
-- printed values (ms, three decimals). The percentiles are 95, 99 and 99.9.
CREATE MACRO latency_pct(value_ms, running, events, p) AS
    min(value_ms) FILTER (WHERE running >= floor(events * p / 100 + 0.5));

-- Each run with a histogram, in the array state it ran in (the trace's, else the bundle's).
CREATE VIEW run_latency AS
WITH h AS (
    SELECT study, artifact, value_ms,
           sum(count) OVER (PARTITION BY study, artifact ORDER BY position) AS running,
           sum(count) OVER (PARTITION BY study, artifact) AS events
    FROM histograms
)
SELECT h.study, h.artifact, r.system, r.workload, r.threads,
       coalesce(r.computed_state, r.state, 'not stated') AS state, any_value(h.events) AS events,
       latency_pct(h.value_ms, h.running, h.events, 95) AS p95_ms,
       latency_pct(h.value_ms, h.running, h.events, 99) AS p99_ms,
       latency_pct(h.value_ms, h.running, h.events, 99.9) AS p999_ms
FROM h JOIN runs AS r USING (study, artifact)
GROUP BY ALL;

-- The histograms of the runs of one system, workload, thread count and array state added together
-- (a bucket is its printed value), with each bucket's share of the events at or below it.
CREATE VIEW state_histograms AS
WITH merged AS (
    SELECT h.study, r.system, r.workload, r.threads, coalesce(r.computed_state, r.state, 'not stated') AS state,
           h.value_ms, sum(h.count) AS count, count(DISTINCT h.artifact) AS runs
    FROM histograms AS h JOIN runs AS r USING (study, artifact)
    GROUP BY ALL
)
SELECT *, sum(count) OVER w AS running, sum(count) OVER (PARTITION BY study, system, workload, threads, state) AS events,
       sum(count) OVER w / sum(count) OVER (PARTITION BY study, system, workload, threads, state) AS share
FROM merged
WINDOW w AS (PARTITION BY study, system, workload, threads, state ORDER BY value_ms);

-- p95, p99 and p99.9 of each system, workload, thread count and array state, from the merged histograms.
CREATE VIEW latency_by_state AS
SELECT study, system, workload, threads, state, max(runs) AS runs, any_value(events) AS events,
       latency_pct(value_ms, running, events, 95) AS p95_ms,
       latency_pct(value_ms, running, events, 99) AS p99_ms,
       latency_pct(value_ms, running, events, 99.9) AS p999_ms
FROM state_histograms
GROUP BY ALL;

-- The price of redundancy: figures derived from a system's stated drives, drive capacity and RAID
-- level (its usable fraction, systems.usable_capacity) and its values; each row with its formula and
-- inputs, as the claims ledger shows them. Only where the inputs are recorded; nothing is assumed.
CREATE VIEW redundancy_price AS
WITH capacity AS (
    SELECT study, system, raid_level, drives, drive_capacity_tb, usable_capacity,
           drives * drive_capacity_tb * usable_capacity AS usable_tb
    FROM systems
    WHERE drives IS NOT NULL AND drive_capacity_tb IS NOT NULL AND usable_capacity IS NOT NULL
), peak AS (   -- each state's highest TPS over the loads (coordinates: one value a load, none where ambiguous);
               -- of equal highest values (one value printed in two tables), the first printed
    SELECT study, system, state, max(value) AS tps, arg_min(threads, (-value, position)) AS threads,
           arg_min(value_text, (-value, position)) AS tps_text, arg_min(provenance, (-value, position)) AS provenance
    FROM coordinates WHERE metric = 'tps' GROUP BY ALL
), kept AS (   -- TPS while rebuilding over TPS in optimal state, at each load both were measured at
    SELECT r.study, r.system, min(r.value / o.value) AS low, max(r.value / o.value) AS high, count(*) AS loads
    FROM coordinates AS r JOIN coordinates AS o
      ON o.study = r.study AND o.system = r.system AND o.metric = 'tps' AND o.state = 'optimal'
     AND o.threads IS NOT DISTINCT FROM r.threads AND o.unit = r.unit AND o.workload IS NOT DISTINCT FROM r.workload
    WHERE r.metric = 'tps' AND r.state = 'rebuilding' GROUP BY ALL
)
SELECT c.study, c.system, 1 AS position, 'usable capacity' AS figure, round(c.usable_tb, 2) AS value, 'TB' AS unit,
       'drives x drive capacity x usable fraction of the RAID level' AS formula,
       format('{} drives x {} TB x {} (RAID {})', c.drives, c.drive_capacity_tb, c.usable_capacity, c.raid_level) AS inputs
FROM capacity AS c
UNION ALL
SELECT c.study, c.system, 2, format('peak TPS per usable TB ({})', coalesce(p.state, 'state not stated')),
       round(p.tps / c.usable_tb, 1), 'TPS/TB', 'peak TPS / usable capacity',
       format('{} TPS at {} threads ({}) / {} TB', p.tps_text, p.threads, p.provenance, round(c.usable_tb, 2))
FROM capacity AS c JOIN peak AS p USING (study, system)
UNION ALL
SELECT c.study, c.system, 3, 'exposure window of a rebuild', round(c.drive_capacity_tb * 1e6 / m.value / 3600, 2), 'h',
       'drive capacity / rebuild speed (assumes the speed holds over the whole drive)',
       format('{} TB = {} MB / {} MB/s ({}, {})', c.drive_capacity_tb, CAST(c.drive_capacity_tb * 1e6 AS BIGINT), m.value_text,
              m.value_kind, m.provenance)
FROM capacity AS c JOIN results AS m ON m.study = c.study AND m.system = c.system AND m.metric = 'rebuild_mb_s'
UNION ALL
SELECT k.study, k.system, 4, 'throughput kept while rebuilding', round(k.low * 100, 1), '% (lowest)',
       'TPS rebuilding / TPS optimal at the same load, lowest and highest over the loads',
       format('{} loads; highest {}%', k.loads, round(k.high * 100, 1))
FROM kept AS k;
