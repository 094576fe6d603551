//! `_analyze` (`indices:admin/analyze`): runs an analyzer, a field's analyzer, a normalizer or a
//! chain given inline over one or more texts, with OpenSearch's resolution rules, explain
//! detail, token limit and errors. GET answers are cached per index, keyed by the request and
//! the index's analysis settings, so a settings change invalidates them.

use super::{Params, Response};
use crate::analysis::analyzer::Analyzer;
use crate::analysis::params::Def;
use crate::analysis::registry::{Component, Registry};
use crate::analysis::token::Tok;
use crate::analysis::{index_registry, DEFAULT_POSITION_INCREMENT_GAP};
use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::IndexService;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use parking_lot::Mutex;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

const CACHE_CAP: usize = 1024;

fn cache() -> &'static Mutex<HashMap<String, Vec<u8>>> {
    static C: OnceLock<Mutex<HashMap<String, Vec<u8>>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

#[derive(Default)]
struct Request {
    texts: Vec<String>,
    analyzer: Option<String>,
    field: Option<String>,
    tokenizer: Option<Value>,
    filters: Vec<Value>,
    char_filters: Vec<Value>,
    normalizer: Option<String>,
    explain: bool,
    attributes: Option<Vec<String>>,
}

fn validation(reasons: &[&str]) -> Error {
    let mut r = String::from("Validation Failed: ");
    for (i, x) in reasons.iter().enumerate() {
        r.push_str(&format!("{}: {x};", i + 1));
    }
    Error::new(ErrorKind::ActionRequestValidation, r)
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| x.to_string())
            })
            .collect(),
        Value::String(s) => vec![s.clone()],
        Value::Null => vec![],
        other => vec![other.to_string()],
    }
}

fn components(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a.clone(),
        Value::Null => vec![],
        other => vec![other.clone()],
    }
}

fn parse(p: &Params, body: Option<&[u8]>) -> Result<Request> {
    let mut r = Request::default();
    // Query-string form.
    if let Some(t) = p.str("text") {
        r.texts = vec![t.to_string()];
    }
    r.analyzer = p.str("analyzer").map(String::from);
    r.field = p.str("field").map(String::from);
    r.tokenizer = p.str("tokenizer").map(|s| Value::String(s.into()));
    r.filters = p
        .list("filter")
        .unwrap_or_default()
        .into_iter()
        .map(Value::String)
        .collect();
    r.char_filters = p
        .list("char_filter")
        .unwrap_or_default()
        .into_iter()
        .map(Value::String)
        .collect();
    r.normalizer = p.str("normalizer").map(String::from);
    r.explain = p.bool("explain", false)?;
    r.attributes = p.list("attributes");
    let Some(body) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return Err(Error::new(
            ErrorKind::Parse,
            "request body or source parameter is required",
        ));
    };
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        Error::new(
            ErrorKind::XContentParse,
            format!("Failed to parse request body: {e}"),
        )
    })?;
    let Value::Object(m) = v else {
        return Err(Error::new(
            ErrorKind::XContentParse,
            "request body must be an object",
        ));
    };
    for (k, v) in &m {
        match k.as_str() {
            "text" => r.texts = strings(v),
            "analyzer" => r.analyzer = v.as_str().map(String::from),
            "field" => r.field = v.as_str().map(String::from),
            "tokenizer" => r.tokenizer = Some(v.clone()),
            "filter" | "token_filter" => r.filters = components(v),
            "char_filter" => r.char_filters = components(v),
            "normalizer" => r.normalizer = v.as_str().map(String::from),
            "explain" => {
                r.explain = match v {
                    Value::Bool(b) => *b,
                    Value::String(s) => s == "true",
                    _ => false,
                }
            }
            "attributes" => r.attributes = Some(strings(v)),
            other => {
                let pos = body_position(body, other);
                return Err(Error::new(
                    ErrorKind::XContentParse,
                    format!(
                        "[{}:{}] [analyze_request] unknown field [{other}]",
                        pos.0, pos.1
                    ),
                ));
            }
        }
    }
    Ok(r)
}

