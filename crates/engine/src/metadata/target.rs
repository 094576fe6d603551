//! Index expressions → concrete indices: comma lists, `*` wildcards, `-` exclusions, `_all`,
//! aliases, hidden indices, and `expand_wildcards` / `ignore_unavailable` / `allow_no_indices`.

use crate::error::{Error, Result};
use crate::index::index_service::IndexMeta;
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct IndicesOptions {
    pub ignore_unavailable: bool,
    pub allow_no_indices: bool,
    pub expand_open: bool,
    pub expand_hidden: bool,
}

impl IndicesOptions {
    /// Defaults of read-type APIs (search, count, get index).
    pub fn lenient_expand_open() -> Self {
        IndicesOptions {
            ignore_unavailable: false,
            allow_no_indices: true,
            expand_open: true,
            expand_hidden: false,
        }
    }

    /// Defaults of index admin APIs that must name something (get index, mappings, settings
    /// updates, aliases): wildcards expand to open indices, a miss is an error.
    pub fn strict_expand_open() -> Self {
        IndicesOptions {
            ignore_unavailable: false,
            allow_no_indices: false,
            expand_open: true,
            expand_hidden: false,
        }
    }

    /// Defaults of APIs on one concrete index (document APIs).
    pub fn strict_single() -> Self {
        IndicesOptions {
            ignore_unavailable: false,
            allow_no_indices: false,
            expand_open: false,
            expand_hidden: false,
        }
    }

    pub fn apply_expand_wildcards(&mut self, value: &str) -> Result<()> {
        self.expand_open = false;
        self.expand_hidden = false;
        for part in value.split(',') {
            match part.trim() {
                "open" => self.expand_open = true,
                "closed" => {}
                "hidden" => self.expand_hidden = true,
                "all" => {
                    self.expand_open = true;
                    self.expand_hidden = true;
                }
                "none" => {}
                other => {
                    return Err(Error::illegal_argument(format!(
                        "No valid expand wildcard value [{other}]"
                    )))
                }
            }
        }
        Ok(())
    }
}

pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p = pattern.as_bytes();
    let n = name.as_bytes();
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            pi += 1;
            mark = ni;
        } else if pi < p.len() && p[pi] == n[ni] {
            pi += 1;
            ni += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// Resolves `expression` (a comma list; empty means all) against the indices' metadata.
pub fn resolve(
    indices: &[Arc<IndexMeta>],
    expression: &str,
    opts: IndicesOptions,
) -> Result<Vec<String>> {
    let parts: Vec<&str> = if expression.trim().is_empty() {
        vec!["_all"]
    } else {
        expression.split(',').map(str::trim).collect()
    };
    let mut out: BTreeSet<String> = BTreeSet::new();
    let mut ordered: Vec<String> = Vec::new();
    let mut saw_wildcard = false;
    let push = |name: &str, out: &mut BTreeSet<String>, ordered: &mut Vec<String>| {
        if out.insert(name.to_string()) {
            ordered.push(name.to_string());
        }
    };
    for (i, raw) in parts.iter().enumerate() {
        let part = *raw;
        if part.is_empty() {
            continue;
        }
        if let Some(excluded) = part.strip_prefix('-').filter(|_| saw_wildcard || i > 0) {
            let matched: Vec<String> = ordered
                .iter()
                .filter(|n| glob_match(excluded, n) || alias_of(indices, n, excluded))
                .cloned()
                .collect();
            for m in matched {
                out.remove(&m);
                ordered.retain(|x| x != &m);
            }
            continue;
        }
        if part == "_all" || part.contains('*') {
            saw_wildcard = true;
            if !opts.expand_open && !opts.expand_hidden {
                continue;
            }
            let pattern = if part == "_all" { "*" } else { part };
            let mut matched = false;
            for m in indices {
                let hidden = m.settings.hidden;
                let visible = if hidden {
                    opts.expand_hidden || (pattern.starts_with('.') && m.name.starts_with('.'))
                } else {
                    opts.expand_open
                };
                if !visible {
                    continue;
                }
                if glob_match(pattern, &m.name) {
                    matched = true;
                    push(&m.name, &mut out, &mut ordered);
                }
                for (alias, a) in &m.aliases {
                    let alias_visible = !a.is_hidden.unwrap_or(false) || opts.expand_hidden;
                    if alias_visible && part != "_all" && glob_match(pattern, alias) {
                        matched = true;
                        push(&m.name, &mut out, &mut ordered);
                    }
                }
            }
            if !matched && !opts.allow_no_indices {
                return Err(Error::index_not_found(part));
            }
            continue;
        }
        if part.starts_with('_') {
            return Err(Error::new(
                crate::error::ErrorKind::InvalidIndexName,
                format!("Invalid index name [{part}], must not start with '_'."),
            )
            .with("index", part)
            .with("index_uuid", "_na_"));
        }
        let mut found = false;
        for m in indices {
            if m.name == part || m.aliases.contains_key(part) {
                found = true;
                push(&m.name, &mut out, &mut ordered);
            }
        }
        if !found && !opts.ignore_unavailable {
            return Err(Error::index_not_found(part));
        }
    }
    if ordered.is_empty() && !opts.allow_no_indices {
        return Err(Error::index_not_found(expression));
    }
    Ok(ordered)
}

fn alias_of(indices: &[Arc<IndexMeta>], index: &str, pattern: &str) -> bool {
    indices
        .iter()
        .any(|m| m.name == index && m.aliases.keys().any(|a| glob_match(pattern, a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("log*", "logs-1"));
        assert!(glob_match("*", "x"));
        assert!(glob_match("a*c", "abbbc"));
        assert!(!glob_match("a*c", "abd"));
        assert!(glob_match("*-1", "logs-1"));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "acb"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("ab*ba", "aba"));
    }
}
