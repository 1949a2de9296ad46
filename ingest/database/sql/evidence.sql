-- Evidence grades (schema/evidence-grades.yaml): the braces are filled from that file at load
-- (ingest/database/evidence.py), so the rule is written once. Statements are parted by "-- ;" lines.

-- A value's evidence rank: 1 is the best grade of the file; a measured value's run_grade is its run's
-- grade (schema/run-quality.yaml; NULL: not graded).
CREATE MACRO evidence_rank(value_kind, run_grade) AS CASE {rank_cases} END;
-- ;
-- Whether a value's cell note says it disagrees with the source's own other figures: such a value
-- never makes a ratio of its own.
CREATE MACRO evidence_inconsistent(flag) AS coalesce(flag IN {inconsistent_flags}, false);
-- ;
-- The reason in words of a flag of the inconsistent list (NULL for any other flag and for none): what the
-- downloads' "inconsistency" column says.
CREATE MACRO evidence_reason(flag) AS CASE {inconsistent_reasons} END;
