//! The engine's half of reindex, update-by-query and delete-by-query (OpenSearch's bulk-by-scroll
//! actions), one batch per call. The loop (counts, `max_docs`, conflicts, throttling,
//! cancellation) stays with the caller; a batch goes from the scroll's hits into `_bulk`'s own
//! execution without a JSON page to render and parse and a bulk body to build and parse again:
//! a hit's stored `_source` bytes become the written document's as they are, as OpenSearch
//! copies them.
//!
//! Without `scroll_id` the call opens the scroll (the search's parameters and body) and parks
//! its first page in the scroll's context. With one it writes the parked page, its first
//! `limit` hits, and meanwhile reads the next page ahead into the context: the scroll reads a
//! point-in-time snapshot, which the batch's own writes cannot change, and the caller checks
//! its cancellation and limits between calls, so a page is never written before it has looked.

use super::bulk::{self, Item, Kind, Outcome};
use super::document::Refresh;
use super::json_writer::ObjectWriter;
use super::{Params, Response};
use crate::error::{Error, Result};
use crate::node::Node;
use crate::search::{HitSource, SearchResult};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// How a page's hits become bulk items.
struct Writes {
    kind: Kind,
    /// The index written; the hit's own without one.
    dest: Option<String>,
    routing: Routing,
    /// Written only if the document is still as the search saw it (`if_seq_no`).
    guard: bool,
}

/// `dest.routing` of a reindex: the hit's routing (`keep`), none, or a set value (`=value`).
enum Routing {
    Keep,
    Discard,
    Set(String),
}

impl Writes {
    fn from_params(p: &Params) -> Result<Writes> {
        let kind = match p.str("op") {
            Some("index") | None => Kind::Index,
            Some("create") => Kind::Create,
            Some("delete") => Kind::Delete,
            Some(other) => {
                return Err(Error::illegal_argument(format!(
                    "unknown bulk-by-scroll operation [{other}]"
                )))
            }
        };
        let routing = match p.str("dest_routing") {
            None | Some("keep") => Routing::Keep,
            Some("discard") => Routing::Discard,
            Some(v) => match v.strip_prefix('=') {
                Some(value) => Routing::Set(value.to_string()),
                // OpenSearch reads anything else as keeping the hit's routing.
                None => Routing::Keep,
            },
        };
        Ok(Writes {
            kind,
            dest: p.str("dest").map(String::from),
            routing,
            guard: p.bool("guard", false)?,
        })
    }

    /// The bulk items of a page's first `limit` hits.
    fn items(&self, page: &mut SearchResult, limit: usize) -> Vec<Item> {
        page.hits
            .iter_mut()
            .take(limit)
            .map(|hit| {
                let mut meta = Map::new();
                if self.guard {
                    if let Some((Some(seq_no), Some(term))) = hit.seq_no_primary_term {
                        meta.insert("if_seq_no".into(), Value::from(seq_no));
                        meta.insert("if_primary_term".into(), Value::from(term));
                    }
                }
                let source = (self.kind != Kind::Delete).then(|| {
                    Arc::new(
                        match std::mem::replace(&mut hit.source, HitSource::Absent) {
                            // A hit without a source is written as an empty document, as the bulk
                            // lines were.
                            HitSource::Absent => b"{}".to_vec(),
                            HitSource::Stored(bytes) => bytes,
                            // A filtered source: the bytes a search answer renders it as.
                            HitSource::Filtered(v) => {
                                serde_json::to_vec(&v).expect("a JSON value serializes")
                            }
                        },
                    )
                });
                Item {
                    kind: self.kind,
                    index: self.dest.clone().unwrap_or_else(|| hit.index.to_string()),
                    id: hit.id.clone(),
                    routing: match &self.routing {
                        Routing::Keep => hit.routing.clone(),
                        Routing::Discard => None,
                        Routing::Set(v) => Some(v.clone()),
                    },
                    meta,
                    source,
                    update: None,
                }
            })
            .collect()
    }
}

