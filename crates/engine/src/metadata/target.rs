//! Index expressions → concrete indices: comma lists, `*` wildcards, `-` exclusions, `_all`,
//! aliases, hidden and closed indices, and `expand_wildcards` / `ignore_unavailable` /
//! `allow_no_indices` / `forbid_closed_indices`.

use crate::error::{Error, Result};
use crate::index::index_service::{AliasMeta, IndexMeta};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct IndicesOptions {
    pub ignore_unavailable: bool,
    pub allow_no_indices: bool,
    pub expand_open: bool,
    pub expand_closed: bool,
    pub expand_hidden: bool,
    /// A closed index named (or reached through an alias or `expand_wildcards=closed`) fails
    /// the request with `index_closed_exception`, or is skipped under `ignore_unavailable`.
    /// Every API that reads or writes documents forbids them; metadata APIs do not.
    pub forbid_closed: bool,
}

impl IndicesOptions {
    /// Defaults of read-type APIs (search, count, refresh): wildcards expand to open indices,
    /// matching nothing is fine, closed indices are forbidden.
    pub fn lenient_expand_open() -> Self {
        IndicesOptions {
            ignore_unavailable: false,
            allow_no_indices: true,
            expand_open: true,
            expand_closed: false,
            expand_hidden: false,
            forbid_closed: true,
        }
    }

    /// Defaults of index admin APIs that must name something (get index, mappings, settings
    /// updates, aliases): wildcards expand to open indices, a miss is an error.
    pub fn strict_expand_open() -> Self {
        IndicesOptions {
            allow_no_indices: false,
            ..IndicesOptions::lenient_expand_open()
        }
    }

    /// Defaults of APIs on one concrete index (document APIs).
    pub fn strict_single() -> Self {
        IndicesOptions {
            allow_no_indices: false,
            expand_open: false,
            ..IndicesOptions::lenient_expand_open()
        }
    }

    /// These options for an API that works on closed indices too (metadata reads and updates,
    /// deletion, closing and opening).
    pub fn allowing_closed(self) -> Self {
        IndicesOptions {
            forbid_closed: false,
            ..self
        }
    }

    /// These options with wildcards expanding to closed indices as well as open ones.
    pub fn expanding_closed(self) -> Self {
        IndicesOptions {
            expand_closed: true,
            ..self
        }
    }

