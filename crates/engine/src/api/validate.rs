//! `GET/POST /<target>/_validate/query`: whether a query parses and builds on every target
//! index, with `explain` the query each index runs, printed as Lucene's `Query.toString`.

use super::{Params, Response};
use crate::dsl::{self, json::J, Query as Ast};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::query::{self, Context};
use serde_json::{json, Value};

/// The query of the request (`q=`, the body's `query`, else `match_all`), or why it is invalid.
fn request_query(p: &Params, body: Option<&[u8]>) -> std::result::Result<Ast, Error> {
    let node = super::search::leading_body(body)?;
    if let Some(q) = p.str("q") {
        return crate::search::request::url_query(p, q);
    }
    let mut ast = Ast::MatchAll { boost: 1.0 };
    if let Some(node) = node {
        for (k, _, v) in node.as_obj().unwrap_or_default() {
            match k.as_str() {
                "query" if matches!(v.v, J::Obj(_)) => ast = dsl::parse_query(v)?,
                other => {
                    return Err(Error::new(
                        ErrorKind::Parsing,
                        format!("request does not support [{other}]"),
                    ))
                }
            }
        }
    }
    Ok(ast)
}

/// A term as Lucene prints it: `field:text`.
fn term_text(schema: &tantivy::schema::Schema, t: &tantivy::Term) -> String {
    let field = schema.get_field_name(t.field());
    let v = t.value();
    let text = if let Some(s) = v.as_str() {
        s.to_string()
    } else if let Some(b) = v.as_bool() {
        (if b { "T" } else { "F" }).to_string()
    } else if let Some(n) = v.as_i64() {
        n.to_string()
    } else if let Some(n) = v.as_u64() {
        n.to_string()
    } else if let Some(n) = v.as_f64() {
        n.to_string()
    } else {
        format!("{:?}", t.serialized_value_bytes())
    };
    format!("{field}:{text}")
}

/// Lucene's `toString` of the query an AST builds to; the flag says whether it is a boolean
/// query (parenthesised inside another).
fn lucene_string(ast: &Ast, cx: &Context) -> Result<(String, bool)> {
    Ok(match ast {
        Ast::MatchAll { .. } => ("*:*".to_string(), false),
        Ast::MatchNone { .. } => (
            "MatchNoDocsQuery(\"User requested \"match_none\" query.\")".to_string(),
            false,
        ),
        Ast::Bool(b) => {
            let mut parts = Vec::new();
            let groups: [(&str, &Vec<Ast>); 4] = [
                ("+", &b.must),
                ("-", &b.must_not),
                ("", &b.should),
                ("#", &b.filter),
            ];
            for (prefix, list) in groups {
                for q in list {
                    let (s, boolean) = lucene_string(q, cx)?;
                    let s = if boolean { format!("({s})") } else { s };
                    parts.push(format!("{prefix}{s}"));
                }
            }
            (parts.join(" "), true)
        }
        other => {
            let q = query::build(other, cx)?;
            let schema = cx.searcher.schema();
            let mut terms = Vec::new();
            q.query_terms(&mut |t, _| terms.push(term_text(schema, t)));
            match terms.len() {
                0 => (
                    format!("MatchNoDocsQuery(\"{}\")", no_match_reason(other, cx)),
                    false,
                ),
                1 => (terms.remove(0), false),
                _ => (terms.join(" "), true),
            }
        }
    })
}

/// Why a query that matches nothing does, as OpenSearch's `MatchNoDocsQuery` says it: a
/// term-level query on an unmapped field is rewritten to `match_none`; a full-text one names
/// the unmapped field; a lenient one the failure it swallowed (`Queries.newLenientFieldQuery`,
/// which prints the field query's own exception, not the shard's wrapper).
fn no_match_reason(ast: &Ast, cx: &Context) -> String {
    let unmapped = |f: &str| cx.mapping.field(f).is_none();
    let lenient_failure = |field: &str, strict: Ast| match query::build(&strict, cx) {
        Err(e) => {
            // The field query's own exception, inside the shard's wrapper when there is one.
            let cause = match (&e.kind, e.caused_by.as_deref()) {
                (ErrorKind::QueryShard, Some(c)) => c,
                _ => &e,
            };
            format!(
                "failed [{field}] query, caused by {}:[{}]",
                cause.type_name(),
                cause.reason
            )
        }
        Ok(_) => String::new(),
    };
    match ast {
        Ast::Term { field, .. } | Ast::Terms { field, .. } | Ast::Prefix { field, .. }
            if unmapped(field) =>
        {
            "User requested \"match_none\" query.".to_string()
        }
        Ast::Match(m) | Ast::MatchBoolPrefix(m) if unmapped(&m.field) => {
            format!("unmapped fields [{}]", m.field)
        }
        Ast::Match(m) if m.lenient => lenient_failure(
            &m.field,
            Ast::Match(dsl::match_query::MatchQuery {
                lenient: false,
                ..m.clone()
            }),
        ),
        _ => String::new(),
    }
}

pub fn validate(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let explain = p.bool("explain", false)?;
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let services = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    let ast = match request_query(p, body) {
        Ok(a) => a,
        Err(e) => {
            let mut out = json!({"valid": false});
            if explain {
                out["error"] = Value::from(e.detailed_message());
            }
            return Ok(Response::ok(&out));
        }
    };
    // `rewrite` and `all_shards` print explanations too; `all_shards` one per shard, in
    // OpenSearch's shard order (number, then index).
    let all_shards = p.bool("all_shards", false)?;
    let with_explanations = explain || p.bool("rewrite", false)? || all_shards;
    let mut shards: Vec<(
        usize,
        &std::sync::Arc<crate::index::index_service::IndexService>,
    )> = Vec::new();
    for svc in &services {
        let n = if all_shards { svc.shards().len() } else { 1 };
        shards.extend((0..n).map(|i| (i, svc)));
    }
    if all_shards {
        shards.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name().cmp(&b.1.name())));
    }
    let mut explanations = Vec::new();
    let mut valid = true;
    for (shard, svc) in &shards {
        let meta = svc.meta();
        let searcher = svc.shards()[*shard].searcher();
        let cx = Context::of(&searcher, &meta);
        let mut entry = json!({"index": meta.name});
        if all_shards {
            entry["shard"] = json!(shard);
        }
        match lucene_string(&ast, &cx) {
            Ok((s, _)) => {
                entry["valid"] = json!(true);
                entry["explanation"] = json!(s);
            }
            Err(e) => {
                valid = false;
                entry["valid"] = json!(false);
                entry["error"] = json!(e.detailed_message());
            }
        }
        explanations.push(entry);
    }
    let n = shards.len();
    let mut out = json!({
        "_shards": {"total": n, "successful": n, "failed": 0},
        "valid": valid,
    });
    if with_explanations {
        out["explanations"] = Value::Array(explanations);
    }
    Ok(Response::ok(&out))
}
