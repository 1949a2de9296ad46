-- The benchdb database. Every load builds it from scratch from the validated bundles.

CREATE TABLE studies (
    study           VARCHAR PRIMARY KEY,
    title           VARCHAR NOT NULL,
    summary         VARCHAR NOT NULL,
    schema_version  INTEGER NOT NULL,
    bundle_path     VARCHAR NOT NULL,       -- the bundle file in its data folder: <study>/bundle.yaml
    baseline        VARCHAR,                -- the system the study compares the others against
    setup           JSON NOT NULL           -- the setup as described (sources, systems, workloads,
                                            -- transcriptions, notes), for the study page to show
);

-- Each transcribed table of a study: how it is titled and where it is printed.
CREATE TABLE result_tables (
    study       VARCHAR NOT NULL REFERENCES studies (study),
    result      VARCHAR NOT NULL,
    position    INTEGER NOT NULL,
    title       VARCHAR NOT NULL,
    value_kind  VARCHAR NOT NULL,
    provenance  VARCHAR NOT NULL,           -- where it is printed, as a reader cites it
    notes       VARCHAR,
    columns     VARCHAR[] NOT NULL,         -- the column labels, as printed
    PRIMARY KEY (study, result)
);

-- The charts a bundle asks for: one metric against x, optionally one panel per state.
CREATE TABLE charts (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    chart     VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    title     VARCHAR NOT NULL,
    metric    VARCHAR NOT NULL,
    x         VARCHAR NOT NULL,
    switch    VARCHAR,
    workload  VARCHAR,                  -- only this workload's values (NULL: every workload's)
    PRIMARY KEY (study, chart)
);

-- Results a source shows only as graphs: described, never turned into values.
CREATE TABLE graph_only (
    study       VARCHAR NOT NULL REFERENCES studies (study),
    position    INTEGER NOT NULL,
    title       VARCHAR NOT NULL,
    shows       VARCHAR NOT NULL,
    provenance  VARCHAR NOT NULL,
    text_says   VARCHAR,
    PRIMARY KEY (study, position)
);

CREATE TABLE sources (
    study       VARCHAR NOT NULL REFERENCES studies (study),
    source      VARCHAR NOT NULL,
    publisher   VARCHAR NOT NULL,
    title       VARCHAR NOT NULL,
    date        VARCHAR,
    language    VARCHAR NOT NULL,
    role        VARCHAR NOT NULL,
    url         VARCHAR,
    identifier  VARCHAR,
    kind        VARCHAR,                -- vendor, independent or measured-here, as the bundle states it
    author      VARCHAR,
    licence     VARCHAR,
    commit_hash VARCHAR,                -- a repository's commit the figures are read at
    PRIMARY KEY (study, source)
);

CREATE TABLE systems (
    study            VARCHAR NOT NULL REFERENCES studies (study),
    system           VARCHAR NOT NULL,
    position         INTEGER NOT NULL,      -- as listed in the bundle (charts colour a system by it)
    label            VARCHAR NOT NULL,
    storage_product  VARCHAR NOT NULL,
    storage_vendor   VARCHAR NOT NULL,
    storage_kind     VARCHAR NOT NULL,
    device_class     VARCHAR,               -- the devices' class (nvme-ssd, hdd, cloud-volume, ...) as stated, or
                                            -- as the drive model names it (schema/devices.yaml)
    device_class_from VARCHAR,              -- how a class the bundle does not state was derived; NULL if stated
    volume_service   VARCHAR,               -- a cloud volume's service (aws-ebs, ...), type and provisioned figures
    volume_type      VARCHAR,
    volume_size_gb   DOUBLE,
    provisioned_iops INTEGER,
    provisioned_mb_s DOUBLE,
    raid_level       VARCHAR,
    drives           INTEGER,
    device           VARCHAR,
    chunk_kib        DOUBLE,
    drive_capacity_tb DOUBLE,               -- each drive's capacity (TB) as the bundle states it
    protocol         VARCHAR NOT NULL,
    filesystem       VARCHAR,
    mount_options    VARCHAR,
    db_engine        VARCHAR NOT NULL,
    db_version       VARCHAR,
    doublewrite      BOOLEAN,
    compression      VARCHAR,
    buffer_pool_mib  INTEGER,
    flush_method     VARCHAR,               -- innodb_flush_method as the settings state it
    flush_log_at_trx_commit VARCHAR,        -- innodb_flush_log_at_trx_commit as the settings state it
    host_cpu         VARCHAR,
    host_memory_gib  DOUBLE,
    usable_capacity  DOUBLE,                -- derived from RAID level, drives and group size
    PRIMARY KEY (study, system)
);

