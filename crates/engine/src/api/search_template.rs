//! Search templates: `_search/template`, `_render/template` and `_msearch/template`. A template
//! (inline, or stored by id) is rendered with its `params` into a search body, which then runs
//! as a search, as OpenSearch's `TransportSearchTemplateAction.convert` does: the rendered body
//! replaces the search's source, so URL options that belong to the source (`size`, `sort`, `q`,
//! …) are read and checked but do not apply; the request's own (`routing`, `scroll`,
//! `search_type`, indices options, …) do.

use super::msearch::{self, with_status};
use super::{search, Params, Response};
use crate::dsl::json::Pos;
use crate::error::{Error, ErrorKind, Result};
use crate::node::Node;
use crate::search::{SearchRequest, TrackTotalHits};
use crate::template::{self, ScriptRef, TemplateRequest};
use std::time::Instant;

/// URL options `parseSearchRequest` puts on the search's source, which the rendered body
/// replaces.
const SOURCE_PARAMS: &[&str] = &[
    "q",
    "df",
    "analyzer",
    "analyze_wildcard",
    "lenient",
    "default_operator",
    "terminate_after",
    "from",
    "size",
    "sort",
    "track_total_hits",
    "track_scores",
    "version",
    "seq_no_primary_term",
    "explain",
    "timeout",
    "stored_fields",
    "docvalue_fields",
    "include_named_queries_score",
    "suggest_field",
    "suggest_text",
    "suggest_size",
    "suggest_mode",
    "_source",
    "_source_includes",
    "_source_excludes",
    "stats",
];

/// URL parameters each template of a `_msearch/template` starts from.
const MSEARCH_INHERITED: &[&str] = &[
    "index",
    "search_type",
    "routing",
    "ccs_minimize_roundtrips",
    "rest_total_hits_as_int",
    "typed_keys",
];

fn body_required() -> Error {
    Error::new(
        ErrorKind::Parse,
        "request body or source parameter is required",
    )
}

/// The template request body: its first JSON value (what follows is never read).
fn template_request(body: Option<&[u8]>) -> Result<TemplateRequest> {
    match search::first_value(body)? {
        Some(node) => TemplateRequest::parse(&node),
        None => Err(body_required()),
    }
}

pub fn search_template(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    // The URL's search options are read, and refused, first, as for any search.
    let url = SearchRequest::parse(p, None, false)?;
    let tpl = template_request(body)?;
    let (item, req) = convert(node, p, &tpl, Some(&url))?;
    let r = search::run(node, &item, req, start)?;
    // A template search's answer carries its status, as `SearchTemplateResponse` prints it.
    let mut out = Vec::with_capacity(r.body.len() + 16);
    with_status(&mut out, r.body, r.status);
    Ok(Response::bytes(r.status, out))
}

pub fn render_template(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let mut tpl = template_request(body)?;
    if let Some(id) = p.str("id") {
        tpl.script = Some(ScriptRef::Stored(id.to_string()));
    }
    let rendered = render(node, &tpl)?;
    // The output is the rendered text as it is, valid JSON or not, as OpenSearch writes it raw.
    let mut out = Vec::with_capacity(rendered.len() + 24);
    out.extend_from_slice(b"{\"template_output\":");
    out.extend_from_slice(rendered.as_bytes());
    out.push(b'}');
    Ok(Response::bytes(200, out))
}

pub fn msearch_template(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let mut parsed = Vec::new();
    for (item, line) in msearch::items(p, body, MSEARCH_INHERITED)? {
        let tpl = match search::first_value(Some(line))? {
            Some(node) => TemplateRequest::parse(&node)?,
            None => {
                return Err(crate::dsl::x_content(
                    "[search_template] Expected START_OBJECT but was: null",
                    Pos { line: 1, col: 0 },
                ))
            }
        };
        if tpl.script.is_none() {
            return Err(Error::illegal_argument("Malformed search template"));
        }
        parsed.push((item, tpl));
    }
    let converted: Vec<Result<(Params, SearchRequest)>> = parsed
        .iter()
        .map(|(item, tpl)| convert(node, item, tpl, None))
        .collect();
    // The searches that converted run as one multi-search, which refuses to run none.
    if converted.iter().all(Result::is_err) {
        return Err(msearch::no_requests());
    }
    let results = converted.into_iter().map(|c| {
        let (item, req) = c?;
        search::run(node, &item, req, Instant::now())
    });
    Ok(msearch::responses(start, results))
}

/// The template rendered into a search: its parameters (the request's own, without the
/// source's) and its parsed body, with the template request's `explain`.
fn convert(
    node: &Node,
    p: &Params,
    tpl: &TemplateRequest,
    url: Option<&SearchRequest>,
) -> Result<(Params, SearchRequest)> {
    let rendered = render(node, tpl)?;
    let mut item = p.clone();
    for key in SOURCE_PARAMS {
        item.0.remove(*key);
    }
    let Some(body) = search::first_value(Some(rendered.as_bytes()))? else {
        return Err(crate::dsl::parsing(
            "Expected [START_OBJECT] but found [null]",
            Pos { line: 1, col: 0 },
        ));
    };
    let mut req = SearchRequest::parse(&item, Some(&body), false)?;
    req.explain = tpl.explain;
    req.profile = tpl.profile;
    if let Some(url) = url.filter(|u| u.track_total_hits_given) {
        total_hits_from_url(url, &mut req)?;
    }
    Ok((item, req))
}

/// `checkRestTotalHitsAsInt` of the template action: the URL's `track_total_hits` applies
/// where the body gives none, and beside a body's own it must be exact or off.
fn total_hits_from_url(url: &SearchRequest, req: &mut SearchRequest) -> Result<()> {
    if !req.track_total_hits_given {
        req.track_total_hits = url.track_total_hits;
        req.track_total_hits_given = true;
        req.track_total_hits_below = url.track_total_hits_below;
        return Ok(());
    }
    match req.track_total_hits {
        TrackTotalHits::UpTo(n) => Err(Error::illegal_argument(format!(
            "[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got {n}"
        ))),
        TrackTotalHits::Exact | TrackTotalHits::Off => Ok(()),
    }
}

/// The template's text filled from its parameters.
fn render(node: &Node, tpl: &TemplateRequest) -> Result<String> {
    let missing = || {
        Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: template is missing;",
        )
    };
    let (source, encoder) = match tpl.script()? {
        ScriptRef::Inline(s) if s.is_empty() => return Err(missing()),
        ScriptRef::Inline(s) => (s.clone(), template::Encoder::Json),
        ScriptRef::Stored(id) if id.is_empty() => return Err(missing()),
        ScriptRef::Stored(id) => {
            let stored = node.stored_scripts.get(id).ok_or_else(|| {
                Error::new(
                    ErrorKind::ResourceNotFound,
                    format!("unable to find script [{id}] in cluster state"),
                )
            })?;
            let encoder = template::encoder_for(stored.content_type.as_deref())?;
            (stored.source, encoder)
        }
    };
    Ok(template::compile(&source, encoder)?.render(&tpl.params))
}
