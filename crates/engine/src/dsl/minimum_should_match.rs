//! `minimum_should_match`: integers, percentages (negative ones count what may be missing) and
//! conditional forms `n<spec` (several, space separated), as Lucene's Queries.calculateMinShouldMatch.

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct MinimumShouldMatch(pub String);

impl MinimumShouldMatch {
    /// How many of `clauses` optional clauses must match.
    pub fn resolve(&self, clauses: usize) -> Result<usize> {
        let spec = self.0.trim();
        let n = clauses as i64;
        let mut result = n;
        if spec.contains('<') {
            // "3<90%" or "2<-25% 9<-3": the last condition whose bound is below n applies.
            for part in spec.split_whitespace() {
                let (upper, rest) = part.split_once('<').ok_or_else(|| bad(spec))?;
                let upper: i64 = upper.trim().parse().map_err(|_| bad(spec))?;
                if n > upper {
                    result = single(rest, n, spec)?;
                } else {
                    break;
                }
            }
        } else {
            result = single(spec, n, spec)?;
        }
        Ok(result.clamp(0, n.max(0)) as usize)
    }
}

fn single(s: &str, n: i64, spec: &str) -> Result<i64> {
    let s = s.trim();
    if let Some(p) = s.strip_suffix('%') {
        let pct: f64 = p.trim().parse::<i64>().map_err(|_| bad(spec))? as f64;
        let calc = ((pct * n as f64) / 100.0) as i64;
        Ok(if pct < 0.0 { n + calc } else { calc })
    } else {
        let v: i64 = s.parse().map_err(|_| bad(spec))?;
        Ok(if v < 0 { n + v } else { v })
    }
}

fn bad(spec: &str) -> Error {
    Error::illegal_argument(format!("Invalid minimum_should_match [{spec}]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str, n: usize) -> usize {
        MinimumShouldMatch(s.into()).resolve(n).unwrap()
    }

    #[test]
    fn forms() {
        assert_eq!(r("2", 5), 2);
        assert_eq!(r("-1", 5), 4);
        assert_eq!(r("75%", 4), 3);
        assert_eq!(r("-25%", 4), 3);
        assert_eq!(r("-25%", 3), 3);
        assert_eq!(r("3<90%", 3), 3);
        assert_eq!(r("3<90%", 10), 9);
        assert_eq!(r("2<-25% 9<-3", 12), 9);
        assert_eq!(r("10", 3), 3);
    }
}