/// Rendered objects as one JSON array.
fn joined(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![b'['];
    for (i, o) in objects.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(o);
    }
    out.push(b']');
    out
}

fn keep_alive(p: &Params) -> Result<Option<Duration>> {
    p.str("scroll")
        .map(|v| {
            crate::util::units::parse_time_value(v, "scroll").map(|d| d.unwrap_or(Duration::ZERO))
        })
        .transpose()
}

pub fn batch(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    match p.str("scroll_id") {
        None => open(node, p, body),
        Some(scroll_id) => write(node, p, scroll_id),
    }
}

/// Opens the scroll and parks its first page: `{"_scroll_id", "total", "pending"}`.
fn open(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let req = super::search::parse(p, body)?;
    let ran = super::search::query(node, p, req)?;
    let scroll_id = ran
        .scroll_id
        .ok_or_else(|| Error::illegal_argument("a bulk-by-scroll batch needs [scroll]"))?;
    let total = ran.result.total.map_or(0, |(n, _)| n);
    let pending = ran.result.hits.len();
    super::scroll::park(&scroll_id, ran.result)?;
    let mut w = ObjectWriter::new();
    w.field("_scroll_id", &scroll_id)
        .field("total", &total)
        .field("pending", &pending);
    Ok(Response::bytes(200, w.finish()))
}

