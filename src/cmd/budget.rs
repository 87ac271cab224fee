//! Token budgets for what commands print (`--max-tokens N`): the output is cut at whole rows so
//! that it fits, and a marker says how many rows were left out and how to get them.
//!
//! Owns the estimate (4 bytes a token, the usual figure for English and code), the search for
//! the most rows that fit and the marker's wording. Knows nothing of any command's rows or
//! formats: a command renders its own output for a given number of rows (the marker included)
//! and this module picks the number. Invariant: a cut output is within the budget unless even no
//! rows at all are over it (headers and the marker are always printed), and every cut names how
//! many rows it left out.

use serde::Serialize;

/// The token estimate: one token per 4 bytes of output.
pub const BYTES_PER_TOKEN: usize = 4;

/// The `--max-tokens` help line, the same for every command that takes it.
pub const HELP: &str = "Print at most about N tokens (estimated at 4 bytes each): whole rows \
     are cut from the end and a marker says how many and how to get them (0: no limit)";

/// A budget of tokens for one command's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub max_tokens: usize,
}

impl Budget {
    /// `None` for no budget (the flag absent, or 0).
    pub fn new(max_tokens: Option<usize>) -> Option<Budget> {
        max_tokens
            .filter(|n| *n > 0)
            .map(|max_tokens| Budget { max_tokens })
    }

    pub fn bytes(self) -> usize {
        self.max_tokens.saturating_mul(BYTES_PER_TOKEN)
    }

    /// The cut of `total` rows when `kept` of them are printed (`None`: nothing is left out).
    pub fn cut(self, kept: usize, total: usize) -> Option<Cut> {
        (kept < total).then_some(Cut {
            kept,
            left_out: total - kept,
            total,
            max_tokens: self.max_tokens,
        })
    }
}

/// What a budget left out, for the marker (and, in JSON output, as an object).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cut {
    pub kept: usize,
    pub left_out: usize,
    pub total: usize,
    pub max_tokens: usize,
}

impl Cut {
    /// The marker text: `unit` names the rows (`rows`, `entries`, `nodes`), `how` says how to get
    /// what was left out.
    pub fn message(&self, unit: &str, how: &str) -> String {
        format!(
            "cut: {} of {} {unit} left out for --max-tokens {} ({BYTES_PER_TOKEN} bytes a token); {how}",
            self.left_out, self.total, self.max_tokens
        )
    }
}

/// The output with the most of `rows` rows that fits `budget`, and how many that is:
/// `render(k)` is the whole output with the first `k` rows (and, when rows are left out, the
/// marker), and must not get shorter as `k` grows. With no budget every row is printed; when
/// not even zero rows fit, zero rows are.
pub fn fit(
    budget: Option<Budget>,
    rows: usize,
    mut render: impl FnMut(usize) -> anyhow::Result<String>,
) -> anyhow::Result<Fitted> {
    let all = render(rows)?;
    let Some(b) = budget else {
        return Ok(Fitted {
            kept: rows,
            text: all,
        });
    };
    let limit = b.bytes();
    if all.len() <= limit || rows == 0 {
        return Ok(Fitted {
            kept: rows,
            text: all,
        });
    }
    // The largest k in [0, rows) whose output fits; k = 0 when none does.
    let (mut lo, mut hi) = (0, rows - 1);
    let mut best = None;
    while lo <= hi {
        let mid = lo + (hi - lo) / 2;
        let text = render(mid)?;
        if text.len() <= limit {
            best = Some((mid, text));
            lo = mid + 1;
        } else if mid == 0 {
            break;
        } else {
            hi = mid - 1;
        }
    }
    let (kept, text) = match best {
        Some(b) => b,
        None => (0, render(0)?),
    };
    Ok(Fitted { kept, text })
}

/// An output fitted to a budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// Rows printed.
    pub kept: usize,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header line, `k` rows of 10 bytes, and a marker line when rows are left out.
    fn lines(k: usize, total: usize, budget: Budget) -> anyhow::Result<String> {
        let mut s = String::from("head\n");
        for i in 0..k {
            s.push_str(&format!("row {i:05}\n"));
        }
        if let Some(c) = budget.cut(k, total) {
            s.push_str(&c.message("rows", "ask again"));
            s.push('\n');
        }
        Ok(s)
    }

    #[test]
    fn cuts_at_whole_rows_and_counts_the_rest() -> anyhow::Result<()> {
        let b = Budget { max_tokens: 60 }; // 240 bytes
        let f = fit(Some(b), 100, |k| lines(k, 100, b))?;
        assert!(f.text.len() <= 240, "{}", f.text.len());
        assert!(f.kept > 0 && f.kept < 100);
        // One more row would not have fitted.
        assert!(lines(f.kept + 1, 100, b)?.len() > 240);
        let marker = f.text.lines().last().unwrap_or_default();
        assert!(
            marker.starts_with(&format!("cut: {} of 100 rows left out", 100 - f.kept)),
            "{marker}"
        );
        assert!(marker.contains("--max-tokens 60"), "{marker}");
        Ok(())
    }

    #[test]
    fn no_budget_or_enough_budget_prints_everything() -> anyhow::Result<()> {
        let b = Budget { max_tokens: 1000 };
        assert_eq!(fit(None, 5, |k| lines(k, 5, b))?.kept, 5);
        let f = fit(Some(b), 5, |k| lines(k, 5, b))?;
        assert_eq!(f.kept, 5);
        assert!(!f.text.contains("cut:"));
        assert_eq!(Budget::new(Some(0)), None);
        assert_eq!(Budget::new(None), None);
        Ok(())
    }

    #[test]
    fn a_budget_too_small_for_any_row_keeps_the_header_and_the_marker() -> anyhow::Result<()> {
        let b = Budget { max_tokens: 1 };
        let f = fit(Some(b), 3, |k| lines(k, 3, b))?;
        assert_eq!(f.kept, 0);
        assert!(f.text.starts_with("head\ncut: 3 of 3 rows left out"));
        Ok(())
    }
}