    pub fn apply_expand_wildcards(&mut self, value: &str) -> Result<()> {
        self.expand_open = false;
        self.expand_closed = false;
        self.expand_hidden = false;
        for part in value.split(',') {
            match part.trim() {
                "open" => self.expand_open = true,
                "closed" => self.expand_closed = true,
                "hidden" => self.expand_hidden = true,
                "all" => {
                    self.expand_open = true;
                    self.expand_closed = true;
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
    resolve_expressions(indices, expression, opts).map(|r| r.indices)
}

/// A read's targets: the concrete indices, and the names the expression resolved to before
/// aliases were replaced by their indices (OpenSearch's `resolveExpressions`, aliases
/// preserved), which decide the alias filters and search routing each index is read with.
#[derive(Debug, Default)]
pub struct Resolved {
    pub indices: Vec<String>,
    pub expressions: BTreeSet<String>,
}

impl Resolved {
    /// The aliases whose filters a read of `meta` is held to (`indexAliases` with
    /// `filteringRequired`): none when the index was named itself or through an alias without
    /// a filter, since any unfiltered way in sees every document; several are OR-ed.
    pub fn filtering_aliases<'a>(&self, meta: &'a IndexMeta) -> Vec<(&'a str, &'a AliasMeta)> {
        if self.expressions.contains(&meta.name) {
            return Vec::new();
        }
        let through: Vec<(&str, &AliasMeta)> = meta
            .aliases
            .iter()
            .filter(|(name, _)| self.expressions.contains(*name))
            .map(|(name, a)| (name.as_str(), a))
            .collect();
        if through.iter().any(|(_, a)| a.filter.is_none()) {
            return Vec::new();
        }
        through
    }

    /// The routing values a search of `meta` goes with (`resolveSearchRouting`): `param` (the
    /// request's `routing`) when the index was named itself or through an alias without
    /// `search_routing`; otherwise its aliases' search routing values, kept only where
    /// `param` names them too. An empty intersection routes nowhere in particular: every shard.
    pub fn search_routing(&self, meta: &IndexMeta, param: Option<&str>) -> Option<Vec<String>> {
        let param: Option<Vec<String>> = param.map(split_routing);
        let through: Vec<&AliasMeta> = meta
            .aliases
            .iter()
            .filter(|(name, _)| self.expressions.contains(*name))
            .map(|(_, a)| a)
            .collect();
        let direct = self.expressions.contains(&meta.name) || through.is_empty();
        if direct || through.iter().any(|a| a.search_routing.is_none()) {
            return param;
        }
        let mut values: Vec<String> = Vec::new();
        for a in &through {
            for v in split_routing(a.search_routing.as_deref().unwrap_or_default()) {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
        }
        if let Some(p) = &param {
            values.retain(|v| p.contains(v));
        }
        (!values.is_empty()).then_some(values)
    }
}

/// A routing list as `Strings.splitStringByCommaToArray` reads it.
fn split_routing(s: &str) -> Vec<String> {
    s.split(',')
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect()
}

/// [`resolve`], keeping the names the expression resolved to.
pub fn resolve_expressions(
    indices: &[Arc<IndexMeta>],
    expression: &str,
    opts: IndicesOptions,
) -> Result<Resolved> {
    let mut expressions: BTreeSet<String> = BTreeSet::new();
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
    for part in parts.iter().copied() {
        if part.is_empty() {
            continue;
        }
        // A `-` excludes only after a wildcard (before one it is part of a name). A pattern
        // takes out the indices it matches by name or through an alias; a plain name only
        // the index of that name (an alias's indices stay).
        if let Some(excluded) = part.strip_prefix('-').filter(|_| saw_wildcard) {
            let matched: Vec<String> = ordered
                .iter()
                .filter(|n| {
                    glob_match(excluded, n)
                        || excluded.contains('*') && alias_of(indices, n, excluded)
                })
                .cloned()
                .collect();
            for m in matched {
                out.remove(&m);
                ordered.retain(|x| x != &m);
            }
            expressions.retain(|n| !glob_match(excluded, n));
            continue;
        }
        if part == "_all" || part.contains('*') {
            saw_wildcard = true;
            if !opts.expand_open && !opts.expand_closed && !opts.expand_hidden {
                continue;
            }
            let pattern = if part == "_all" { "*" } else { part };
            let mut matched = false;
            for m in indices {
                let hidden = m.settings.hidden;
                let visible = if hidden {
                    opts.expand_hidden || (pattern.starts_with('.') && m.name.starts_with('.'))
                } else {
                    opts.expand_open || opts.expand_closed
                };
                // A wildcard reaches an index in the states it expands to.
                let state = if m.is_closed() {
                    opts.expand_closed
                } else {
                    opts.expand_open || !opts.expand_closed
                };
                if !visible || !state {
                    continue;
                }
                if glob_match(pattern, &m.name) {
                    matched = true;
                    push(&m.name, &mut out, &mut ordered);
                    expressions.insert(m.name.clone());
                }
                for (alias, a) in &m.aliases {
                    let alias_visible = !a.is_hidden.unwrap_or(false) || opts.expand_hidden;
                    if alias_visible && part != "_all" && glob_match(pattern, alias) {
                        matched = true;
                        push(&m.name, &mut out, &mut ordered);
                        expressions.insert(alias.clone());
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
        if found {
            expressions.insert(part.to_string());
        } else if !opts.ignore_unavailable {
            return Err(Error::index_not_found(part));
        }
    }
    let closed: Vec<&Arc<IndexMeta>> = indices
        .iter()
        .filter(|m| m.is_closed() && out.contains(&m.name))
        .collect();
    if opts.forbid_closed && !closed.is_empty() {
        if !opts.ignore_unavailable {
            // Asked to expand to closed indices only, where they are forbidden.
            if opts.expand_closed && !opts.expand_open && !opts.expand_hidden {
                return Err(Error::illegal_argument(
                    "To expand [CLOSE] wildcard, please set forbid_closed_indices to `false`",
                ));
            }
            let first = ordered
                .iter()
                .find_map(|n| closed.iter().find(|m| m.name == *n))
                .expect("a closed target");
            return Err(first.closed_error());
        }
        ordered.retain(|n| !closed.iter().any(|m| m.name == *n));
        if ordered.is_empty() && !opts.allow_no_indices {
            // OpenSearch's concrete-index check, which names no index.
            return Err(Error::new(
                crate::error::ErrorKind::IndexNotFound,
                "no such index [null]",
            )
            .with("resource.id", expression)
            .with("resource.type", "index_expression"));
        }
    }
    if ordered.is_empty() && !opts.allow_no_indices {
        return Err(Error::index_not_found(expression));
    }
    Ok(Resolved {
        indices: ordered,
        expressions,
    })
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

    /// `i` with aliases `fx` (filter), `fy` (filter), `open` (none), `r` (search routing 1,2).
    fn index() -> Vec<Arc<IndexMeta>> {
        let filtered = |k: &str| AliasMeta {
            filter: Some(serde_json::json!({"term": {"k": k}})),
            ..AliasMeta::default()
        };
        let mut aliases = std::collections::BTreeMap::new();
        aliases.insert("fx".to_string(), filtered("x"));
        aliases.insert("fy".to_string(), filtered("y"));
        aliases.insert("open".to_string(), AliasMeta::default());
        aliases.insert(
            "r".to_string(),
            AliasMeta {
                search_routing: Some("1,2".into()),
                ..AliasMeta::default()
            },
        );
        vec![Arc::new(IndexMeta {
            name: "i".into(),
            uuid: "u".into(),
            settings: crate::index::settings::IndexSettings::from_flat(Default::default()).unwrap(),
            mapping: crate::index::mapping::Mapping::empty(),
            aliases,
            state: Default::default(),
        })]
    }

    fn filters(expression: &str) -> Vec<String> {
        let metas = index();
        let r =
            resolve_expressions(&metas, expression, IndicesOptions::lenient_expand_open()).unwrap();
        r.filtering_aliases(&metas[0])
            .into_iter()
            .map(|(n, _)| n.to_string())
            .collect()
    }

    #[test]
    fn alias_filters_follow_opensearchs_rules() {
        assert_eq!(filters("fx"), ["fx"]);
        assert_eq!(filters("fx,fy"), ["fx", "fy"]);
        assert_eq!(filters("f*"), ["fx", "fy"]);
        assert_eq!(filters("f*,-fy"), ["fx"]);
        // Named itself, through all, or through an alias without a filter: unfiltered.
        assert!(filters("fx,i").is_empty());
        assert!(filters("*").is_empty());
        assert!(filters("_all").is_empty());
        assert!(filters("").is_empty());
        assert!(filters("fx,open").is_empty());
    }

    #[test]
    fn exclusions_take_out_names_or_what_a_pattern_reaches() {
        let metas = index();
        let opts = IndicesOptions::lenient_expand_open();
        let names = |e: &str| resolve(&metas, e, opts).unwrap();
        assert_eq!(names("f*,-fy"), ["i"]);
        assert!(names("*,-f*").is_empty());
        assert!(names("f*,-i").is_empty());
        // Before a wildcard, `-` is part of a name.
        assert_eq!(
            resolve(&metas, "i,-fx", opts).unwrap_err().reason,
            "no such index [-fx]"
        );
    }

    fn routing(expression: &str, param: Option<&str>) -> Option<Vec<String>> {
        let metas = index();
        let r =
            resolve_expressions(&metas, expression, IndicesOptions::lenient_expand_open()).unwrap();
        r.search_routing(&metas[0], param)
    }

    #[test]
    fn search_routing_follows_opensearchs_rules() {
        let v = |s: &[&str]| Some(s.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(routing("r", None), v(&["1", "2"]));
        assert_eq!(routing("r", Some("2,3")), v(&["2"]));
        // Nothing in common: every shard.
        assert_eq!(routing("r", Some("3")), None);
        assert_eq!(routing("i", Some("3")), v(&["3"]));
        assert_eq!(routing("r,i", None), None);
        assert_eq!(routing("r,fx", Some("5")), v(&["5"]));
    }

    /// `open` and `shut` (closed, with alias `shut_alias`).
    fn open_and_closed() -> Vec<Arc<IndexMeta>> {
        let meta = |name: &str, state| {
            let mut aliases = std::collections::BTreeMap::new();
            if state == crate::index::index_service::IndexState::Close {
                aliases.insert("shut_alias".to_string(), AliasMeta::default());
            }
            Arc::new(IndexMeta {
                name: name.into(),
                uuid: format!("{name}-uuid"),
                settings: crate::index::settings::IndexSettings::from_flat(Default::default())
                    .unwrap(),
                mapping: crate::index::mapping::Mapping::empty(),
                aliases,
                state,
            })
        };
        use crate::index::index_service::IndexState::*;
        vec![meta("open", Open), meta("shut", Close)]
    }

    #[test]
    fn closed_indices_are_forbidden_skipped_or_allowed_as_the_options_say() {
        let metas = open_and_closed();
        let read = IndicesOptions::lenient_expand_open();
        let names = |e: &str, o: IndicesOptions| resolve(&metas, e, o);
        let err = |e: &str, o: IndicesOptions| names(e, o).unwrap_err();
        // Wildcards expand to open indices only, by default.
        assert_eq!(names("*", read).unwrap(), ["open"]);
        assert_eq!(names("_all", read).unwrap(), ["open"]);
        // Named, or through an alias: refused.
        let e = err("shut", read);
        assert_eq!(
            (e.type_name(), e.reason.as_str(), e.status()),
            ("index_closed_exception", "closed", 400)
        );
        assert_eq!(e.to_json()["index"], "shut");
        assert_eq!(e.to_json()["index_uuid"], "shut-uuid");
        assert_eq!(
            err("shut_alias", read).type_name(),
            "index_closed_exception"
        );
        assert_eq!(err("open,shut", read).type_name(), "index_closed_exception");
        // Skipped under ignore_unavailable; nothing left is an error only if asked.
        let ignore = IndicesOptions {
            ignore_unavailable: true,
            ..read
        };
        assert_eq!(names("open,shut", ignore).unwrap(), ["open"]);
        assert!(names("shut", ignore).unwrap().is_empty());
        let strict = IndicesOptions {
            allow_no_indices: false,
            ..ignore
        };
        let e = err("shut", strict);
        assert_eq!(
            (e.reason.as_str(), e.to_json()["resource.type"].as_str()),
            ("no such index [null]", Some("index_expression"))
        );
        // Expanding to closed indices where they are forbidden.
        let mut closed_only = read;
        closed_only.apply_expand_wildcards("closed").unwrap();
        assert_eq!(
            err("s*", closed_only).reason,
            "To expand [CLOSE] wildcard, please set forbid_closed_indices to `false`"
        );
        let mut all = read;
        all.apply_expand_wildcards("all").unwrap();
        assert_eq!(err("*", all).type_name(), "index_closed_exception");
        // Metadata APIs take them; wildcards reach them when asked to.
        let meta = read.allowing_closed();
        assert_eq!(names("shut", meta).unwrap(), ["shut"]);
        assert_eq!(names("*", meta).unwrap(), ["open"]);
        assert_eq!(
            names("*", meta.expanding_closed()).unwrap(),
            ["open", "shut"]
        );
        let mut only_closed = meta;
        only_closed.apply_expand_wildcards("closed").unwrap();
        assert_eq!(names("*", only_closed).unwrap(), ["shut"]);
    }
}