CREATE TABLE workloads (
    study           VARCHAR NOT NULL REFERENCES studies (study),
    workload        VARCHAR NOT NULL,
    tool            VARCHAR NOT NULL,
    tool_version    VARCHAR,
    test            VARCHAR NOT NULL,
    tables          INTEGER,
    rows_per_table  BIGINT,
    data_size       VARCHAR,
    distribution    VARCHAR,
    data_gb         DOUBLE,
    PRIMARY KEY (study, workload)
);

-- One row per value: a table cell, or (later) a figure computed from an artifact.
CREATE TABLE measurements (
    study         VARCHAR NOT NULL REFERENCES studies (study),
    result        VARCHAR NOT NULL,         -- the result table or artifact id
    result_index  INTEGER NOT NULL,         -- position of the result in its bundle
    row_index     INTEGER NOT NULL,         -- position as printed
    col_index     INTEGER NOT NULL,
    row_label     VARCHAR NOT NULL,
    column_label  VARCHAR NOT NULL,
    source        VARCHAR NOT NULL,
    system        VARCHAR NOT NULL,
    workload      VARCHAR NOT NULL,
    threads       INTEGER,
    state         VARCHAR,
    metric        VARCHAR NOT NULL,
    unit          VARCHAR NOT NULL,
    value         DOUBLE NOT NULL,
    value_text    VARCHAR NOT NULL,         -- the number exactly as recorded, e.g. 22048.90
    value_kind    VARCHAR NOT NULL CHECK (value_kind IN ('exact', 'derived', 'approximate', 'measured')),
    provenance    VARCHAR NOT NULL,         -- where it is printed or measured, as a reader cites it
    quote         VARCHAR,                  -- what the source prints for it, short (ingest/database/citing.py)
    printed_as    VARCHAR,                  -- the source's damaged text, when corrected
    correction    VARCHAR,                  -- why the printed text was read as value_text
    flag          VARCHAR,                  -- the keys of the notes recorded with this cell (comma-separated)
    note          VARCHAR,                  -- those notes in words ("; " between two)
    line          INTEGER,                  -- the line of the source document or artifact it is read from
    spread_cv     DOUBLE,                   -- coefficient of variation of interval samples (runs)
    PRIMARY KEY (study, result, row_index, col_index)
);

CREATE TABLE artifacts (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    artifact  VARCHAR NOT NULL,
    format    VARCHAR NOT NULL,
    path      VARCHAR NOT NULL,
    bytes     BIGINT NOT NULL,
    sha256    VARCHAR NOT NULL,
    PRIMARY KEY (study, artifact)
);

-- Where a log comes from, when it comes from a repository: one row per cited log (its figures are in the
-- bundle, the log is not: carried false) and per log carried in the bundle with its origin (carried true).
CREATE TABLE origins (
    study        VARCHAR NOT NULL REFERENCES studies (study),
    artifact     VARCHAR NOT NULL,          -- the id of the cited log or of the artifact
    carried      BOOLEAN NOT NULL,          -- the log is in the bundle and published (/raw/), or only cited
    repository   VARCHAR NOT NULL,          -- owner/name on GitHub
    commit_hash  VARCHAR NOT NULL,
    path         VARCHAR NOT NULL,          -- the file's path in the repository
    sha256       VARCHAR NOT NULL,          -- of the file's bytes at that commit
    licence      VARCHAR,                   -- NULL: the repository gives none (cited only)
    href         VARCHAR NOT NULL,          -- the file at that commit on GitHub (a line: href || '#L' || line)
    PRIMARY KEY (study, artifact)
);

