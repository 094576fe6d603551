//! Char filters (`html_strip`, `mapping`, `pattern_replace`) and the offset corrections that map
//! positions in their output back to the text they were given.

pub mod html_strip;
pub mod mapping;
pub mod pattern_replace;

use crate::analysis::params::Def;
use crate::error::{Error, Result};
use std::sync::Arc;

/// Output offset → cumulative difference to add, as Lucene's BaseCharFilter keeps it.
#[derive(Default, Debug, Clone)]
pub struct OffsetMap {
    points: Vec<(usize, isize)>,
    diff: isize,
}

impl OffsetMap {
    /// From output offset `out_off` on, offsets shift by `diff` more than before.
    pub fn add(&mut self, out_off: usize, delta: isize) {
        self.diff += delta;
        match self.points.last_mut() {
            Some(last) if last.0 == out_off => last.1 = self.diff,
            _ => self.points.push((out_off, self.diff)),
        }
    }

    pub fn correct(&self, off: usize) -> usize {
        let i = self.points.partition_point(|p| p.0 <= off);
        if i == 0 {
            off
        } else {
            (off as isize + self.points[i - 1].1).max(0) as usize
        }
    }
}

pub trait CharFilter: Send + Sync {
    fn filter(&self, text: &str, map: &mut OffsetMap) -> String;
}

pub const NAMES: &[&str] = &["html_strip", "mapping", "pattern_replace"];

pub fn build(kind: &str, def: &Def) -> Result<Arc<dyn CharFilter>> {
    Ok(match kind {
        "html_strip" | "htmlStrip" => Arc::new(html_strip::HtmlStrip {
            escaped: def.list_split("escaped_tags").unwrap_or_default(),
        }),
        "mapping" => {
            let Some(rules) = def.list("mappings") else {
                return Err(Error::illegal_argument(
                    "mapping requires either `mappings` or `mappings_path` to be configured",
                ));
            };
            Arc::new(mapping::Mapping::parse(&rules)?)
        }
        "pattern_replace" => {
            let regex = crate::analysis::tokenizer::pattern::java_regex(
                def.str("pattern").unwrap_or(""),
                def.str("flags").unwrap_or(""),
            )?;
            Arc::new(pattern_replace::PatternReplace {
                regex,
                replacement: crate::analysis::filter::simple::java_replacement(
                    def.str("replacement").unwrap_or(""),
                ),
            })
        }
        _ => {
            return Err(Error::illegal_argument(format!(
                "failed to find global char_filter under [{kind}]"
            )))
        }
    })
}
