-- Edits made in a linked git worktree of the repository (a worktree-isolated subagent works in
-- `.claude/worktrees/agent-*/`, or in another checkout of the same repository) are recorded as
-- edits of the root's own file: `path` and `abs_path` name that file, and `worktree` the
-- checkout the edit was made in (absolute). NULL for edits made in the root's own checkout.
ALTER TABLE events ADD COLUMN worktree TEXT;
