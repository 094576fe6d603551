//! Shard failures: what a search reports when some of its shards fail (`_shards.failures`, with
//! the others' hits) or when it cannot answer (`search_phase_execution_exception`), grouped and
//! ordered as OpenSearch's `ExceptionsHelper.groupBy` leaves them.

use super::ShardTarget;
use crate::error::{Error, ErrorKind};
use serde_json::{json, Value};
use std::sync::Arc;

/// One shard's failure in a search phase.
#[derive(Debug, Clone)]
pub struct ShardFailure {
    pub index: String,
    pub shard: usize,
    pub node: Arc<str>,
    pub error: Error,
}

impl ShardFailure {
    /// `t`'s shard failed with `error`.
    pub fn new(t: &ShardTarget, error: Error) -> Self {
        ShardFailure {
            index: t.service.name(),
            shard: t.shard,
            node: t.node_id.clone(),
            error,
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "shard": self.shard,
            "index": self.index,
            "node": &*self.node,
            "reason": self.error.to_json(),
        })
    }
}

/// The first failure of each (index, exception type, message), in shard order (shard number,
/// then index name, as OpenSearch's `ShardId` sorts its shard iterators).
fn grouped(failures: &[ShardFailure]) -> Vec<&ShardFailure> {
    let mut sorted: Vec<&ShardFailure> = failures.iter().collect();
    sorted.sort_by(|a, b| a.shard.cmp(&b.shard).then(a.index.cmp(&b.index)));
    let mut out: Vec<&ShardFailure> = Vec::new();
    for f in sorted {
        let same = |g: &&ShardFailure| {
            g.index == f.index
                && g.error.type_name() == f.error.type_name()
                && g.error.reason == f.error.reason
        };
        if !out.iter().any(same) {
            out.push(f);
        }
    }
    out
}

/// The `_shards` header of a search or count answer.
pub fn shards_json(total: usize, failures: &[ShardFailure]) -> Value {
    let mut v = json!({
        "total": total,
        "successful": total - failures.len().min(total),
        "skipped": 0,
        "failed": failures.len(),
    });
    if !failures.is_empty() {
        v["failures"] = Value::Array(grouped(failures).into_iter().map(|f| f.to_json()).collect());
    }
    v
}

/// `shards_json`'s bytes, appended to `out`.
pub fn write_shards(out: &mut Vec<u8>, total: usize, failures: &[ShardFailure]) {
    if !failures.is_empty() {
        serde_json::to_writer(out, &shards_json(total, failures)).expect("json serializes");
        return;
    }
    let mut w = crate::api::json_writer::ObjectWriter::within(out);
    w.field("total", &total)
        .field("successful", &total)
        .field("skipped", &0)
        .field("failed", &0);
    w.close();
}

/// A failure while the shards' results are reduced, past the phase named: no shard failed, so
/// the exception carries no root causes, only its cause.
pub fn reduce_failure(phase: &str, cause: Error) -> Error {
    let status = cause.status();
    Error::new(ErrorKind::SearchPhaseExecution, "")
        .with("root_cause", Value::Array(Vec::new()))
        .with("phase", phase)
        .with("grouped", true)
        .with("failed_shards", Value::Array(Vec::new()))
        .caused_by(cause)
        .with_status(status)
}

/// OpenSearch's `SearchPhaseExecutionException` for a `phase` that ended with `failures`:
/// `reason` is "all shards failed" or "Partial shards failure". Its status is the first
/// group's unless a later one is a server error; with no shard failure at all (no copy could
/// serve) it is 503.
pub fn phase_failure(phase: &str, reason: &str, failures: &[ShardFailure]) -> Error {
    let groups = grouped(failures);
    let roots: Vec<Value> = groups
        .iter()
        .map(|f| {
            let mut root = f.error.root_cause().to_json();
            if let Value::Object(m) = &mut root {
                m.remove("caused_by");
            }
            root
        })
        .collect();
    let mut out = Error::new(ErrorKind::SearchPhaseExecution, reason)
        .with("root_cause", Value::Array(roots))
        .with("phase", phase)
        .with("grouped", true)
        .with(
            "failed_shards",
            Value::Array(groups.iter().map(|f| f.to_json()).collect()),
        );
    let Some(first) = groups.first() else {
        return out.with_status(503);
    };
    let mut status = first.error.status();
    for f in &groups[1..] {
        if f.error.status() >= 500 {
            status = f.error.status();
        }
    }
    let e = &first.error;
    // The cause is the first group's root cause; a Java exception there is wrapped in an
    // OpenSearch exception that prints it twice. "Partial shards failure" is raised without
    // a cause.
    let all_failed = reason == "all shards failed";
    if all_failed
        && matches!(
            e.kind,
            ErrorKind::IllegalArgument | ErrorKind::NumberFormat | ErrorKind::TooManyClauses
        )
    {
        out = out.caused_by(e.clone().caused_by(e.clone()));
    } else if all_failed && !std::ptr::eq(e.root_cause(), e) {
        out = out.caused_by(e.root_cause().clone());
    }
    out.with_status(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard_error(index: &str, reason: &str) -> Error {
        Error::new(ErrorKind::QueryShard, reason).with("index", index)
    }

    fn failure(index: &str, shard: usize, error: Error) -> ShardFailure {
        ShardFailure {
            index: index.into(),
            shard,
            node: "n1".into(),
            error,
        }
    }

    #[test]
    fn groups_by_index_type_and_reason_in_shard_order() {
        let failures = vec![
            failure("b", 2, shard_error("b", "x")),
            failure("b", 0, shard_error("b", "x")),
            failure("a", 1, shard_error("a", "x")),
            failure("b", 1, shard_error("b", "y")),
        ];
        let g: Vec<(String, usize)> = grouped(&failures)
            .into_iter()
            .map(|f| (f.index.clone(), f.shard))
            .collect();
        assert_eq!(g, vec![("b".into(), 0), ("a".into(), 1), ("b".into(), 1)]);
        let h = shards_json(7, &failures);
        assert_eq!(h["successful"], 3);
        assert_eq!(h["failed"], 4);
        assert_eq!(h["failures"].as_array().map(Vec::len), Some(3));
        assert_eq!(h["failures"][0]["node"], "n1");
        assert!(shards_json(2, &[]).get("failures").is_none());
    }

    #[test]
    fn phase_failure_status_and_roots() {
        let failures = vec![
            failure("a", 0, shard_error("a", "x")),
            failure("b", 0, Error::new(ErrorKind::Search, "boom")),
        ];
        let e = phase_failure("query", "all shards failed", &failures);
        assert_eq!(e.status(), 500);
        let v = e.to_json();
        assert_eq!(v["root_cause"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["failed_shards"][0]["index"], "a");
        assert_eq!(
            phase_failure("query", "all shards failed", &[]).status(),
            503
        );
    }
}
