//! `fuzziness`: `AUTO` (`AUTO:low,high`) or an edit count (0, 1, 2; larger values are capped).

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fuzziness {
    Auto { low: usize, high: usize },
    Edits(u8),
}

impl Fuzziness {
    pub const AUTO: Fuzziness = Fuzziness::Auto { low: 3, high: 6 };

    pub fn parse(text: &str) -> Result<Fuzziness> {
        let t = text.trim();
        let upper = t.to_ascii_uppercase();
        if upper == "AUTO" {
            return Ok(Fuzziness::AUTO);
        }
        if let Some(rest) = upper.strip_prefix("AUTO:") {
            let bad = || {
                Error::new(
                    crate::error::ErrorKind::Parsing,
                    "failed to find low and high distance values".to_string(),
                )
            };
            let (lo, hi) = rest.split_once(',').ok_or_else(bad)?;
            let low = lo.trim().parse::<usize>().map_err(|_| bad())?;
            let high = hi.trim().parse::<usize>().map_err(|_| bad())?;
            if low > high {
                return Err(Error::new(
                    crate::error::ErrorKind::Parsing,
                    "fuzziness wrongly configured, if you want to use AUTO with low and high distance values, please use AUTO:low,high".to_string(),
                ));
            }
            return Ok(Fuzziness::Auto { low, high });
        }
        match t.parse::<f32>() {
            Ok(f) if f >= 0.0 => Ok(Fuzziness::Edits((f as u32).min(2) as u8)),
            _ => Err(Error::illegal_argument(format!(
                "Invalid fuzziness value: {text}"
            ))),
        }
    }

    /// The edit distance for a term of `len` code points.
    pub fn edits(self, len: usize) -> u8 {
        match self {
            Fuzziness::Edits(n) => n,
            Fuzziness::Auto { low, high } => {
                if len < low {
                    0
                } else if len < high {
                    1
                } else {
                    2
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_and_numbers() {
        let a = Fuzziness::parse("AUTO").unwrap();
        assert_eq!(
            (a.edits(2), a.edits(3), a.edits(5), a.edits(6)),
            (0, 1, 1, 2)
        );
        assert_eq!(Fuzziness::parse("auto:2,4").unwrap().edits(3), 1);
        assert_eq!(Fuzziness::parse("5").unwrap(), Fuzziness::Edits(2));
        assert_eq!(Fuzziness::parse("1").unwrap(), Fuzziness::Edits(1));
        assert_eq!(
            Fuzziness::parse("x").unwrap_err().reason,
            "Invalid fuzziness value: x"
        );
    }
}
