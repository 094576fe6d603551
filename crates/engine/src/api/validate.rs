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

/// A rendered query and whether it is a Lucene `BooleanQuery` (which a boolean parent or a
/// disjunction parenthesises).
type Rendered = (String, bool);

/// Lucene's `BoostQuery.toString`, around a query whose boost is not 1.
fn boosted((s, boolean): Rendered, boost: f32) -> Rendered {
    if boost == 1.0 {
        (s, boolean)
    } else {
        (format!("({s})^{boost:?}"), false)
    }
}

/// Lucene's `DisjunctionMaxQuery.toString`. Lucene keeps the disjuncts in a hash multiset, so
/// its order follows Java hash codes; this one keeps the order it is given.
fn disjunction(parts: Vec<Rendered>, tie_breaker: f32) -> Rendered {
    let inner: Vec<String> = parts
        .into_iter()
        .map(|(s, boolean)| if boolean { format!("({s})") } else { s })
        .collect();
    let mut s = format!("({})", inner.join(" | "));
    if tie_breaker != 0.0 {
        s.push_str(&format!("~{tie_breaker:?}"));
    }
    (s, false)
}

/// A `match` on one field as Lucene prints the query it builds: its analysed terms, required
/// (`+`) under `operator: and`, or `(…)~n` under `minimum_should_match`. `None` for what
/// builds otherwise (fuzziness, phrases, synonyms), printed from its terms instead.
fn match_string(cx: &Context, field: &str, m: &dsl::MatchQuery) -> Result<Option<Rendered>> {
    if m.fuzziness.is_some() {
        return Ok(None);
    }
    let one = dsl::MatchQuery {
        field: field.to_string(),
        boost: 1.0,
        ..m.clone()
    };
    let q = query::build(&Ast::Match(one), cx)?;
    let schema = cx.searcher.schema();
    let mut terms = Vec::new();
    let mut fields = std::collections::BTreeSet::new();
    let mut phrase = false;
    q.query_terms(&mut |t, positions| {
        fields.insert(t.field());
        phrase |= positions;
        terms.push(term_text(schema, t));
    });
    if fields.len() > 1 || terms.is_empty() || phrase {
        return Ok(None);
    }
    if terms.len() == 1 {
        return Ok(Some((terms.remove(0), false)));
    }
    let and = m.operator == dsl::Operator::And;
    let msm = match (&m.minimum_should_match, and) {
        (Some(spec), false) => spec.resolve(terms.len())?,
        _ => 0,
    };
    Ok(Some(if and {
        (
            terms
                .iter()
                .map(|t| format!("+{t}"))
                .collect::<Vec<_>>()
                .join(" "),
            true,
        )
    } else if msm > 0 {
        (format!("({})~{msm}", terms.join(" ")), true)
    } else {
        (terms.join(" "), true)
    }))
}

/// Lucene's `toString` of the query an AST builds to.
fn lucene_string(ast: &Ast, cx: &Context) -> Result<Rendered> {
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
            boosted((parts.join(" "), true), b.boost)
        }
        Ast::DisMax {
            queries,
            tie_breaker,
            boost,
        } => {
            let parts = queries
                .iter()
                .map(|q| lucene_string(q, cx))
                .collect::<Result<Vec<_>>>()?;
            boosted(disjunction(parts, *tie_breaker), *boost)
        }
        Ast::Term { boost, .. } if *boost != 1.0 => {
            let plain = match ast {
                Ast::Term {
                    field,
                    value,
                    case_insensitive,
                    ..
                } => Ast::Term {
                    field: field.clone(),
                    value: value.clone(),
                    boost: 1.0,
                    case_insensitive: *case_insensitive,
                },
                _ => unreachable!("matched a term"),
            };
            boosted(lucene_string(&plain, cx)?, *boost)
        }
        Ast::Match(m) => match match_string(cx, &m.field, m)? {
            Some(r) => boosted(r, m.boost),
            None => terms_string(ast, cx)?,
        },
        Ast::MultiMatch(mm)
            if matches!(
                mm.ty,
                dsl::MultiMatchType::BestFields | dsl::MultiMatchType::MostFields
            ) =>
        {
            let as_match = mm.as_match("");
            let mut parts = Vec::new();
            for (field, boost) in query::expand_fields(cx, &mm.fields) {
                match match_string(cx, &field, &as_match)? {
                    Some(r) => parts.push(boosted(r, boost)),
                    None => return terms_string(ast, cx),
                }
            }
            let inner = match parts.len() {
                0 => return terms_string(ast, cx),
                1 => parts.remove(0),
                _ => disjunction(parts, mm.tie_breaker.unwrap_or(mm.ty.default_tie())),
            };
            boosted(inner, mm.boost)
        }
        other => terms_string(other, cx)?,
    })
}

/// A query printed from the terms it holds: one term alone, several as a boolean of them.
fn terms_string(ast: &Ast, cx: &Context) -> Result<Rendered> {
    let q = query::build(ast, cx)?;
    let schema = cx.searcher.schema();
    let mut terms = Vec::new();
    q.query_terms(&mut |t, _| terms.push(term_text(schema, t)));
    Ok(match terms.len() {
        0 => (
            format!("MatchNoDocsQuery(\"{}\")", no_match_reason(ast, cx)),
            false,
        ),
        1 => (terms.remove(0), false),
        _ => (terms.join(" "), true),
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
            Ast::Match(dsl::MatchQuery {
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