/// Line and column (1-based, Jackson's) just after a key's closing quote.
fn body_position(body: &[u8], key: &str) -> (usize, usize) {
    let needle = format!("\"{key}\"");
    let at = body
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap_or(0);
    let line = body[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let col = at
        - body[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    (line, col)
}

fn component(v: &Value) -> Component<'_> {
    match v {
        Value::Object(o) => Component::Inline(Def::from_json(o)),
        Value::String(s) => Component::Name(s),
        _ => Component::Name(""),
    }
}

/// Which chain runs, by OpenSearch's rules.
fn resolve(r: &Request, reg: &Registry, svc: Option<&IndexService>) -> Result<Arc<Analyzer>> {
    if let Some(name) = &r.analyzer {
        return reg.analyzer(name).ok_or_else(|| {
            Error::illegal_argument(if svc.is_some() {
                format!("failed to find analyzer [{name}]")
            } else {
                format!("failed to find global analyzer [{name}]")
            })
        });
    }
    if r.tokenizer.is_some() || !r.filters.is_empty() || !r.char_filters.is_empty() {
        let cfs: Vec<Component> = r.char_filters.iter().map(component).collect();
        let fs: Vec<Component> = r.filters.iter().map(component).collect();
        let tok = r.tokenizer.as_ref().map(component);
        let normalize = tok.is_none();
        let mut a = reg.custom(tok, &cfs, &fs, normalize)?;
        // OpenSearch wraps an ad hoc chain like an index's analyzers: array values are the
        // text fields' 100 positions apart (a named normalizer keeps 0).
        a.position_increment_gap = DEFAULT_POSITION_INCREMENT_GAP;
        return Ok(Arc::new(a));
    }
    if let Some(name) = &r.normalizer {
        return reg.normalizers.get(name).cloned().ok_or_else(|| {
            Error::illegal_argument(format!("failed to find normalizer under [{name}]"))
        });
    }
    if let (Some(field), Some(svc)) = (&r.field, svc) {
        let meta = svc.meta();
        if let Some(fm) = meta.mapping.field(field) {
            use crate::index::mapping::FieldType;
            match fm.ty {
                FieldType::Text => {
                    return reg
                        .analyzer(&fm.analyzer)
                        .ok_or_else(|| Error::illegal_argument(format!("failed to find analyzer [{}]", fm.analyzer)))
                }
                FieldType::Keyword => {
                    if let Some(n) = fm.params.get("normalizer").and_then(Value::as_str) {
                        if let Some(a) = reg.normalizers.get(n) {
                            return Ok(a.clone());
                        }
                    }
                    return reg.analyzer("keyword").ok_or_else(|| Error::internal("no keyword analyzer"));
                }
                _ => {
                    return Err(Error::illegal_argument(format!(
                        "Can't process field [{field}], Analysis requests are only supported on tokenized fields"
                    )))
                }
            }
        }
    }
    reg.analyzer("default")
        .ok_or_else(|| Error::internal("no default analyzer"))
}

/// UTF-16 offset of each byte offset of `text` (only built for non-ASCII text).
struct Utf16 {
    map: Option<Vec<u32>>,
}

impl Utf16 {
    fn new(text: &str) -> Utf16 {
        if text.is_ascii() {
            return Utf16 { map: None };
        }
        let mut map = vec![0u32; text.len() + 1];
        let mut u = 0u32;
        let mut last = 0;
        for (i, c) in text.char_indices() {
            for m in map.iter_mut().take(i + 1).skip(last) {
                *m = u;
            }
            u += c.len_utf16() as u32;
            last = i + 1;
        }
        for m in map.iter_mut().skip(last) {
            *m = u;
        }
        Utf16 { map: Some(map) }
    }
    fn at(&self, byte: usize) -> usize {
        match &self.map {
            None => byte,
            Some(m) => m[byte.min(m.len() - 1)] as usize,
        }
    }
}

struct Rendered {
    tokens: Vec<Value>,
}

/// Tokens of every text through one chain, positioned and offset as OpenSearch does across
/// an array of texts.
type Stage<'a> = &'a dyn Fn(&str) -> (Vec<Tok>, u32, usize);

fn render_tokens(
    a: &Analyzer,
    texts: &[String],
    run: Stage,
    detail: Option<(bool, &Option<Vec<String>>)>,
    limit: Option<usize>,
    count: &mut usize,
) -> Result<Rendered> {
    let mut out = Vec::new();
    let mut last_pos: i64 = -1;
    let mut last_off: usize = 0;
    for text in texts {
        let u = Utf16::new(text);
        let (toks, end_inc, final_off) = run(text);
        for t in toks {
            *count += 1;
            if let Some(max) = limit {
                if *count > max {
                    return Err(Error::new(ErrorKind::IllegalState, format!(
                        "The number of tokens produced by calling _analyze has exceeded the allowed maximum of [{max}]. This limit can be set by changing the [index.analyze.max_token_count] index level setting."
                    )));
                }
            }
            if t.pos_inc > 0 {
                last_pos += t.pos_inc as i64;
            }
            let mut m = Map::new();
            m.insert("token".into(), json!(t.text));
            m.insert("start_offset".into(), json!(last_off + u.at(t.start)));
            m.insert("end_offset".into(), json!(last_off + u.at(t.end)));
            m.insert("type".into(), json!(t.kind));
            m.insert("position".into(), json!(last_pos.max(0)));
            match detail {
                None => {
                    if t.pos_len > 1 {
                        m.insert("positionLength".into(), json!(t.pos_len));
                    }
                }
                Some((keyword_attr, attrs)) => {
                    let want = |n: &str| attrs.as_ref().is_none_or(|a| a.iter().any(|x| x == n));
                    if want("bytes") {
                        let hex: Vec<String> = t.text.bytes().map(|b| format!("{b:02x}")).collect();
                        m.insert("bytes".into(), json!(format!("[{}]", hex.join(" "))));
                    }
                    if keyword_attr && want("keyword") {
                        m.insert("keyword".into(), json!(t.keyword));
                    }
                    if want("positionLength") {
                        m.insert("positionLength".into(), json!(t.pos_len));
                    }
                    if want("termFrequency") {
                        m.insert("termFrequency".into(), json!(1));
                    }
                }
            }
            out.push(Value::Object(m));
        }
        last_off += u.at(final_off);
        last_pos += end_inc as i64;
        // Explain runs an ad hoc chain's (unnamed) components one by one, without the
        // analyzer wrapper that puts values apart.
        if detail.is_none() || !a.name.is_empty() {
            last_pos += a.position_increment_gap as i64;
        }
        last_off += a.offset_gap as usize;
    }
    Ok(Rendered { tokens: out })
}

pub fn analyze(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let r = parse(p, body)?;
    let mut reasons = Vec::new();
    if r.texts.is_empty() {
        reasons.push("text is missing");
    }
    let index = p.str("index");
    if r.normalizer.is_some() {
        if index.is_none() {
            reasons.push("index is required if normalizer is specified");
        }
        if r.tokenizer.is_some() || r.analyzer.is_some() {
            reasons.push("tokenizer/analyze should be null if normalizer is specified");
        }
        if r.analyzer.is_some() || r.tokenizer.is_some() {
            reasons.push("cannot define extra components on a named normalizer");
        }
    }
    if r.analyzer.is_some()
        && (r.tokenizer.is_some() || !r.filters.is_empty() || !r.char_filters.is_empty())
    {
        reasons.push("cannot define extra components on a named analyzer");
    }
    if !reasons.is_empty() {
        return Err(validation(&reasons));
    }
    if r.field.is_some() && index.is_none() {
        return Err(Error::illegal_argument(
            "analysis based on a specific field requires an index",
        ));
    }
    let svc = match index {
        Some(name) => {
            let found = node
                .resolve(name, IndicesOptions::strict_single())
                .map_err(|e| match e.kind {
                    ErrorKind::IndexNotFound => Error::index_expression_not_found(name),
                    _ => e,
                })?;
            match found.into_iter().next() {
                Some(s) => {
                    crate::metadata::blocks::check(
                        [s.meta().as_ref()],
                        crate::metadata::blocks::Level::Read,
                    )?;
                    Some(s)
                }
                None => return Err(Error::index_expression_not_found(name)),
            }
        }
        None => None,
    };
    let cache_key = if p.str("__cache") == Some("true") {
        let fp = svc.as_ref().map(|s| {
            let m = s.meta();
            format!(
                "{}|{:?}|{}",
                m.uuid,
                m.settings.analysis(),
                m.settings.max_token_count
            )
        });
        let key = format!(
            "{}|{:?}|{}",
            fp.unwrap_or_default(),
            p.0,
            String::from_utf8_lossy(body.unwrap_or_default())
        );
        if let Some(hit) = cache().lock().get(&key) {
            return Ok(Response::bytes(200, hit.clone()));
        }
        Some(key)
    } else {
        None
    };
    let global;
    let reg: Arc<Registry> = match &svc {
        Some(s) => index_registry(&s.meta().uuid, &s.meta().settings.flat)?,
        None => {
            global = Arc::new(Registry::global());
            global
        }
    };
    let a = resolve(&r, &reg, svc.as_deref())?;
    let limit = Some(
        svc.as_ref()
            .map_or(10_000, |s| s.meta().settings.max_token_count as usize),
    );
    let mut count = 0;
    let body = if !r.explain {
        let run = |t: &str| {
            let x = a.run(t);
            (x.tokens.toks, x.tokens.end_inc, x.final_offset)
        };
        let out = render_tokens(&a, &r.texts, &run, None, limit, &mut count)?;
        json!({ "tokens": out.tokens })
    } else {
        explain(&a, &r, limit, &mut count)?
    };
    let bytes = serde_json::to_vec(&body).expect("json serializes");
    if let Some(key) = cache_key {
        let mut c = cache().lock();
        if c.len() >= CACHE_CAP {
            c.clear();
        }
        c.insert(key, bytes.clone());
    }
    Ok(Response::bytes(200, bytes))
}

fn explain(a: &Analyzer, r: &Request, limit: Option<usize>, count: &mut usize) -> Result<Value> {
    let attrs = &r.attributes;
    if !a.custom {
        let run = |t: &str| {
            let x = a.run(t);
            (x.tokens.toks, x.tokens.end_inc, x.final_offset)
        };
        let out = render_tokens(
            a,
            &r.texts,
            &run,
            Some((a.has_keyword_attr, attrs)),
            limit,
            count,
        )?;
        return Ok(
            json!({"detail": {"custom_analyzer": false, "analyzer": {"name": a.name, "tokens": out.tokens}}}),
        );
    }
    // Char filters: each one's output, per text.
    let mut charfilters = Vec::new();
    let staged: Vec<(
        String,
        Vec<crate::analysis::char_filter::OffsetMap>,
        Vec<String>,
    )> = r.texts.iter().map(|t| a.char_filtered(t)).collect();
    for (i, (name, _)) in a.char_filters.iter().enumerate() {
        let texts: Vec<&String> = staged.iter().map(|s| &s.2[i]).collect();
        charfilters.push(json!({"name": name, "filtered_text": texts}));
    }
    // The tokenizer, then each filter in turn, over the char-filtered text.
    let stage = |upto: usize| {
        move |t: &str| -> (Vec<Tok>, u32, usize) {
            let (filtered, maps, _) = a.char_filtered(t);
            let mut toks = crate::analysis::token::Tokens::default();
            a.tokenizer.1.tokenize(&filtered, &mut toks);
            toks.text_len = filtered.len();
            for (_, f) in a.filters.iter().take(upto) {
                f.apply(&mut toks);
            }
            for x in &mut toks.toks {
                x.start = Analyzer::correct(&maps, x.start);
                x.end = Analyzer::correct(&maps, x.end);
            }
            (
                toks.toks,
                toks.end_inc,
                Analyzer::correct(&maps, filtered.len()),
            )
        }
    };
    let kw = |upto: usize| {
        a.filters
            .iter()
            .take(upto)
            .any(|(n, _)| keyword_attr_filter(n))
    };
    let mut c0 = 0;
    let tok_out = render_tokens(a, &r.texts, &stage(0), Some((kw(0), attrs)), limit, &mut c0)?;
    let mut filters = Vec::new();
    for (i, (name, _)) in a.filters.iter().enumerate() {
        let mut ci = 0;
        let out = render_tokens(
            a,
            &r.texts,
            &stage(i + 1),
            Some((a.has_keyword_attr && kw(i + 1), attrs)),
            limit,
            &mut ci,
        )?;
        filters.push(json!({"name": name, "tokens": out.tokens}));
    }
    *count = c0;
    Ok(json!({"detail": {
        "custom_analyzer": true,
        "charfilters": charfilters,
        "tokenizer": {"name": a.tokenizer.0, "tokens": tok_out.tokens},
        "tokenfilters": filters,
    }}))
}

fn keyword_attr_filter(name: &str) -> bool {
    let n = name.strip_prefix("__anonymous__").unwrap_or(name);
    matches!(
        n,
        "keyword_marker" | "stemmer" | "porter_stem" | "kstem" | "snowball"
    ) || n.contains("stem")
}