-- One row per sysbench log in a bundle; incomplete runs are kept here but give no results.
CREATE TABLE runs (
    study              VARCHAR NOT NULL REFERENCES studies (study),
    artifact           VARCHAR NOT NULL,
    path               VARCHAR NOT NULL,
    log                VARCHAR NOT NULL,       -- the log as a reader cites it (ingest/database/citing.py)
    system             VARCHAR NOT NULL,
    workload           VARCHAR NOT NULL,
    threads            INTEGER,
    threads_source     VARCHAR,
    state              VARCHAR,
    sysbench_version   VARCHAR,
    test               VARCHAR,
    kind               VARCHAR,
    complete           BOOLEAN NOT NULL,
    report_interval_s  INTEGER,
    interval_tps_cv    DOUBLE,
    started            VARCHAR,
    elapsed_s          DOUBLE,
    warnings           VARCHAR[] NOT NULL,
    trace              VARCHAR,             -- the mdstat trace the run was aligned with
    computed_state     VARCHAR,             -- the array state(s) that trace shows during the run
    state_flag         VARCHAR,             -- why the declared state does not hold, if it does not
    PRIMARY KEY (study, artifact)
);

-- Each sample of each mdstat trace, for the array the trace follows.
CREATE TABLE trace_samples (
    study          VARCHAR NOT NULL REFERENCES studies (study),
    artifact       VARCHAR NOT NULL,
    array_name     VARCHAR NOT NULL,
    t_s            DOUBLE NOT NULL,
    time           VARCHAR NOT NULL,
    state          VARCHAR NOT NULL,
    operation      VARCHAR,
    percent        DOUBLE,
    done_blocks    BIGINT,
    speed_kib_s    BIGINT,
    PRIMARY KEY (study, artifact, t_s)
);

-- The --report-interval samples of each run (ingest/parsers/sysbench_intervals.py STORED_COLUMNS).
CREATE TABLE intervals (
    study         VARCHAR NOT NULL,           -- a study of studies (see below)
    artifact      VARCHAR NOT NULL,
    t_s           INTEGER NOT NULL,
    threads       INTEGER,
    tps           DOUBLE,
    qps           DOUBLE,
    reads_s       DOUBLE,
    writes_s      DOUBLE,
    other_s       DOUBLE,
    latency_pct   DOUBLE,
    latency_ms    DOUBLE,
    errors_s      DOUBLE,
    reconnects_s  DOUBLE,
    read_mib_s    DOUBLE,                   -- a fileio run's: MiB/s read, MiB/s written, fsyncs a second
    written_mib_s DOUBLE,
    fsyncs_s      DOUBLE
);
-- Its key is (study, artifact, t_s), and its study one of studies'. Neither is declared here: a key
-- and a foreign key over millions of samples took 9 and 12 s of a 1,000-bundle load (the index alone
-- 80 MB). keys.sql's unique index checks the key where a bundle's rows are made (each bundle staged
-- in a database of its own, stage.py; or loaded from scratch, load.py), and each row's study is the
-- bundle's own id, unique among the bundles (stage.py: duplicate_id); the database loaded from
-- staged bundles (stage.py: build_database_from) has no index on it.

-- The claims ledger: each quantitative claim (or inconsistency) with the formula that tests it.
CREATE TABLE claims (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    claim     VARCHAR NOT NULL,
    kind      VARCHAR NOT NULL,
    text      VARCHAR NOT NULL,             -- the wording exactly as printed
    reading   VARCHAR,                      -- how it is read: damaged text's intended words, or an English reading
    language  VARCHAR,                      -- the language of the source it is printed in (e.g. zh)
    source    VARCHAR NOT NULL,             -- where the claim is printed, as a reader cites it
    line      INTEGER,                      -- the line of the source's text transcription it is printed on
    stated    DOUBLE,
    unit      VARCHAR,
    computed  DOUBLE,
    verdict   VARCHAR NOT NULL,
    formula   VARCHAR,
    reason    VARCHAR,
    position  INTEGER NOT NULL,
    PRIMARY KEY (study, claim)
);

