//! `GET/POST /<index>/_explain/<id>`: whether a document matches a query and the explanation
//! tree of its score, worded as OpenSearch (Lucene) prints it.

use super::{Params, Response};
use crate::dsl::{self, json::J};
use crate::error::{Error, ErrorKind, Result};
use crate::index::schema;
use crate::node::Node;
use crate::query::{self, Context};
use serde_json::{json, Value};
use tantivy::collector::TopDocs;
use tantivy::query::{EnableScoring, Explanation, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::Term;

/// The request's query: `q=` or the body's `query`.
fn request_query(p: &Params, body: Option<&[u8]>) -> Result<Option<dsl::Query>> {
    let node = super::search::leading_body(body)?;
    if let Some(q) = p.str("q") {
        return Ok(Some(crate::search::request::url_query(p, q)?));
    }
    let Some(node) = node else {
        return Ok(None);
    };
    let Some((k, kpos, v)) = node.as_obj().unwrap_or_default().first() else {
        return Ok(None);
    };
    if k != "query" {
        return Err(dsl::parsing(
            format!("request does not support [{k}]"),
            *kpos,
        ));
    }
    if !matches!(v.v, J::Obj(_)) {
        return Err(dsl::parsing(
            format!("Unknown key for a {} in [query].", v.token()),
            v.pos,
        ));
    }
    Ok(Some(dsl::parse_top_level_query(v)?))
}

/// A tantivy explanation as OpenSearch words it: `{value, description, details}`.
pub fn to_json(e: &Explanation, doc: (u32, u32)) -> Value {
    let raw = serde_json::to_value(e).unwrap_or(Value::Null);
    convert(&raw, doc)
}

/// The doc id Lucene would give a document of the shard: its rank in indexing order
/// (`_seq_no`), which tantivy's ids (per segment, per indexing thread) do not follow.
fn lucene_doc_id(searcher: &tantivy::Searcher, addr: tantivy::DocAddress) -> u32 {
    let cols: Vec<_> = searcher
        .segment_readers()
        .iter()
        .map(|r| {
            r.fast_fields()
                .i64(schema::SEQ_NO)
                .ok()
                .map(|c| (c.first_or_default_col(0), r.max_doc()))
        })
        .collect();
    let Some(Some((col, _))) = cols.get(addr.segment_ord as usize) else {
        return addr.doc_id;
    };
    let mine = col.get_val(addr.doc_id);
    cols.iter()
        .flatten()
        .map(|(c, n)| (0..*n).filter(|&d| c.get_val(d) < mine).count() as u32)
        .sum()
}

/// The value an explanation node carries in its context under `prefix`.
fn context_value<T: std::str::FromStr>(v: &Value, prefix: &str) -> Option<T> {
    v.get("context")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find_map(|c| c.strip_prefix(prefix))
        .and_then(|t| t.parse::<T>().ok())
}

fn convert(v: &Value, doc: (u32, u32)) -> Value {
    // tantivy's values are f32: printed as Java prints a float; one Lucene keeps as a double
    // comes in the context.
    let double = context_value::<f64>(v, crate::query::boosting::DOUBLE_VALUE_CONTEXT);
    let value = match double {
        Some(d) => Value::from(d),
        None => {
            crate::search::score_json(v.get("value").and_then(Value::as_f64).unwrap_or(0.0) as f32)
        }
    };
    let desc = v
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let details: Vec<Value> = v
        .get("details")
        .and_then(Value::as_array)
        .map(|d| d.iter().map(|x| convert(x, doc)).collect())
        .unwrap_or_default();
    let is_all = |d: &Value| d.get("description").and_then(Value::as_str) == Some("AllQuery");
    let raw_details = v.get("details").and_then(Value::as_array);
    let dis_max_tie = context_value::<f32>(v, crate::query::combine::DIS_MAX_CONTEXT);
    let (desc, details) = match desc {
        // Lucene's DisjunctionMaxQuery wording.
        "BooleanClause. sum of ..." if dis_max_tie == Some(0.0) => ("max of:".to_string(), details),
        "BooleanClause. sum of ..." if dis_max_tie.is_some() => (
            format!(
                "max plus {} times others of:",
                crate::query::function_score::java_float(dis_max_tie.unwrap_or_default())
            ),
            details,
        ),
        "BooleanClause. sum of ..." => ("sum of:".to_string(), details),
        "Const" if raw_details.is_some_and(|d| d.len() == 1 && is_all(&d[0])) => {
            // A boosted match_all prints its boost, as Lucene's constant-score weights do.
            let v = v.get("value").and_then(Value::as_f64).unwrap_or(1.0) as f32;
            let desc = if v == 1.0 {
                "*:*".to_string()
            } else {
                format!("*:*^{}", crate::query::function_score::java_float(v))
            };
            (desc, Vec::new())
        }
        "AllQuery" => ("*:*".to_string(), Vec::new()),
        d => (
            d.replace(
                &format!(" in {}) [PerFieldSimilarity]", doc.0),
                &format!(" in {}) [PerFieldSimilarity]", doc.1),
            ),
            details,
        ),
    };
    // Lucene's BM25 explanation gives the two document counts as longs.
    let value = match desc.as_str() {
        "n, number of documents containing term" | "N, total number of documents with field" => {
            value.as_f64().map_or(value, |n| Value::from(n as i64))
        }
        _ => value,
    };
    json!({"value": value, "description": desc, "details": details})
}

/// `explain: true` on a search: the hit's `_shard`, `_node` and the `_explanation` of the
/// request's query for it, as OpenSearch adds them.
pub fn explain_hit(
    hit: &mut serde_json::Map<String, Value>,
    req: &crate::search::SearchRequest,
    t: &crate::search::ShardTarget,
    addr: tantivy::DocAddress,
) -> Result<()> {
    let meta = t.service.meta();
    let cx = Context::of(&t.searcher, &meta).describing();
    crate::query::function_score::set_shard(t.shard);
    let q = query::build(&t.query(&req.query), &cx)?;
    let weight = q.weight(EnableScoring::enabled_from_searcher(&t.searcher))?;
    let reader = t.searcher.segment_reader(addr.segment_ord);
    let doc = (addr.doc_id, lucene_doc_id(&t.searcher, addr));
    let explanation = match weight.explain(reader, addr.doc_id) {
        Ok(e) => to_json(&e, doc),
        Err(_) => json!({"value": 0.0, "description": "no matching term", "details": []}),
    };
    crate::query::function_score::take_failure();
    hit.insert(
        "_shard".into(),
        Value::from(format!("[{}][{}]", meta.name, t.shard)),
    );
    hit.insert("_node".into(), Value::from(&*t.node_id));
    hit.insert("_explanation".into(), explanation);
    Ok(())
}

pub fn explain(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let index = p.required("index")?;
    let id = p.required("id")?;
    let ast = request_query(p, body)?;
    let svc = super::document::resolve_single(node, index, false)?;
    let Some(ast) = ast else {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: query is missing;",
        ));
    };
    let meta = svc.meta();
    let routing = super::document::alias_routing(&svc, index, p.str("routing"))?;
    crate::metadata::blocks::check([meta.as_ref()], crate::metadata::blocks::Level::Read)?;
    let shard_no = svc.shard_of(id, routing.as_deref()) as usize;
    // Explained through a filtered alias, the query is held to its filter as a search's is.
    let ast = match meta.aliases.get(index).filter(|a| a.filter.is_some()) {
        Some(a) => match crate::search::alias_filter::of_aliases(&[(index, a)])? {
            Some(f) => crate::search::alias_filter::filtered(&ast, &f),
            None => ast,
        },
        None => ast,
    };
    let searcher = svc.shards()[shard_no].searcher();
    let id_field = searcher.schema().get_field(schema::ID)?;
    let found = searcher.search(
        &TermQuery::new(
            Term::from_field_text(id_field, id),
            IndexRecordOption::Basic,
        ),
        &TopDocs::with_limit(1).order_by_score(),
    )?;
    let Some((_, addr)) = found.first() else {
        return Ok(Response::json(
            404,
            &json!({"_index": meta.name, "_id": id, "matched": false}),
        ));
    };
    let cx = Context::of(&searcher, &meta).describing();
    crate::query::function_score::set_shard(shard_no);
    let q = query::build(&ast, &cx)?;
    let weight = q.weight(EnableScoring::enabled_from_searcher(&searcher))?;
    let reader = searcher.segment_reader(addr.segment_ord);
    let matched = query::reaches(weight.scorer(reader, 1.0)?.as_mut(), addr.doc_id);
    let doc = (addr.doc_id, lucene_doc_id(&searcher, *addr));
    let explanation = if matched {
        to_json(&weight.explain(reader, addr.doc_id)?, doc)
    } else {
        let d = query::no_match::Doc {
            reader,
            doc: addr.doc_id,
            lucene: doc.1,
        };
        to_json(&query::no_match::explain(&ast, &cx, &d)?, doc)
    };
    let mut out = json!({
        "_index": meta.name,
        "_id": id,
        "matched": matched,
        "explanation": explanation,
    });
    if let Some(get) = requested_get(&svc, id, p, routing.as_deref())? {
        out["get"] = get;
    }
    Ok(Response::ok(&out))
}

/// The `get` section OpenSearch adds when the request names stored fields or fetches the
/// source: the document's sequence number, primary term and (filtered) `_source`.
fn requested_get(
    svc: &crate::index::index_service::IndexService,
    id: &str,
    p: &Params,
    routing: Option<&str>,
) -> Result<Option<Value>> {
    let stored_fields = p.str("stored_fields").is_some();
    let source_asked = ["_source", "_source_includes", "_source_excludes"]
        .iter()
        .any(|k| p.str(k).is_some());
    let filter = if source_asked {
        super::document::source_filter(p)?
    } else {
        None
    };
    if !stored_fields && filter.is_none() {
        return Ok(None);
    }
    let Some(doc) = super::document::current_doc(svc, id, routing)? else {
        return Ok(None);
    };
    let mut get = json!({"_seq_no": doc.seq_no, "_primary_term": doc.primary_term, "found": true});
    if let (Some(f), Some(src)) = (&filter, &doc.source) {
        let v: Value = serde_json::from_slice(src).map_err(|e| Error::internal(e.to_string()))?;
        get["_source"] = f.apply(&v);
    }
    Ok(Some(get))
}
