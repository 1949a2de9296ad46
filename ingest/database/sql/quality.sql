-- Run-quality grades over the interval samples of every run at once (schema/run-quality.yaml holds
-- the rules, thresholds and reasons; ingest/database/quality.py puts its numbers in place of the braces and
-- fills quality_rules with the rules). Statements are separated by a line "-- ;".
-- Only the runs of the studies in the temporary table q_studies are graded (grade_runs fills it: every
-- study, or those a load did not copy with their grades from the last build's database); every rule
-- reads one study's rows at a time, so a study's grades do not depend on which others are graded.

-- The series a run is graded on, as tps: a database run's TPS; a fileio run's MiB/s read and written (the two
-- rates its interval lines print, added: what sysbench 0.4 prints as "Total transferred"; used here only).
CREATE TEMP VIEW q_intervals AS
SELECT * REPLACE (CASE WHEN tps IS NULL AND (read_mib_s IS NOT NULL OR written_mib_s IS NOT NULL)
                       THEN coalesce(read_mib_s, 0) + coalesce(written_mib_s, 0) ELSE tps END AS tps)
FROM intervals WHERE study IN (SELECT study FROM q_studies);
-- ;
-- Each run with its samples' span: the report interval (else the first sample's time) is one step.
CREATE TEMP TABLE q_runs AS
SELECT r.study, r.artifact, r.system, r.workload, r.threads, r.threads_source, r.started, r.trace, r.kind,
       count(i.t_s) AS samples, min(i.t_s) AS first_t, max(i.t_s) AS last_t,
       coalesce(r.report_interval_s, min(i.t_s)) AS step,
       coalesce(r.elapsed_s, max(i.t_s)) AS length_s,
       median(i.tps) AS median_tps,
       coalesce(sum(i.tps), 0) = 0 AS no_tx,   -- the samples count no transaction: TPS rules cannot apply
       CASE WHEN r.kind = 'fileio' THEN 'MiB/s read and written' ELSE 'TPS' END AS series,
       CASE WHEN r.kind = 'fileio' THEN 'not known: the samples read and write nothing (0 MiB/s throughout)'
            ELSE 'not known: the samples count no transactions (TPS 0 throughout)' END AS no_tx_reason,
       avg(i.tps) AS mean_all, stddev_samp(i.tps) / nullif(avg(i.tps), 0) AS cv_all,
       avg(i.tps) FILTER (WHERE i.t_s > r_last.half) AS ref,
       sum(i.errors_s) AS errors, sum(i.reconnects_s) AS reconnects, count(i.errors_s) AS error_samples,
       count(*) FILTER (WHERE i.reconnects_s > 0) AS reconnect_samples,
       sum(i.tps) FILTER (WHERE i.errors_s IS NOT NULL) AS tps_with_errors
FROM runs AS r
LEFT JOIN q_intervals AS i USING (study, artifact)
LEFT JOIN (SELECT study, artifact, max(t_s) / 2 AS half FROM q_intervals GROUP BY ALL) AS r_last USING (study, artifact)
WHERE r.study IN (SELECT study FROM q_studies)
GROUP BY r.study, r.artifact, r.system, r.workload, r.threads, r.threads_source, r.started, r.trace,
         r.report_interval_s, r.elapsed_s, r.kind;
