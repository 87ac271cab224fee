-- Impact runs: every `src impact` answer, so the cascade can start from it and
-- `src impact show ID` can print it again. The L1 is stored as JSON, the L2 as markdown.
CREATE TABLE impact_runs (
    id          INTEGER PRIMARY KEY,
    created_at  TEXT NOT NULL,                    -- ISO-8601 with offset
    session     TEXT,                             -- the session id when the input was --session
    input_kind  TEXT NOT NULL CHECK (input_kind IN ('files', 'stdin', 'session', 'git-diff')),
    status      TEXT NOT NULL CHECK (status IN ('complete', 'partial', 'skipped')),
    confidence  TEXT NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
    l1          TEXT NOT NULL,                    -- the L1 document as JSON, impact_id included
    l2          TEXT NOT NULL                     -- the L2 markdown report
) STRICT;
CREATE INDEX impact_runs_by_session ON impact_runs(session, id);