/// Writes the parked page (its first `limit` hits) and parks the next one, read meanwhile
/// unless `read_ahead=false`: `{"created", "updated", "deleted", "noops", "failures",
/// "pending"}`, a failure as the bulk item reported it (a version conflict among them).
fn write(node: &Node, p: &Params, scroll_id: &str) -> Result<Response> {
    let writes = Writes::from_params(p)?;
    let keep_alive = keep_alive(p)?;
    let limit = p.i64("limit")?.map(|n| usize::try_from(n).unwrap_or(0));
    let read_ahead = p.bool("read_ahead", true)?;
    let (mut items, read_ahead) = match super::scroll::take_parked(scroll_id)? {
        Some(mut page) => {
            let limit = limit.unwrap_or(page.hits.len());
            // The page itself is dropped here: its sources live on in the items.
            let items = writes.items(&mut page, limit);
            let whole = !page.hits.is_empty() && limit >= page.hits.len();
            (items, read_ahead && whole)
        }
        None => (Vec::new(), false),
    };
    bulk::validate(&mut items)?;
    let (outcomes, next) = std::thread::scope(|s| {
        let ahead = read_ahead
            .then(|| s.spawn(|| super::scroll::next_page(scroll_id, keep_alive, |_| Ok(()))));
        let outcomes = bulk::execute(node, &items, Refresh::None);
        let next = ahead.map(|h| h.join().expect("the read-ahead does not panic"));
        (outcomes, next)
    });
    let outcomes = outcomes?;
    let pending = match next {
        Some(page) => {
            let (_, page, _) = page?;
            let n = page.hits.len();
            super::scroll::park(scroll_id, page)?;
            n
        }
        None => 0,
    };
    let mut counts = [0usize; 4];
    let mut failures = Vec::new();
    for o in outcomes {
        match o {
            Outcome::Written(_, r) => match r.result {
                "created" => counts[0] += 1,
                "updated" => counts[1] += 1,
                "deleted" => counts[2] += 1,
                "noop" => counts[3] += 1,
                _ => {}
            },
            Outcome::Updated(_) => {}
            Outcome::Failed(index, id, e) => {
                let mut f = ObjectWriter::new();
                f.field("index", &index)
                    .field("id", &id)
                    .field("cause", &e.to_json())
                    .field("status", &e.status());
                failures.push(f.finish());
            }
        }
    }
    let mut w = ObjectWriter::new();
    w.field("created", &counts[0])
        .field("updated", &counts[1])
        .field("deleted", &counts[2])
        .field("noops", &counts[3])
        .raw("failures", &joined(&failures))
        .field("pending", &pending);
    Ok(Response::bytes(200, w.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Hit;
    use serde_json::json;

    fn params(v: Value) -> Params {
        let Value::Object(m) = v else {
            panic!("params")
        };
        Params(m)
    }

    fn page(hits: Vec<Hit>) -> SearchResult {
        SearchResult {
            terminated_early: None,
            total: Some((hits.len() as u64, "eq")),
            max_score: None,
            hits,
            shards: 1,
            failures: Vec::new(),
            timed_out: false,
            phase_took: Default::default(),
            aggs: Vec::new(),
            profiles: Vec::new(),
        }
    }

    fn hits() -> SearchResult {
        let hit = |id: &str, seq_no: i64, routing: Option<&str>, source: HitSource| Hit {
            index: "src".into(),
            id: Some(id.into()),
            version: None,
            seq_no_primary_term: Some((Some(seq_no), Some(1))),
            score: None,
            routing: routing.map(String::from),
            source,
            rest: Map::new(),
        };
        page(vec![
            hit(
                "1",
                4,
                Some("r"),
                HitSource::Stored(br#"{ "n" : 9007199254740993 }"#.to_vec()),
            ),
            hit("2", 5, None, HitSource::Filtered(json!({"n": 1}))),
            hit("3", 6, None, HitSource::Absent),
        ])
    }

    fn source(item: &Item) -> &[u8] {
        item.source.as_deref().map(Vec::as_slice).unwrap()
    }

    #[test]
    fn a_reindex_copies_stored_sources_as_their_bytes() {
        let w = Writes::from_params(&params(json!({"op": "create", "dest": "dst"}))).unwrap();
        let items = w.items(&mut hits(), 3);
        assert_eq!(items.len(), 3);
        assert!(items
            .iter()
            .all(|i| i.kind == Kind::Create && i.index == "dst"));
        assert!(items.iter().all(|i| i.meta.is_empty()), "no guard");
        assert_eq!(source(&items[0]), br#"{ "n" : 9007199254740993 }"#);
        assert_eq!(source(&items[1]), br#"{"n":1}"#);
        assert_eq!(source(&items[2]), b"{}");
        assert_eq!(items[0].routing.as_deref(), Some("r"));
        assert_eq!(items[1].routing, None);
        assert_eq!(
            items
                .iter()
                .map(|i| i.id.as_deref().unwrap())
                .collect::<Vec<_>>(),
            ["1", "2", "3"]
        );
    }

    #[test]
    fn routing_is_kept_discarded_or_set() {
        let routing = |v: &str| {
            let w = Writes::from_params(&params(json!({"dest": "d", "dest_routing": v}))).unwrap();
            w.items(&mut hits(), 1).remove(0).routing
        };
        assert_eq!(routing("keep").as_deref(), Some("r"));
        assert_eq!(routing("discard"), None);
        assert_eq!(routing("=x").as_deref(), Some("x"));
        assert_eq!(routing("other").as_deref(), Some("r"));
    }

    #[test]
    fn by_query_writes_guard_each_hit_in_its_own_index_and_stop_at_the_limit() {
        let w = Writes::from_params(&params(json!({"op": "delete", "guard": "true"}))).unwrap();
        let items = w.items(&mut hits(), 2);
        assert_eq!(items.len(), 2);
        assert!(items
            .iter()
            .all(|i| i.kind == Kind::Delete && i.index == "src"));
        assert!(items.iter().all(|i| i.source.is_none()));
        assert_eq!(items[1].meta["if_seq_no"], 5);
        assert_eq!(items[1].meta["if_primary_term"], 1);
        let bad = Writes::from_params(&params(json!({"op": "upsert"})));
        assert_eq!(
            bad.err().unwrap().reason,
            "unknown bulk-by-scroll operation [upsert]"
        );
    }
}
