//! `_msearch`: newline-delimited pairs of a metadata line and a search body. The whole body is
//! read first, as OpenSearch's REST layer reads it (`MultiSearchRequest.readMultiLineFormat`,
//! then each body's `SearchSourceBuilder`): a malformed line fails the request. Then each search
//! runs on its own, its failure its element's (`{"error": …, "status": N}`), beside the others.

use super::json_writer::ObjectWriter;
use super::{search, Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::search::SearchRequest;
use serde_json::Value;
use std::time::Instant;

/// URL parameters every search of the request starts from (its metadata line may override
/// them), as `RestMultiSearchAction` hands them down.
const INHERITED: &[&str] = &[
    "index",
    "search_type",
    "routing",
    "ccs_minimize_roundtrips",
    "allow_no_indices",
    "expand_wildcards",
    "ignore_unavailable",
    "ignore_throttled",
    "cancel_after_time_interval",
    "max_concurrent_shard_requests",
    "pre_filter_shard_size",
    "rest_total_hits_as_int",
    "typed_keys",
];

pub fn msearch(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let mut parsed: Vec<(Params, SearchRequest)> = Vec::new();
    for (item, body) in items(p, body, INHERITED)? {
        let req = search::parse(&item, Some(body))?;
        parsed.push((item, req));
    }
    let results = parsed
        .into_iter()
        .map(|(item, req)| search::run(node, &item, req, Instant::now()));
    Ok(responses(start, results))
}

/// Each search's parameters and body line, read as `readMultiLineFormat` reads them; `inherited`
/// are the URL parameters each search starts from.
pub(crate) fn items<'a>(
    p: &Params,
    body: Option<&'a [u8]>,
    inherited: &[&str],
) -> Result<Vec<(Params, &'a [u8])>> {
    if let Some(n) = p.int("max_concurrent_searches")? {
        if n < 1 {
            return Err(Error::illegal_argument(
                "maxConcurrentSearchRequests must be positive",
            ));
        }
    }
    let data = match body {
        Some(b) if !b.is_empty() => b,
        _ => {
            return Err(Error::new(
                ErrorKind::Parse,
                "request body or source parameter is required",
            ))
        }
    };
    if data.last() != Some(&b'\n') {
        return Err(Error::illegal_argument(
            "The msearch request must be terminated by a newline [\n]",
        ));
    }
    // Indices options are read with the lines, the URL's first.
    p.indices_options(IndicesOptions::lenient_expand_open())?;
    let mut out = Vec::new();
    for (header, body) in pairs(data) {
        let item = item_params(p, header, inherited)?;
        item.indices_options(IndicesOptions::lenient_expand_open())?;
        out.push((item, body));
    }
    if out.is_empty() {
        return Err(no_requests());
    }
    Ok(out)
}

/// `MultiSearchRequest.validate()` of a request without searches.
pub(crate) fn no_requests() -> Error {
    Error::new(
        ErrorKind::ActionRequestValidation,
        "Validation Failed: 1: no requests added;",
    )
}

/// `{"took", "responses"}`: each search's answer with its `status`, or its error's envelope.
pub(crate) fn responses(
    start: Instant,
    results: impl Iterator<Item = Result<Response>>,
) -> Response {
    let mut out = Vec::with_capacity(4096);
    for (i, result) in results.enumerate() {
        out.push(if i == 0 { b'[' } else { b',' });
        match result {
            Ok(r) => with_status(&mut out, r.body, r.status),
            Err(e) => {
                let mut w = ObjectWriter::new();
                w.field("error", &e.to_envelope())
                    .field("status", &e.status());
                out.extend_from_slice(&w.finish());
            }
        }
    }
    out.push(b']');
    let mut body = Vec::with_capacity(out.len() + 32);
    body.extend_from_slice(
        format!("{{\"took\":{},\"responses\":", start.elapsed().as_millis()).as_bytes(),
    );
    body.extend_from_slice(&out);
    body.push(b'}');
    Response::bytes(200, body)
}