-- The --options of the command a sysbench log shows (a password's value is never kept).
CREATE TABLE run_options (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    artifact  VARCHAR NOT NULL,
    name      VARCHAR NOT NULL,
    value     VARCHAR NOT NULL,
    PRIMARY KEY (study, artifact, name)
);

-- A system's database settings as recorded (e.g. from SHOW GLOBAL VARIABLES), name and value as text.
CREATE TABLE system_settings (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    system    VARCHAR NOT NULL,
    name      VARCHAR NOT NULL,
    value     VARCHAR NOT NULL,
    PRIMARY KEY (study, system, name)
);

-- sysbench --histogram output, whole: each printed row (bucket value, count) in order, at its log line.
CREATE TABLE histograms (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    artifact  VARCHAR NOT NULL,
    position  INTEGER NOT NULL,             -- the row's place in the printed histogram, from 0
    value_ms  DOUBLE NOT NULL,              -- the bucket's value as printed (milliseconds)
    count     BIGINT NOT NULL,
    line      INTEGER,                      -- the log line it is printed on
    PRIMARY KEY (study, artifact, position)
);

-- Run-quality grades (schema/run-quality.yaml; computed by ingest/database/sql/quality.sql after the load).
-- Each rule's outcome for each run with interval samples.
CREATE TABLE run_checks (
    study     VARCHAR NOT NULL REFERENCES studies (study),
    artifact  VARCHAR NOT NULL,
    rule      VARCHAR NOT NULL,
    status    VARCHAR NOT NULL CHECK (status IN ('pass', 'warn', 'fail', 'not known')),
    value     DOUBLE,                       -- the figure the rule compares (NULL when not known)
    reason    VARCHAR NOT NULL,             -- the outcome in words, with its figures and threshold
    PRIMARY KEY (study, artifact, rule)
);

-- Each run's grade (every run: 'not graded' without interval samples) and its figures with the
-- warm-up included and excluded (of TPS; of a fileio run, its MiB/s read and written).
CREATE TABLE run_grades (
    study              VARCHAR NOT NULL REFERENCES studies (study),
    artifact           VARCHAR NOT NULL,
    grade              VARCHAR NOT NULL,
    reasons            VARCHAR NOT NULL,    -- the rules that fail, warn or are not known, in words
    samples            INTEGER NOT NULL,
    warmup_s           DOUBLE,              -- seconds of warm-up (NULL: not determined)
    tps_mean_all       DOUBLE,              -- mean interval TPS, warm-up included
    tps_mean_steady    DOUBLE,              -- mean interval TPS, warm-up excluded (NULL: not determined)
    cv_all             DOUBLE,
    cv_steady          DOUBLE,
    trend_pct_per_min  DOUBLE,
    stalls             INTEGER,
    PRIMARY KEY (study, artifact)
);

-- The stalls the grades count: each sample far under its run's median, with the array's state then.
CREATE TABLE run_stalls (
    study        VARCHAR NOT NULL REFERENCES studies (study),
    artifact     VARCHAR NOT NULL,
    t_s          INTEGER NOT NULL,
    tps          DOUBLE,
    median_tps   DOUBLE NOT NULL,
    array_state  VARCHAR,                   -- from the run's mdstat trace (NULL: no trace)
    PRIMARY KEY (study, artifact, t_s)
);

-- The rules the grades were computed by, as schema/run-quality.yaml gave them at build time.
CREATE TABLE quality_rules (
    rule        VARCHAR PRIMARY KEY,
    position    INTEGER NOT NULL,
    label       VARCHAR NOT NULL,
    checks      VARCHAR NOT NULL,
    thresholds  JSON NOT NULL
);
