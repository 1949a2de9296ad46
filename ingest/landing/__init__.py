"""Where a run of your own lands among the catalogue's (issue #62): ``benchdb compare LOG``.

The log goes the way of every bundle: ``benchdb import``'s reading of it (the project's one sysbench
parser, its workload), a bundle of one run validated as any other, loaded into a database of its own
and graded by the run-quality rules (your_run.py). That database is then set against the catalogue's
(comparable.py: which published values are of the same test, engine and metric, at the nearest thread
count, by the SQL of database/sql/comparable.sql), and said in words or JSON (words.py)."""