/// The (metadata, body) line pairs, as `readMultiLineFormat` splits them: a newline as the
/// very first byte is skipped, and a metadata line without a body line after it is dropped.
fn pairs(data: &[u8]) -> Vec<(&[u8], &[u8])> {
    let next = |from: usize| {
        data[from.min(data.len())..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| from + i)
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(end) = next(from) {
        if end == 0 {
            from = 1;
            continue;
        }
        let header = &data[from..end];
        from = end + 1;
        let Some(end) = next(from) else { break };
        out.push((header, &data[from..end]));
        from = end + 1;
    }
    out
}

/// One search's parameters: the URL's, overridden by its metadata line.
fn item_params(url: &Params, header: &[u8], inherited: &[&str]) -> Result<Params> {
    let mut item = Params::default();
    for key in inherited {
        if let Some(v) = url.0.get(*key) {
            item.0.insert((*key).to_string(), v.clone());
        }
    }
    if header.is_empty() {
        return Ok(item);
    }
    let map = match serde_json::from_slice::<Value>(header) {
        Ok(Value::Object(m)) => m,
        Ok(_) => {
            return Err(Error::new(
                ErrorKind::Parse,
                "Failed to parse content to map",
            ))
        }
        Err(e) => return Err(super::bulk::json_error(&e, header)),
    };
    for (key, value) in map {
        let name = match key.as_str() {
            "index" | "indices" => "index",
            "search_type" | "searchType" => "search_type",
            "ccs_minimize_roundtrips" | "ccsMinimizeRoundtrips" => "ccs_minimize_roundtrips",
            "request_cache" | "requestCache" => {
                if !matches!(&value, Value::Bool(_))
                    && !matches!(value.as_str(), Some("true" | "false"))
                {
                    let text = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_string);
                    return Err(Error::illegal_argument(format!(
                        "Could not convert [{key}] to boolean"
                    ))
                    .caused_by(Error::illegal_argument(format!(
                        "Failed to parse value [{text}] as only [true] or [false] are allowed."
                    ))));
                }
                "request_cache"
            }
            "preference" => "preference",
            "routing" => "routing",
            "allow_partial_search_results" => "allow_partial_search_results",
            "expand_wildcards" | "expandWildcards" => "expand_wildcards",
            "ignore_unavailable" | "ignoreUnavailable" => "ignore_unavailable",
            "allow_no_indices" | "allowNoIndices" => "allow_no_indices",
            "ignore_throttled" | "ignoreThrottled" => "ignore_throttled",
            "cancel_after_time_interval" | "cancelAfterTimeInterval" => {
                "cancel_after_time_interval"
            }
            _ => {
                return Err(Error::illegal_argument(format!(
                    "key [{key}] is not supported in the metadata section"
                )))
            }
        };
        // Java's `toString` of the value; a null leaves the URL's.
        let text = match value {
            Value::Null => continue,
            Value::String(s) => s,
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        };
        item.0.insert(name.to_string(), Value::String(text));
    }
    Ok(item)
}

/// A search response with its element's `status` last, as `MultiSearchResponse.Item` adds it.
pub(crate) fn with_status(out: &mut Vec<u8>, mut body: Vec<u8>, status: u16) {
    if body.last() == Some(&b'}') {
        body.pop();
        out.extend_from_slice(&body);
        out.extend_from_slice(format!(",\"status\":{status}}}").as_bytes());
    } else {
        out.extend_from_slice(&body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_split_as_opensearch_reads_them() {
        let data = b"\n{}\n{\"size\":1}\n{\"index\":\"a\"}\n{}\n{\"index\":\"b\"}\n";
        let p = pairs(data);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0], (&b"{}"[..], &b"{\"size\":1}"[..]));
        assert_eq!(p[1], (&b"{\"index\":\"a\"}"[..], &b"{}"[..]));
    }

    #[test]
    fn metadata_overrides_the_url() {
        let mut url = Params::default();
        url.0.insert("index".into(), Value::from("x"));
        url.0.insert("preference".into(), Value::from("_local"));
        let item = item_params(
            &url,
            br#"{"index":["a","b"],"request_cache":true}"#,
            INHERITED,
        )
        .unwrap();
        assert_eq!(item.str("index"), Some("a,b"));
        assert_eq!(item.str("request_cache"), Some("true"));
        // Only what the REST layer hands down is inherited.
        assert_eq!(item.str("preference"), None);
        let e = item_params(&url, br#"{"zap":1}"#, INHERITED).unwrap_err();
        assert_eq!(
            e.reason,
            "key [zap] is not supported in the metadata section"
        );
        let e = item_params(&url, br#"{"request_cache":"yes"}"#, INHERITED).unwrap_err();
        assert_eq!(e.reason, "Could not convert [request_cache] to boolean");
    }

    #[test]
    fn a_response_gets_its_status_last() {
        let mut out = Vec::new();
        with_status(&mut out, br#"{"took":1}"#.to_vec(), 200);
        assert_eq!(out, br#"{"took":1,"status":200}"#);
    }
}
