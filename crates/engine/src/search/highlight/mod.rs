//! The `highlight` fetch sub-phase: OpenSearch's `HighlightBuilder` options (global, overridden
//! per field), and per hit the fragments of each requested field: its `_source` values
//! re-analysed with the field's index analyzer, the query's terms, phrases and patterns found
//! in them ([`terms`]), and passages cut and chosen as Lucene's unified highlighter does
//! ([`unified`], with the JDK's break iterators from [`breaks`] run one value at a time by
//! [`split`]).

pub mod breaks;
pub mod plain;
pub mod split;
pub mod terms;
pub mod unified;

use crate::dsl::json::{Node, Pos, J};
use crate::dsl::{self, x_content};
use crate::error::{Error, Result};
use crate::index::mapping::{FieldMapping, FieldType, Mapping};
use crate::query::Context;
use breaks::BreakIterator;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use terms::{Matcher, Part};
use unified::{Breaker, Hit};

/// Options of the whole request or of one field (`None`: not given there).
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub pre_tags: Option<Vec<String>>,
    pub post_tags: Option<Vec<String>>,
    pub fragment_size: Option<i64>,
    pub number_of_fragments: Option<i64>,
    pub fragmenter: Option<String>,
    pub highlighter_type: Option<String>,
    pub require_field_match: Option<bool>,
    pub highlight_query: Option<dsl::Query>,
    pub score_ordered: Option<bool>,
    pub no_match_size: Option<i64>,
    pub boundary_scanner: Option<String>,
    pub html: Option<bool>,
}

