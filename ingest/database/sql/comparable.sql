-- Which published values a run of your own is compared with, and where it stands among them: the one
-- statement of the rule, which benchdb compare (ingest/landing/comparable.py) and the site's "Where does
-- your run land?" page (site/assets/js/landing.js, from data/landing.json) run. Statements are parted by a line "-- ;"; $test,
-- $engine, $threads and $tps are your run's (its workload's test_key, its server's engine_key, its
-- thread count, its transactions a second).

-- The sysbench test a workload runs: the test its text starts with, when the text names no option
-- ("oltp_read_write (OLTP_RW-trx.lua)" and "oltp_read_write, default options" are oltp_read_write;
-- "oltp_read_write --point_selects=0 ..." runs another mix; "oltp.lua (read-write)" is the legacy script).
-- A test a bundle does not state ("not stated", schema/models.py) names none (it was the test "not").
CREATE OR REPLACE TEMP MACRO test_key(tool, test) AS
    CASE WHEN tool = 'sysbench' AND NOT contains(test, '--') AND NOT regexp_matches(test, '^not[ -]stated\b', 'i')
         THEN nullif(regexp_extract(test, '^([a-z][a-z0-9_]*)(?:[ ,(]|$)', 1), '') END;
-- ;
-- The storage engine a system's database text names: MyRocks or TokuDB where it names them, none where
-- no database ran, else InnoDB where it names a server of which InnoDB (or XtraDB, its fork) is the
-- default engine; NULL where it names none of them.
CREATE OR REPLACE TEMP MACRO engine_key(engine) AS
    CASE WHEN engine IS NULL THEN NULL
         WHEN regexp_matches(lower(engine), '^none\b') THEN 'none'
         WHEN regexp_matches(lower(engine), 'myrocks|rocksdb') THEN 'myrocks'
         WHEN regexp_matches(lower(engine), 'tokudb') THEN 'tokudb'
         WHEN regexp_matches(lower(engine), 'innodb|xtradb|mysql|mariadb|percona|aurora') THEN 'innodb' END;
-- ;
-- Each published series (a system and workload of a study) of the same test and engine, with its
-- transactions per second in optimal state (or no array state) at the thread count nearest yours
-- (by ratio; the lower of two as near), the median where several values share it.
WITH points AS (
    SELECT r.study, r.study_title, r.system, r.system_label, r.workload, w.test AS workload_test,
           r.threads, r.value, r.value_kind, r.grade
    FROM results AS r
    JOIN workloads AS w USING (study, workload)
    JOIN systems AS s USING (study, system)
    WHERE r.metric = 'tps' AND coalesce(r.state, 'optimal') = 'optimal' AND r.threads > 0
      AND test_key(w.tool, w.test) = $test AND engine_key(s.db_engine) = $engine
), nearest AS (
    SELECT study, system, workload, arg_min(threads, (abs(ln(threads / $threads)), threads)) AS threads
    FROM points GROUP BY ALL
)
SELECT study, any_value(study_title) AS study_title, system, any_value(system_label) AS system_label,
       workload, any_value(workload_test) AS workload_test, threads, median(value) AS tps, count(*) AS n_values,
       string_agg(DISTINCT value_kind, ', ' ORDER BY value_kind) AS value_kind,
       string_agg(DISTINCT grade, ', ' ORDER BY grade) AS grade,
       CASE WHEN median(value) > 0 THEN $tps / median(value) END AS ratio,  -- yours over its
       -- the percentile your TPS is at among the series: those under it, and half of those equal to it
       round(100 * sum(CASE WHEN median(value) < $tps THEN 1 WHEN median(value) = $tps THEN 0.5 ELSE 0 END) OVER ()
             / count(*) OVER (), 1) AS percentile
FROM points JOIN nearest USING (study, system, workload, threads)
GROUP BY study, system, workload, threads
ORDER BY tps DESC, study, system, workload
