//! `POST /<target>/_forcemerge`: each primary shard merged in turn (OpenSearch runs force merges
//! on a one-thread pool too), then committed when `flush` (the default).

use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::json;

/// `max_num_segments` as OpenSearch reads it: a Java `int`; zero or less means "as the merge
/// policy sees fit" (Lucene's maybeMerge), like leaving it out.
fn max_num_segments(p: &Params) -> Result<Option<u32>> {
    let Some(raw) = p.str("max_num_segments") else {
        return Ok(None);
    };
    let bad = || {
        Error::illegal_argument(format!(
            "Failed to parse int parameter [max_num_segments] with value [{raw}]"
        ))
        .caused_by(Error::new(
            ErrorKind::NumberFormat,
            format!("For input string: \"{raw}\""),
        ))
    };
    let n: i32 = raw.parse().map_err(|_| bad())?;
    Ok(u32::try_from(n).ok().filter(|&n| n > 0))
}

pub fn force_merge(node: &Node, p: &Params) -> Result<Response> {
    let max = max_num_segments(p)?;
    let only_expunge_deletes = p.bool("only_expunge_deletes", false)?;
    let flush = p.bool("flush", true)?;
    // Read for its validation only: the HTTP layer answers `false` with a task before this runs.
    p.bool("wait_for_completion", true)?;
    p.bool("primary_only", false)?;
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let services = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&services, crate::metadata::blocks::Level::MetadataWrite)?;
    let (mut total, mut primaries) = (0u32, 0u32);
    for svc in &services {
        let m = svc.meta();
        primaries += m.settings.number_of_shards;
        total += m.settings.number_of_shards * (1 + m.settings.number_of_replicas);
        for shard in svc.shards() {
            shard
                .force_merge(max, only_expunge_deletes, flush)
                .map_err(|e| e.on_shard(&m.name, &m.uuid, shard.number))?;
        }
    }
    Ok(Response::ok(
        &json!({"_shards": {"total": total, "successful": primaries, "failed": 0}}),
    ))
}