impl Options {
    /// These options with `base`'s where these leave one unset.
    fn or(&self, base: &Options) -> Options {
        Options {
            pre_tags: self.pre_tags.clone().or_else(|| base.pre_tags.clone()),
            post_tags: self.post_tags.clone().or_else(|| base.post_tags.clone()),
            fragment_size: self.fragment_size.or(base.fragment_size),
            number_of_fragments: self.number_of_fragments.or(base.number_of_fragments),
            fragmenter: self.fragmenter.clone().or_else(|| base.fragmenter.clone()),
            highlighter_type: self
                .highlighter_type
                .clone()
                .or_else(|| base.highlighter_type.clone()),
            require_field_match: self.require_field_match.or(base.require_field_match),
            highlight_query: self
                .highlight_query
                .clone()
                .or_else(|| base.highlight_query.clone()),
            score_ordered: self.score_ordered.or(base.score_ordered),
            no_match_size: self.no_match_size.or(base.no_match_size),
            boundary_scanner: self
                .boundary_scanner
                .clone()
                .or_else(|| base.boundary_scanner.clone()),
            html: self.html.or(base.html),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Highlight {
    pub global: Options,
    /// Requested fields (names or patterns) with their own options, in request order.
    pub fields: Vec<(String, Options)>,
}

const STYLED_PRE: [&str; 10] = [
    "<em class=\"hlt1\">",
    "<em class=\"hlt2\">",
    "<em class=\"hlt3\">",
    "<em class=\"hlt4\">",
    "<em class=\"hlt5\">",
    "<em class=\"hlt6\">",
    "<em class=\"hlt7\">",
    "<em class=\"hlt8\">",
    "<em class=\"hlt9\">",
    "<em class=\"hlt10\">",
];

fn failed(scope: &str, key: &str, pos: Pos, cause: Error) -> Error {
    x_content(format!("[{scope}] failed to parse field [{key}]"), pos).caused_by(cause)
}

fn strings(scope: &str, key: &str, v: &Node) -> Result<Vec<String>> {
    match &v.v {
        J::Arr(items) => items
            .iter()
            .map(|i| {
                i.text().ok_or_else(|| {
                    x_content(
                        format!(
                            "[{scope}] {key} doesn't support values of type: {}",
                            i.token()
                        ),
                        i.pos,
                    )
                })
            })
            .collect(),
        J::Str(s) => Ok(vec![s.clone()]),
        _ => Err(x_content(
            format!(
                "[{scope}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )),
    }
}

fn int_value(scope: &str, key: &str, v: &Node) -> Result<i64> {
    dsl::int(scope, key, v).map_err(|e| failed(scope, key, v.pos, e))
}

/// One option key shared by the request and its fields; `false` when the key is not one.
fn option(scope: &str, o: &mut Options, key: &str, v: &Node) -> Result<bool> {
    match key {
        "pre_tags" => o.pre_tags = Some(strings(scope, key, v)?),
        "post_tags" => o.post_tags = Some(strings(scope, key, v)?),
        "fragment_size" => o.fragment_size = Some(int_value(scope, key, v)?),
        "number_of_fragments" => o.number_of_fragments = Some(int_value(scope, key, v)?),
        "fragmenter" => o.fragmenter = v.text(),
        "type" => o.highlighter_type = v.text(),
        "require_field_match" => {
            o.require_field_match =
                Some(dsl::boolean(scope, key, v).map_err(|e| failed(scope, key, v.pos, e))?)
        }
        "highlight_query" => {
            o.highlight_query = Some(dsl::parse_query(v).map_err(|e| failed(scope, key, v.pos, e))?)
        }
        "order" => o.score_ordered = Some(v.text().as_deref() == Some("score")),
        "no_match_size" => o.no_match_size = Some(int_value(scope, key, v)?),
        "boundary_scanner" => {
            let s = v.text().unwrap_or_default();
            if !matches!(
                s.to_ascii_lowercase().as_str(),
                "chars" | "word" | "sentence"
            ) {
                return Err(failed(
                    scope,
                    key,
                    v.pos,
                    Error::illegal_argument(format!(
                        "No enum constant org.opensearch.search.fetch.subphase.highlight.HighlightBuilder.BoundaryScannerType.{}",
                        s.to_ascii_uppercase()
                    )),
                ));
            }
            o.boundary_scanner = Some(s.to_ascii_lowercase());
        }
        "encoder" => o.html = Some(v.text().as_deref() == Some("html")),
        "boundary_chars"
        | "boundary_max_scan"
        | "boundary_scanner_locale"
        | "phrase_limit"
        | "force_source"
        | "max_analyzer_offset"
        | "options"
        | "highlight_filter" => {}
        _ => return Ok(false),
    }
    Ok(true)
}

/// A field's options; an error comes with the position of the value that failed (where
/// OpenSearch's outer "failed to parse" errors point).
fn parse_field(name: &str, v: &Node) -> std::result::Result<Options, (Error, Pos)> {
    let Some(entries) = v.as_obj() else {
        return Err((
            x_content(
                format!("[{name}] expected [START_OBJECT] but found [{}]", v.token()),
                v.pos,
            ),
            v.pos,
        ));
    };
    let mut o = Options::default();
    for (k, kpos, x) in entries {
        // The encoder is the highlighter's alone; OpenSearch's field parser does not know it.
        let known =
            k != "encoder" && option("highlight_field", &mut o, k, x).map_err(|e| (e, x.pos))?;
        let known = known || matches!(k.as_str(), "fragment_offset" | "matched_fields");
        if !known {
            let inner = x_content(format!("[highlight_field] unknown field [{k}]"), *kpos);
            return Err((inner, x.pos));
        }
    }
    untagged(&o, v.end).map_err(|e| (e, v.end))?;
    Ok(o)
}

/// OpenSearch's check as each highlight builder's object closes: its own `pre_tags` need its
/// own `post_tags` (another scope's do not count).
fn untagged(o: &Options, end: Pos) -> Result<()> {
    if o.pre_tags.is_some() && o.post_tags.is_none() {
        return Err(dsl::parsing(
            "pre_tags are set but post_tags are not set",
            end,
        ));
    }
    Ok(())
}

/// Parses the body's `highlight` object.
pub fn parse(v: &Node) -> Result<Highlight> {
    let Some(entries) = v.as_obj() else {
        return Err(dsl::parsing(
            format!("Unknown key for a {} in [highlight].", v.token()),
            v.pos,
        ));
    };
    let mut h = Highlight::default();
    for (k, kpos, x) in entries {
        if option("highlight", &mut h.global, k, x)? {
            continue;
        }
        match k.as_str() {
            "fields" => {
                let wrap = |e: Error, pos: Pos| failed("highlight", "fields", pos, e);
                match &x.v {
                    J::Obj(fields) => {
                        for (name, _, fv) in fields {
                            let o = parse_field(name, fv)
                                .map_err(|(e, pos)| wrap(failed("fields", name, pos, e), pos))?;
                            h.fields.push((name.clone(), o));
                        }
                    }
                    J::Arr(items) => {
                        for it in items {
                            let Some([(name, _, fv)]) = it.as_obj() else {
                                return Err(x_content(
                                    "[highlight] failed to parse field [fields]",
                                    it.pos,
                                )
                                .caused_by(Error::illegal_argument(
                                    "[fields] can be a single object with any number of fields or an array where each entry is an object with a single field",
                                )));
                            };
                            let o = parse_field(name, fv)
                                .map_err(|(e, pos)| wrap(failed("fields", name, pos, e), pos))?;
                            h.fields.push((name.clone(), o));
                        }
                    }
                    _ => {
                        return Err(x_content(
                            format!(
                                "[highlight] fields doesn't support values of type: {}",
                                x.token()
                            ),
                            x.pos,
                        ))
                    }
                }
            }
            // Sets both tags where it stands: `pre_tags`/`post_tags` after it override it, and
            // it overrides those before it, as OpenSearch's parser applies them in order.
            "tags_schema" => match x.text().as_deref() {
                Some("styled") => {
                    h.global.pre_tags = Some(STYLED_PRE.iter().map(|s| s.to_string()).collect());
                    h.global.post_tags = Some(vec!["</em>".to_string()]);
                }
                Some("default") => {
                    h.global.pre_tags = Some(vec!["<em>".to_string()]);
                    h.global.post_tags = Some(vec!["</em>".to_string()]);
                }
                other => {
                    return Err(failed(
                        "highlight",
                        k,
                        x.pos,
                        Error::illegal_argument(format!(
                            "Unknown tag schema [{}]",
                            other.unwrap_or_default()
                        )),
                    ))
                }
            },
            "fragment_offset" | "matched_fields" => {}
            _ => return Err(x_content(format!("[highlight] unknown field [{k}]"), *kpos)),
        }
    }
    untagged(&h.global, v.end)?;
    Ok(h)
}

/// The values of a field in a source document (a multi-field reads its parent's).
fn field_values(mapping: &Mapping, src: &Value, path: &str) -> Vec<String> {
    let mut raw = Vec::new();
    super::fetch_fields::source_values(src, path, &mut raw);
    if raw.is_empty() {
        if let Some((parent, sub)) = path.rsplit_once('.') {
            if mapping
                .field(parent)
                .is_some_and(|p| p.fields.contains_key(sub))
            {
                super::fetch_fields::source_values(src, parent, &mut raw);
            }
        }
    }
    raw.into_iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        })
        .collect()
}

/// The fields a request entry names: a pattern matches text and keyword fields only.
fn expand<'a>(mapping: &'a Mapping, name: &str) -> Vec<(String, &'a FieldMapping)> {
    if name.contains('*') {
        mapping
            .leaves()
            .into_iter()
            .filter(|l| {
                matches!(l.field.ty, FieldType::Text | FieldType::Keyword)
                    && crate::metadata::target::glob_match(name, &l.path)
            })
            .map(|l| (l.path, l.field))
            .collect()
    } else {
        mapping
            .field(name)
            .map(|f| vec![(name.to_string(), f)])
            .unwrap_or_default()
    }
}

/// A field's tokens: text, position, UTF-16 offsets into the joined values.
struct Token {
    text: String,
    pos: usize,
    start: usize,
    end: usize,
}

fn utf16_offsets(s: &str) -> Vec<usize> {
    // byte offset → UTF-16 offset, for every char boundary (and the end).
    let mut map = vec![0usize; s.len() + 1];
    let mut u = 0;
    for (b, c) in s.char_indices() {
        map[b] = u;
        u += c.len_utf16();
    }
    map[s.len()] = u;
    map
}

fn tokens(cx: &Context, fm: &FieldMapping, values: &[String]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut base = 0usize;
    let mut base_pos = 0usize;
    let manager = cx.searcher.index().tokenizers();
    for v in values {
        let map = utf16_offsets(v);
        match fm.ty {
            FieldType::Text => {
                if let Some(mut a) = manager.get(crate::analysis::tokenizer_name(&fm.analyzer)) {
                    let mut stream = a.token_stream(v);
                    let mut last = 0;
                    while let Some(t) = stream.next() {
                        last = t.position;
                        out.push(Token {
                            text: t.text.clone(),
                            pos: base_pos + t.position,
                            start: base + map[t.offset_from.min(v.len())],
                            end: base + map[t.offset_to.min(v.len())],
                        });
                    }
                    base_pos += last + 1 + crate::analysis::DEFAULT_POSITION_INCREMENT_GAP as usize;
                }
            }
            _ => {
                let text = crate::analysis::keyword_query_text(cx.searcher.index(), fm, v);
                out.push(Token {
                    text: text.into_owned(),
                    pos: base_pos,
                    start: base,
                    end: base + map[v.len()],
                });
                base_pos += 1 + crate::analysis::DEFAULT_POSITION_INCREMENT_GAP as usize;
            }
        }
        base += map[v.len()] + 1;
    }
    out
}

/// The tokens a phrase matches, as indexes into `toks`, and each match's first and last
/// position.
fn phrase_matches(
    toks: &[Token],
    parts: &[(usize, Part)],
    slop: u32,
    out: &mut BTreeSet<usize>,
    spans: &mut Vec<(Vec<usize>, (usize, usize))>,
) {
    let Some((_, first)) = parts.first() else {
        return;
    };
    let mut by_pos: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, t) in toks.iter().enumerate() {
        by_pos.entry(t.pos).or_default().push(i);
    }
    for (i, t) in toks.iter().enumerate() {
        if !first.accepts(&t.text) {
            continue;
        }
        let mut found = vec![i];
        let mut moves = 0u32;
        let mut ok = true;
        for (rel, part) in &parts[1..] {
            let want = t.pos + rel;
            let mut best: Option<(u32, usize)> = None;
            for d in 0..=slop.saturating_sub(moves) as usize {
                for p in [want.checked_add(d), want.checked_sub(d)]
                    .into_iter()
                    .flatten()
                {
                    if let Some(list) = by_pos.get(&p) {
                        if let Some(&j) = list.iter().find(|&&j| part.accepts(&toks[j].text)) {
                            if best.is_none() {
                                best = Some((d as u32, j));
                            }
                        }
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            match best {
                Some((d, j)) => {
                    moves += d;
                    found.push(j);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && moves <= slop {
            let first = found.iter().map(|&j| toks[j].pos).min().unwrap_or(t.pos);
            let last = found.iter().map(|&j| toks[j].pos).max().unwrap_or(t.pos);
            out.extend(found.iter().copied());
            spans.push((found, (first, last)));
        }
    }
}

/// The tokens each of a field's matchers matches: `(term, key, token indexes)` per term (a
/// pattern's matches counting as one, with no term), and the phrases' matches with their first
/// and last positions.
type Matched = (
    Vec<(Option<String>, String, BTreeSet<usize>)>,
    Vec<(Vec<usize>, (usize, usize))>,
);

fn matched(toks: &[Token], matchers: &[&Matcher]) -> Matched {
    let mut by_term: Vec<(Option<String>, String, BTreeSet<usize>)> = Vec::new();
    let mut spans = Vec::new();
    fn slot(
        by_term: &mut Vec<(Option<String>, String, BTreeSet<usize>)>,
        term: Option<String>,
        key: String,
    ) -> usize {
        match by_term.iter().position(|(_, k, _)| *k == key) {
            Some(i) => i,
            None => {
                by_term.push((term, key, BTreeSet::new()));
                by_term.len() - 1
            }
        }
    }
    for m in matchers {
        match m {
            Matcher::Term(t) => {
                let s = slot(&mut by_term, Some(t.clone()), format!("t:{t}"));
                let found: Vec<usize> = (0..toks.len()).filter(|&i| toks[i].text == *t).collect();
                by_term[s].2.extend(found);
            }
            Matcher::Pattern { label, pattern } => {
                let s = slot(&mut by_term, None, format!("p:{label}"));
                let found: Vec<usize> = (0..toks.len())
                    .filter(|&i| pattern.accepts(&toks[i].text))
                    .collect();
                by_term[s].2.extend(found);
            }
            Matcher::Phrase { parts, slop } => {
                let mut found = BTreeSet::new();
                phrase_matches(toks, parts, *slop, &mut found, &mut spans);
                for i in found {
                    let t = toks[i].text.clone();
                    let s = slot(&mut by_term, Some(t.clone()), format!("t:{t}"));
                    by_term[s].2.insert(i);
                }
            }
        }
    }
    (by_term, spans)
}

/// The matches of a field's matchers in its tokens, ordered as Lucene's offsets enums merge.
fn hits(toks: &[Token], matchers: &[&Matcher]) -> Vec<Hit> {
    let (by_term, _) = matched(toks, matchers);
    let mut out = Vec::new();
    for (term, key, set) in &by_term {
        let freq = set.len() as u32;
        for &i in set {
            out.push(Hit {
                start: toks[i].start,
                end: toks[i].end,
                term: term.clone(),
                key: key.clone(),
                freq,
            });
        }
    }
    out.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then(a.end.cmp(&b.end))
            .then_with(|| match (&a.term, &b.term) {
                (Some(x), Some(y)) => x.as_bytes().cmp(y.as_bytes()),
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, None) => std::cmp::Ordering::Equal,
            })
    });
    out
}

/// Per-shard state: the query's matchers, extracted once per query.
pub struct ShardHighlighter<'a> {
    h: &'a Highlight,
    cx: &'a Context<'a>,
    search: terms::Extracted,
    own: Vec<Option<terms::Extracted>>,
}

impl<'a> ShardHighlighter<'a> {
    pub fn new(h: &'a Highlight, cx: &'a Context<'a>, query: &dsl::Query) -> Result<Self> {
        let search = terms::extract(h.global.highlight_query.as_ref().unwrap_or(query), cx)?;
        let own = h
            .fields
            .iter()
            .map(|(_, o)| {
                o.highlight_query
                    .as_ref()
                    .map(|q| terms::extract(q, cx))
                    .transpose()
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ShardHighlighter { h, cx, search, own })
    }

    /// The `highlight` object of one hit, `None` when no field has a fragment.
    ///
    /// As OpenSearch's `HighlightPhase`: a field named again (itself or through a pattern) is
    /// highlighted by the last spec naming it, and the fields come out in the order of the Java
    /// `HashMap` it collects them in.
    pub fn hit(&self, src: &Value) -> Result<Option<Value>> {
        let mut specs: Vec<(String, &FieldMapping, usize)> = Vec::new();
        for (i, (name, _)) in self.h.fields.iter().enumerate() {
            for (path, fm) in expand(self.cx.mapping, name) {
                match specs.iter_mut().find(|(p, ..)| *p == path) {
                    Some(spec) => *spec = (path, fm, i),
                    None => specs.push((path, fm, i)),
                }
            }
        }
        let mut out = Vec::new();
        for (path, fm, i) in specs {
            let o = self.h.fields[i].1.or(&self.h.global);
            let extracted = self.own[i].as_ref().unwrap_or(&self.search);
            if let Some(frags) = self.field(&path, fm, &o, extracted, src)? {
                out.push((
                    path,
                    Value::Array(frags.into_iter().map(Value::from).collect()),
                ));
            }
        }
        crate::util::java_hash::hash_order(&mut out);
        Ok((!out.is_empty()).then(|| Value::Object(out.into_iter().collect())))
    }

    fn field(
        &self,
        path: &str,
        fm: &FieldMapping,
        o: &Options,
        extracted: &terms::Extracted,
        src: &Value,
    ) -> Result<Option<Vec<String>>> {
        match o.highlighter_type.as_deref().unwrap_or("unified") {
            "unified" => {}
            "fvh" => {
                return Err(Error::illegal_argument(format!(
                    "the field [{path}] should be indexed with term vector with position offsets to be used with fast vector highlighter"
                )))
            }
            "plain" => {}
            other => {
                return Err(Error::illegal_argument(format!(
                    "unknown highlighter type [{other}] for the field [{path}]"
                )))
            }
        }
        let values = field_values(self.cx.mapping, src, path);
        if values.is_empty() {
            return Ok(None);
        }
        let require = o.require_field_match.unwrap_or(true);
        let matchers: Vec<&Matcher> = extracted
            .iter()
            .filter(|(f, _)| if require { f == path } else { f != "_id" })
            .map(|(_, m)| m)
            .collect();
        let no_match_size = o.no_match_size.unwrap_or(0).max(0) as usize;
        if matchers.is_empty() && no_match_size == 0 {
            return Ok(None);
        }
        if o.highlighter_type.as_deref() == Some("plain") {
            return self.plain(path, fm, o, &values, &matchers, no_match_size);
        }
        let sep = String::from_utf16_lossy(&[split::SEP]);
        let text: Vec<u16> = values.join(&sep).encode_utf16().collect();
        let nfrag = o.number_of_fragments.unwrap_or(5);
        let tokenized = fm.ty == FieldType::Text;
        // Lucene wraps whichever iterator the options pick in its `SplittingBreakIterator`,
        // the separator one included (there it changes nothing: it breaks at values anyway).
        let (make, max): (split::MakeBreaker, usize) = if nfrag == 0 || !tokenized {
            let max = if nfrag == 0 {
                usize::MAX
            } else {
                nfrag.max(0) as usize
            };
            let make = |v: &[u16]| Breaker::Plain(Box::new(breaks::separators(v, split::SEP)));
            (Box::new(make), max)
        } else {
            let size = o.fragment_size.unwrap_or(100);
            let make: split::MakeBreaker = match o.boundary_scanner.as_deref().unwrap_or("sentence")
            {
                "sentence" if size > 0 => Box::new(move |v: &[u16]| {
                    Breaker::Bounded(Box::new(unified::Bounded::new(v, size as usize)))
                }),
                "sentence" => Box::new(|v: &[u16]| Breaker::Plain(Box::new(breaks::sentences(v)))),
                "word" => Box::new(|v: &[u16]| Breaker::Plain(Box::new(breaks::words(v)))),
                other => {
                    return Err(Error::illegal_argument(format!(
                        "Invalid boundary scanner type: {other}"
                    )))
                }
            };
            (make, nfrag.max(0) as usize)
        };
        let toks = tokens(self.cx, fm, &values);
        let found = hits(&toks, &matchers);
        let mut passages = if found.is_empty() {
            Vec::new()
        } else {
            let mut breaker = split::Split::new(&text, make);
            unified::passages(&found, &mut breaker, text.len(), max)
        };
        if passages.is_empty() && no_match_size > 0 {
            passages.extend(no_match_passage(&text, no_match_size));
        }
        let (pre, post) = tags(o);
        let html = o.html.unwrap_or(false);
        let mut snippets: Vec<(String, f32)> = passages
            .iter()
            .map(|p| (unified::format(p, &text, &pre, &post, html), p.score))
            .filter(|(s, _)| {
                s.chars()
                    .any(|c| !crate::analysis::unicode::is_java_whitespace(c))
            })
            .collect();
        if snippets.is_empty() {
            return Ok(None);
        }
        if o.score_ordered.unwrap_or(false) {
            snippets.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        }
        Ok(Some(snippets.into_iter().map(|(s, _)| s).collect()))
    }
}

impl ShardHighlighter<'_> {
    /// The `plain` highlighter's fragments of a field: each value's best, those with a query
    /// term in them, as OpenSearch's `PlainHighlighter` gathers them.
    fn plain(
        &self,
        path: &str,
        fm: &FieldMapping,
        o: &Options,
        values: &[String],
        matchers: &[&Matcher],
        no_match_size: usize,
    ) -> Result<Option<Vec<String>>> {
        let nfrag = o.number_of_fragments.unwrap_or(5).max(0) as usize;
        let size = o.fragment_size.unwrap_or(100).max(0) as usize;
        let fragmenter = match o.fragmenter.as_deref() {
            _ if nfrag == 0 => plain::Fragmenter::Null,
            None | Some("span") => plain::Fragmenter::Span(size),
            Some("simple") => plain::Fragmenter::Simple(size),
            Some(other) => {
                return Err(Error::illegal_argument(format!(
                    "unknown fragmenter option [{other}] for the field [{path}]"
                )))
            }
        };
        let (pre, post) = tags(o);
        let opts = plain::Plain {
            fragmenter: &fragmenter,
            max: nfrag.max(1),
            pre: &pre,
            post: &post,
            html: o.html.unwrap_or(false),
        };
        let mut frags = Vec::new();
        // Where a `no_match_size` excerpt of the first value would end, from its tokens.
        let mut no_match_end = None;
        for (vi, v) in values.iter().enumerate() {
            let toks = tokens(self.cx, fm, std::slice::from_ref(v));
            let (by_term, phrases) = matched(&toks, matchers);
            let hit: BTreeMap<usize, f32> = by_term
                .into_iter()
                .flat_map(|(.., set)| set)
                .map(|i| (i, token_weight(matchers, &toks[i].text)))
                .collect();
            let mut spans: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
            for (found, span) in &phrases {
                for &i in found {
                    spans.entry(toks[i].text.as_str()).or_default().push(*span);
                }
            }
            let plain_toks = plain_tokens(&toks);
            if vi == 0 && no_match_size > 0 {
                no_match_end = plain::no_match_end(&plain_toks, no_match_size);
            }
            frags.extend(
                plain::fragments(v, &plain_toks, &hit, &spans, &opts)
                    .into_iter()
                    .filter(|f| f.score > 0.0),
            );
        }
        if o.score_ordered.unwrap_or(false) {
            // OpenSearch compares `Math.round(b.score - a.score)`, in a sort stable at this size.
            frags.sort_by(|a, b| ((b.score - a.score + 0.5).floor() as i64).cmp(&0));
        }
        let n = if nfrag == 0 && values.len() > 1 {
            frags.len()
        } else {
            frags.len().min(nfrag.max(1))
        };
        if n > 0 {
            return Ok(Some(frags.into_iter().take(n).map(|f| f.text).collect()));
        }
        Ok(no_match_end.filter(|&end| end > 0).and_then(|end| {
            let units: Vec<u16> = values.first()?.encode_utf16().collect();
            Some(vec![String::from_utf16_lossy(&units[..end])])
        }))
    }
}

/// A matched term's weight in the plain highlighter's fragment scores: the highest its
/// matchers give it (query boosts are not carried).
fn token_weight(matchers: &[&Matcher], text: &str) -> f32 {
    matchers
        .iter()
        .filter_map(|m| match m {
            Matcher::Term(t) => (t == text).then_some(1.0),
            Matcher::Phrase { parts, .. } => {
                parts.iter().any(|(_, p)| p.accepts(text)).then_some(1.0)
            }
            Matcher::Pattern { pattern, .. } => pattern.weight(text),
        })
        .fold(0.0, f32::max)
}

/// One value's tokens as the plain highlighter walks them (positions as increments).
fn plain_tokens(toks: &[Token]) -> Vec<plain::PlainToken<'_>> {
    toks.iter()
        .enumerate()
        .map(|(i, t)| plain::PlainToken {
            text: &t.text,
            pos_inc: if i == 0 {
                t.pos + 1
            } else {
                t.pos - toks[i - 1].pos
            },
            start: t.start,
            end: t.end,
        })
        .collect()
}

/// The first pre and post tags (the highlighters use only those).
fn tags(o: &Options) -> (String, String) {
    let first = |t: &Option<Vec<String>>, default: &str| {
        t.as_ref()
            .and_then(|t| t.first().cloned())
            .unwrap_or_else(|| default.into())
    };
    (first(&o.pre_tags, "<em>"), first(&o.post_tags, "</em>"))
}

/// The start of the first value up to the word boundary after `size` (OpenSearch's
/// `no_match_size` passage). Unlike the passages' iterators, its word iterator is not split by
/// value: it runs over the joined values.
fn no_match_passage(text: &[u16], size: usize) -> Option<unified::Passage> {
    let mut pos = 0;
    while pos < text.len() && text[pos] == split::SEP {
        pos += 1;
    }
    if pos >= text.len() {
        return None;
    }
    let mut end = text[pos..]
        .iter()
        .position(|&u| u == split::SEP)
        .map_or(text.len(), |i| pos + i);
    if size + pos < end {
        end = breaks::words(text)
            .following(size + pos)
            .unwrap_or(text.len());
    }
    Some(unified::Passage {
        start: pos,
        end,
        hits: Vec::new(),
        score: f32::NAN,
    })
}