-- ;
-- Each run with samples, numbered, and where its samples are every step from the first on (most
-- are; a time is unique in its run, the table's key), how many samples follow a sample in its
-- warm-up window (below).
CREATE TEMP TABLE q_grid AS
SELECT r.study, r.artifact, row_number() OVER (ORDER BY r.study, r.artifact) AS run,
       CASE WHEN r.step > 0 AND r.last_t - r.first_t = (r.samples - 1) * r.step
                 AND bool_and((i.t_s - r.first_t) % r.step = 0) THEN ({window_s} - 1) // r.step END AS following
FROM q_runs AS r JOIN q_intervals AS i USING (study, artifact)
GROUP BY r.study, r.artifact, r.step, r.first_t, r.last_t, r.samples;
-- ;
-- Each sample's warm-up window: it and the samples up to window_s later. In a run on the grid, the
-- sample and the `following` ones (a ROWS frame); in the others, the same window as a RANGE frame over
-- the times, which DuckDB computes far more slowly in a long run (a 200 MB log's 1.5 million samples
-- on one thread: 5.8 s, against 0.4 s for q_grid, q_windows and q_warm). In two statements: the two
-- frames in one held 100 MB more for that log.
CREATE TEMP TABLE q_windows AS
SELECT g.run, i.t_s, avg(i.tps) OVER (PARTITION BY g.run ORDER BY i.t_s
                                      ROWS BETWEEN CURRENT ROW AND g.following FOLLOWING) AS wmean
FROM q_intervals AS i JOIN q_grid AS g USING (study, artifact) WHERE g.following IS NOT NULL;
-- ;
INSERT INTO q_windows
SELECT g.run, i.t_s, avg(i.tps) OVER (PARTITION BY g.run ORDER BY i.t_s
                                      RANGE BETWEEN CURRENT ROW AND {window_s} - 1 FOLLOWING) AS wmean
FROM q_intervals AS i JOIN q_grid AS g USING (study, artifact) WHERE g.following IS NULL;
-- ;
-- The warm-up: the first sample whose window (wholly inside the run, starting within max_share of it)
-- has a mean within band of the second half's.
CREATE TEMP TABLE q_warm AS
SELECT r.study, r.artifact,
       min(w.t_s) FILTER (WHERE w.t_s + {window_s} - r.step <= r.last_t) AS first_full,
       min(w.t_s) FILTER (WHERE w.t_s + {window_s} - r.step <= r.last_t
                            AND w.t_s - r.step <= {max_share} * r.last_t
                            AND abs(w.wmean - r.ref) <= {band} * r.ref) AS steady_from
FROM q_runs AS r JOIN q_grid AS g USING (study, artifact) JOIN q_windows AS w USING (run)
GROUP BY r.study, r.artifact;
-- ;
-- After the warm-up (all samples when it is not determined): spread, trend and stalls.
CREATE TEMP TABLE q_steady AS
SELECT r.study, r.artifact, w.steady_from, w.first_full,
       CASE WHEN w.steady_from IS NOT NULL THEN w.steady_from - r.step END AS warmup_s,
       count(i.t_s) AS n,
       avg(i.tps) AS mean_steady,
       stddev_samp(i.tps) / nullif(avg(i.tps), 0) AS cv_steady,
       CASE WHEN count(i.t_s) >= 3 THEN regr_slope(i.tps, i.t_s) * 60 / nullif(avg(i.tps), 0) * 100 END AS trend
FROM q_runs AS r
JOIN q_warm AS w USING (study, artifact)
JOIN q_intervals AS i ON i.study = r.study AND i.artifact = r.artifact AND i.t_s >= coalesce(w.steady_from, r.first_t)
GROUP BY ALL;
-- ;
INSERT INTO run_stalls
SELECT i.study, i.artifact, i.t_s, i.tps, r.median_tps, NULL
FROM q_runs AS r
JOIN q_steady AS q USING (study, artifact)
JOIN q_intervals AS i ON i.study = r.study AND i.artifact = r.artifact
 AND i.t_s >= coalesce(q.steady_from, r.first_t) AND i.tps < {stall_share} * r.median_tps;
-- ;
-- A stall's time on the run's trace clock: the array's state at the latest sample before it.
UPDATE run_stalls AS s SET array_state = m.state
FROM (
    SELECT s.study, s.artifact, s.t_s, t.state
    FROM run_stalls AS s
    JOIN q_runs AS r USING (study, artifact)
    ASOF JOIN (SELECT study, artifact, state, CAST(time AS TIMESTAMPTZ) AS at FROM trace_samples) AS t
      ON t.study = s.study AND t.artifact = r.trace
     AND CAST(r.started AS TIMESTAMPTZ) + to_seconds(CAST(s.t_s AS BIGINT)) >= t.at
    WHERE r.trace IS NOT NULL AND r.started IS NOT NULL
) AS m
WHERE s.study = m.study AND s.artifact = m.artifact AND s.t_s = m.t_s;
-- ;
-- The data set (the log's options, else the workload's) and the buffer pool (recorded, else declared).
CREATE TEMP TABLE q_pool AS
WITH opts AS (
    SELECT study, artifact,
           TRY_CAST(any_value(value) FILTER (WHERE name IN ('tables', 'oltp-tables-count')) AS BIGINT) AS tables,
           TRY_CAST(any_value(value) FILTER (WHERE name IN ('table-size', 'table_size', 'oltp-table-size')) AS BIGINT) AS rows,
           TRY_CAST(any_value(value) FILTER (WHERE name IN ('threads', 'num-threads')) AS BIGINT) AS threads
    FROM run_options WHERE study IN (SELECT study FROM q_studies) GROUP BY ALL
), settings AS (
    SELECT study, system,
           TRY_CAST(any_value(value) FILTER (WHERE name = 'innodb_buffer_pool_size') AS DOUBLE) AS pool_bytes,
           upper(any_value(value) FILTER (WHERE name = 'innodb_doublewrite')) AS doublewrite
    FROM system_settings WHERE study IN (SELECT study FROM q_studies) GROUP BY ALL
)
SELECT r.study, r.artifact, o.tables AS opt_tables, o.rows AS opt_rows, o.threads AS opt_threads,
       w.tables AS w_tables, w.rows_per_table AS w_rows, s.buffer_pool_mib, s.doublewrite AS declared_doublewrite,
       st.pool_bytes AS recorded_pool_bytes, st.doublewrite AS recorded_doublewrite,
       CASE WHEN o.tables IS NOT NULL AND o.rows IS NOT NULL THEN o.tables * o.rows * {row_bytes}
            WHEN w.tables IS NOT NULL AND w.rows_per_table IS NOT NULL THEN w.tables * w.rows_per_table * {row_bytes}
            WHEN w.data_gb IS NOT NULL THEN w.data_gb * 1e9 END AS data_bytes,
       CASE WHEN o.tables IS NOT NULL AND o.rows IS NOT NULL
                 THEN format('{} tables of {} rows (the log''s command) x {} bytes a row (estimate)', o.tables, o.rows, {row_bytes})
            WHEN w.tables IS NOT NULL AND w.rows_per_table IS NOT NULL
                 THEN format('{} tables of {} rows (the workload) x {} bytes a row (estimate)', w.tables, w.rows_per_table, {row_bytes})
            WHEN w.data_gb IS NOT NULL THEN format('{} GB (the workload''s data size)', w.data_gb) END AS data_from,
       coalesce(st.pool_bytes, s.buffer_pool_mib * 1048576.0) AS pool_bytes,
       CASE WHEN st.pool_bytes IS NOT NULL THEN 'innodb_buffer_pool_size as recorded'
            WHEN s.buffer_pool_mib IS NOT NULL THEN 'buffer_pool_mib as declared' END AS pool_from
FROM q_runs AS r
JOIN systems AS s USING (study, system)
JOIN workloads AS w USING (study, workload)
LEFT JOIN opts AS o USING (study, artifact)
LEFT JOIN settings AS st USING (study, system);
-- ;
-- What the bundle declares against what is recorded: one row per comparison that can be made.
CREATE TEMP TABLE q_settings AS
SELECT study, artifact, what, declared, recorded, coalesce(differs, declared IS DISTINCT FROM recorded) AS differs FROM (
    SELECT r.study, r.artifact, 'buffer pool (MiB)' AS what, CAST(p.buffer_pool_mib AS VARCHAR) AS declared,
           regexp_replace(CAST(round(p.recorded_pool_bytes / 1048576, 2) AS VARCHAR), '\.0$', '') AS recorded, 1 AS o,
           p.buffer_pool_mib * 1048576.0 <> p.recorded_pool_bytes AS differs
    FROM q_runs AS r JOIN q_pool AS p USING (study, artifact)
    WHERE p.buffer_pool_mib IS NOT NULL AND p.recorded_pool_bytes IS NOT NULL
    UNION ALL
    SELECT r.study, r.artifact, 'doublewrite', CASE WHEN p.declared_doublewrite THEN 'ON' ELSE 'OFF' END,
           CASE WHEN p.recorded_doublewrite IN ('ON', '1', 'TRUE') THEN 'ON'
                WHEN p.recorded_doublewrite IN ('OFF', '0', 'FALSE') THEN 'OFF' ELSE p.recorded_doublewrite END, 2, NULL
    FROM q_runs AS r JOIN q_pool AS p USING (study, artifact)
    WHERE p.declared_doublewrite IS NOT NULL AND p.recorded_doublewrite IS NOT NULL
    UNION ALL
    SELECT r.study, r.artifact, 'threads', CAST(r.threads AS VARCHAR), CAST(p.opt_threads AS VARCHAR), 3, NULL
    FROM q_runs AS r JOIN q_pool AS p USING (study, artifact)
    WHERE r.threads_source = 'bundle' AND p.opt_threads IS NOT NULL
    UNION ALL
    SELECT r.study, r.artifact, 'tables', CAST(p.w_tables AS VARCHAR), CAST(p.opt_tables AS VARCHAR), 4, NULL
    FROM q_runs AS r JOIN q_pool AS p USING (study, artifact)
    WHERE p.w_tables IS NOT NULL AND p.opt_tables IS NOT NULL
    UNION ALL
    SELECT r.study, r.artifact, 'rows per table', CAST(p.w_rows AS VARCHAR), CAST(p.opt_rows AS VARCHAR), 5, NULL
    FROM q_runs AS r JOIN q_pool AS p USING (study, artifact)
    WHERE p.w_rows IS NOT NULL AND p.opt_rows IS NOT NULL
) ORDER BY study, artifact, o;
-- ;
-- Each rule's outcome for each run with samples.
INSERT INTO run_checks
SELECT r.study, r.artifact, 'duration',
       CASE WHEN r.length_s < {duration_fail_s} THEN 'fail' WHEN r.length_s < {duration_warn_s} THEN 'warn' ELSE 'pass' END,
       r.length_s,
       format('the run lasts {} s; {}', round(r.length_s, 1),
              CASE WHEN r.length_s < {duration_fail_s} THEN format('under the {} s minimum', {duration_fail_s})
                   WHEN r.length_s < {duration_warn_s} THEN format('under the {} s a steady run needs', {duration_warn_s})
                   ELSE format('at least {} s', {duration_warn_s}) END)
FROM q_runs AS r WHERE r.samples > 0
UNION ALL
SELECT r.study, r.artifact, 'warmup',
       CASE WHEN r.no_tx OR q.first_full IS NULL THEN 'not known' WHEN q.steady_from IS NULL THEN 'fail' ELSE 'pass' END,
       CASE WHEN NOT r.no_tx THEN q.warmup_s END,
       CASE WHEN r.no_tx THEN r.no_tx_reason
            WHEN q.first_full IS NULL
                 THEN format('not known: the samples span {} s, shorter than one {} s window', r.last_t, {window_s})
            WHEN q.steady_from IS NULL
                 THEN format('{} never settles: no {} s window in the first {}% of the run has a mean within {}% of the second half''s mean ({})',
                             r.series, {window_s}, CAST(round({max_share} * 100) AS INTEGER), CAST(round({band} * 100) AS INTEGER), round(r.ref, 2))
            WHEN q.warmup_s = 0 THEN format('no warm-up: the first {} s window is already within {}% of the second half''s mean', {window_s}, CAST(round({band} * 100) AS INTEGER))
            ELSE format('warm-up of {} s: from {} s on, {} s windows stay within {}% of the second half''s mean ({})',
                        q.warmup_s, q.steady_from, {window_s}, CAST(round({band} * 100) AS INTEGER), round(r.ref, 2)) END
FROM q_runs AS r JOIN q_steady AS q USING (study, artifact)
UNION ALL
SELECT r.study, r.artifact, 'steady_cv',
       CASE WHEN r.no_tx OR q.cv_steady IS NULL THEN 'not known' WHEN q.cv_steady > {cv_fail} THEN 'fail'
            WHEN q.cv_steady > {cv_warn} THEN 'warn' ELSE 'pass' END,
       q.cv_steady,
       CASE WHEN r.no_tx THEN r.no_tx_reason
            WHEN q.cv_steady IS NULL THEN 'not known: fewer than two samples'
            ELSE format('CV {} over {} samples ({}); {}', round(q.cv_steady, 4), q.n,
                        CASE WHEN q.steady_from IS NULL THEN 'warm-up included: not determined' ELSE 'warm-up excluded' END,
                        CASE WHEN q.cv_steady > {cv_fail} THEN format('above {}', {cv_fail})
                             WHEN q.cv_steady > {cv_warn} THEN format('above {}', {cv_warn})
                             ELSE format('at most {}', {cv_warn}) END) END
FROM q_runs AS r JOIN q_steady AS q USING (study, artifact)
UNION ALL
SELECT r.study, r.artifact, 'trend',
       CASE WHEN r.no_tx OR q.trend IS NULL THEN 'not known' WHEN abs(q.trend) > {trend_fail} THEN 'fail'
            WHEN abs(q.trend) > {trend_warn} THEN 'warn' ELSE 'pass' END,
       q.trend,
       CASE WHEN r.no_tx THEN r.no_tx_reason
            WHEN q.trend IS NULL THEN 'not known: fewer than three samples'
            ELSE format('{}% of the mean per minute over {} samples ({}); {}', round(q.trend, 2), q.n,
                        CASE WHEN q.steady_from IS NULL THEN 'warm-up included: not determined' ELSE 'warm-up excluded' END,
                        CASE WHEN abs(q.trend) > {trend_fail} THEN format('steeper than {}%', {trend_fail})
                             WHEN abs(q.trend) > {trend_warn} THEN format('steeper than {}%', {trend_warn})
                             ELSE format('within {}%', {trend_warn}) END) END
FROM q_runs AS r JOIN q_steady AS q USING (study, artifact)
UNION ALL
SELECT r.study, r.artifact, 'stalls',
       CASE WHEN any_value(r.no_tx) THEN 'not known' WHEN count(s.t_s) >= {stall_warn_at} THEN 'warn' ELSE 'pass' END,
       CASE WHEN NOT any_value(r.no_tx) THEN count(s.t_s) END,
       CASE WHEN any_value(r.no_tx) THEN any_value(r.no_tx_reason)
            WHEN count(s.t_s) = 0
            THEN format('no sample under {}% of the median {} ({})', CAST(round({stall_share} * 100) AS INTEGER),
                        any_value(r.series), round(any_value(r.median_tps), 2))
            ELSE format('{} sample{} under {}% of the median {} ({}): {}{}', count(s.t_s),
                        CASE WHEN count(s.t_s) = 1 THEN '' ELSE 's' END, CAST(round({stall_share} * 100) AS INTEGER),
                        any_value(r.series), round(any_value(r.median_tps), 2),
                        array_to_string(list(format('{} {} at {} s{}', s.tps, r.series, s.t_s,
                                                    coalesce(format(' (array {})', s.array_state), '')) ORDER BY s.t_s)
                                        [1:{stall_listed}], ', '),
                        CASE WHEN count(s.t_s) > {stall_listed}
                             THEN format(', and {} more (every stall is in the table run_stalls)',
                                         count(s.t_s) - {stall_listed}) ELSE '' END) END
FROM q_runs AS r LEFT JOIN run_stalls AS s USING (study, artifact)
WHERE r.samples > 0 GROUP BY r.study, r.artifact
UNION ALL
SELECT r.study, r.artifact, 'errors',
       CASE WHEN r.error_samples = 0 THEN 'not known' WHEN r.reconnects > 0 THEN 'fail'
            WHEN coalesce(r.tps_with_errors, 0) = 0 THEN 'not known'
            WHEN r.errors / r.tps_with_errors > {err_fail} THEN 'fail'
            WHEN r.errors / r.tps_with_errors > {err_warn} THEN 'warn' ELSE 'pass' END,
       CASE WHEN r.error_samples > 0 THEN r.errors / nullif(r.tps_with_errors, 0) END,
       CASE WHEN r.error_samples = 0 THEN 'not known: the samples print no err/s or reconn/s'
            WHEN r.reconnects = 0 AND coalesce(r.tps_with_errors, 0) = 0
                 THEN format('not known: {} errors per second summed, but the samples count no transactions', round(r.errors, 2))
            ELSE format('{} errors per transaction; reconnects in {} sample{}{}',
                        round(coalesce(r.errors / nullif(r.tps_with_errors, 0), 0), 4), r.reconnect_samples,
                        CASE WHEN r.reconnect_samples = 1 THEN '' ELSE 's' END,
                        CASE WHEN r.reconnects > 0 THEN ': a connection was lost'
                             WHEN r.errors / nullif(r.tps_with_errors, 0) > {err_warn} THEN format(': above {}', {err_warn})
                             ELSE '' END) END
FROM q_runs AS r WHERE r.samples > 0
UNION ALL
SELECT r.study, r.artifact, 'buffer_pool',
       CASE WHEN r.kind = 'fileio' OR p.data_bytes IS NULL OR p.pool_bytes IS NULL THEN 'not known'
            WHEN p.data_bytes / p.pool_bytes <= {fits_at} THEN 'warn' ELSE 'pass' END,
       CASE WHEN r.kind IS DISTINCT FROM 'fileio' THEN p.data_bytes / p.pool_bytes END,
       CASE WHEN r.kind = 'fileio' THEN 'not known: a sysbench fileio run uses no database buffer pool'
            WHEN p.data_bytes IS NULL THEN 'not known: no data size is recorded (tables and rows, or data_gb)'
            WHEN p.pool_bytes IS NULL THEN 'not known: no buffer pool size is recorded'
            ELSE format('data about {} MiB ({}) is {}x the buffer pool of {} MiB ({}){}',
                        round(p.data_bytes / 1048576, 1), p.data_from, round(p.data_bytes / p.pool_bytes, 3),
                        round(p.pool_bytes / 1048576, 1), p.pool_from,
                        CASE WHEN p.data_bytes / p.pool_bytes <= {fits_at}
                             THEN ': it fits in memory, so reads do not reach the storage: not a storage test' ELSE '' END) END
FROM q_runs AS r JOIN q_pool AS p USING (study, artifact) WHERE r.samples > 0
UNION ALL
SELECT r.study, r.artifact, 'settings',
       CASE WHEN count(c.what) = 0 THEN 'not known'
            WHEN count(c.what) FILTER (WHERE c.differs) > 0 THEN 'warn' ELSE 'pass' END,
       CASE WHEN count(c.what) > 0 THEN count(c.what) FILTER (WHERE c.differs) END,
       CASE WHEN count(c.what) = 0 THEN 'not known: no recorded setting or command option to compare'
            WHEN count(c.what) FILTER (WHERE c.differs) > 0
                 THEN 'differs: ' || string_agg(format('{} declared {}, recorded {}', c.what, c.declared, c.recorded), '; ')
                                     FILTER (WHERE c.differs)
            ELSE 'as declared: ' || string_agg(c.what, ', ') END
FROM q_runs AS r LEFT JOIN q_settings AS c USING (study, artifact)
WHERE r.samples > 0 GROUP BY r.study, r.artifact;
-- ;
-- Each run's grade: the worst outcome of its rules; a run without samples is not graded.
INSERT INTO run_grades
SELECT r.study, r.artifact,
       CASE WHEN r.samples = 0 THEN 'not graded'
            WHEN bool_or(c.status = 'fail') THEN 'fail' WHEN bool_or(c.status = 'warn') THEN 'warn'
            WHEN bool_or(c.status = 'not known') THEN 'partial' ELSE 'pass' END,
       CASE WHEN r.samples = 0 THEN 'not graded: no interval samples'
            ELSE coalesce(string_agg(CASE WHEN c.status = 'not known' THEN format('{}: {}', k.label, c.reason)
                                          ELSE format('{} ({}): {}', k.label, c.status, c.reason) END, '; ' ORDER BY k.position)
                              FILTER (WHERE c.status <> 'pass'), 'every rule passes') END,
       r.samples, CASE WHEN NOT r.no_tx THEN any_value(q.warmup_s) END, r.mean_all,
       CASE WHEN NOT r.no_tx THEN any_value(q.mean_steady) FILTER (WHERE q.steady_from IS NOT NULL) END,
       r.cv_all, CASE WHEN NOT r.no_tx THEN any_value(q.cv_steady) FILTER (WHERE q.steady_from IS NOT NULL) END,
       CASE WHEN NOT r.no_tx THEN any_value(q.trend) END,
       CAST(max(c.value) FILTER (WHERE c.rule = 'stalls') AS INTEGER)
FROM q_runs AS r
LEFT JOIN run_checks AS c USING (study, artifact)
LEFT JOIN quality_rules AS k ON k.rule = c.rule
LEFT JOIN q_steady AS q ON q.study = r.study AND q.artifact = r.artifact
GROUP BY r.study, r.artifact, r.samples, r.mean_all, r.cv_all, r.no_tx;
