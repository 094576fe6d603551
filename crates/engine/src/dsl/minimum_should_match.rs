//! `minimum_should_match`: integers, percentages (negative ones count what may be missing) and
//! conditional forms `n<spec` (several, space separated), as Lucene's Queries.calculateMinShouldMatch.

use crate::error::{Error, ErrorKind, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct MinimumShouldMatch(pub String);

impl MinimumShouldMatch {
    /// How many of `clauses` optional clauses must match: possibly more than there are (the
    /// query then matches nothing, as Lucene's boolean does). A malformed number fails as
    /// Java's `Integer.parseInt` does (`number_format_exception`, for the part it read).
    pub fn resolve(&self, clauses: usize) -> Result<usize> {
        let n = i32::try_from(clauses).unwrap_or(i32::MAX);
        Ok(calculate(n, &self.0)?.max(0) as usize)
    }
}

/// Lucene's `Queries.calculateMinShouldMatch`, in its int and float arithmetic.
fn calculate(n: i32, spec: &str) -> Result<i32> {
    let spec = spec.trim();
    if spec.contains('<') {
        // "3<90%" or "2<-25% 9<-3": conditions in order, until one's bound reaches `n`.
        let joined = spec.split('<').map(str::trim).collect::<Vec<_>>().join("<");
        let mut result = n;
        for s in joined.split_whitespace() {
            let mut parts = s.split('<');
            let upper = java_int(parts.next().unwrap_or(""))?;
            if n <= upper {
                return Ok(result);
            }
            result = calculate(n, parts.next().unwrap_or(""))?;
        }
        return Ok(result);
    }
    let result = if spec.contains('%') {
        // The `%` is taken to be the last character; anything else fails to parse.
        let cut = spec.char_indices().last().map_or(0, |(i, _)| i);
        let percent = java_int(&spec[..cut])?;
        let calc = n.wrapping_mul(percent) as f32 * (1.0f32 / 100.0);
        if calc < 0.0 {
            n + calc as i32
        } else {
            calc as i32
        }
    } else {
        let calc = java_int(spec)?;
        if calc < 0 {
            n + calc
        } else {
            calc
        }
    };
    Ok(result.max(0))
}

/// `Integer.parseInt`: an optional sign and decimal digits that fit an int.
fn java_int(s: &str) -> Result<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = s.parse::<i32>() {
            return Ok(v);
        }
    }
    Err(Error::new(
        ErrorKind::NumberFormat,
        format!("For input string: \"{s}\""),
    ))
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
        assert_eq!(r("10", 3), 10, "more than there are: nothing matches");
        assert_eq!(r("150%", 2), 3);
        assert_eq!(r("-150%", 2), 0);
        assert_eq!(r("2 < 50%", 4), 2);
        assert_eq!(r("+1", 3), 1);
    }

    #[test]
    fn number_format_as_java() {
        let e = |s: &str| MinimumShouldMatch(s.into()).resolve(4).unwrap_err().reason;
        assert_eq!(e("x"), "For input string: \"x\"");
        assert_eq!(e("x%"), "For input string: \"x\"");
        assert_eq!(e("1.5"), "For input string: \"1.5\"");
        assert_eq!(e("2<x"), "For input string: \"x\"");
        assert_eq!(e("a<2"), "For input string: \"a\"");
        assert_eq!(MinimumShouldMatch("9<x".into()).resolve(4).unwrap(), 4);
    }
}
