//! URL parameters that mean the same in every API, checked before the action runs: a value
//! OpenSearch's REST layer refuses is refused with its message, even where a single node has no
//! use for the parameter (no master to wait for, no replica copies to wait on).

use super::Params;
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::preference::ShardPreference;
use crate::util::units::parse_time_value;

/// Read with `paramAsBoolean` wherever they appear.
const BOOLEANS: &[&str] = &[
    "local",
    "flat_settings",
    "include_defaults",
    "require_alias",
    "realtime",
    "include_unloaded_segments",
    "include_segment_file_sizes",
    "write_index_only",
    "preserve_existing",
    "verbose",
    "wait_if_ongoing",
    "force",
    "only_expunge_deletes",
    "flush",
    "primary_only",
    "wait_for_completion",
    "wait_for_no_relocating_shards",
    "wait_for_no_initializing_shards",
    "forbid_closed_indices",
];

/// Read with `paramAsTime`.
const TIMES: &[&str] = &["timeout", "master_timeout", "cluster_manager_timeout"];

/// Actions that read `preference` where they route their shards, after their own parameters
/// and body: a bad preference is refused then, as OpenSearch's routing refuses it.
const ROUTED_LATER: &[&str] = &["indices:data/read/search", "indices:data/read/count"];

pub fn check(p: &Params, action: &str) -> Result<()> {
    for key in BOOLEANS {
        p.bool(key, false)?;
    }
    if p.str("master_timeout").is_some() && p.str("cluster_manager_timeout").is_some() {
        return Err(Error::new(
            ErrorKind::Parse,
            "Please only use one of the request parameters [master_timeout, cluster_manager_timeout].",
        ));
    }
    for key in TIMES {
        if let Some(v) = p.str(key) {
            parse_time_value(v, key)?;
        }
    }
    if let Some(v) = p.str("wait_for_active_shards") {
        active_shard_count(v)?;
    }
    if let Some(v) = p.str("version_type") {
        if !matches!(v, "internal" | "external" | "external_gte") {
            return Err(Error::illegal_argument(format!(
                "No version type match [{v}]"
            )));
        }
    }
    if p.str("preference").is_some() && !ROUTED_LATER.contains(&action) {
        ShardPreference::parse(p.str("preference"), None)?;
    }
    Ok(())
}

/// `ActiveShardCount.parseString`: `all`, or a non-negative count.
fn active_shard_count(v: &str) -> Result<()> {
    if v == "all" {
        return Ok(());
    }
    match v.parse::<i32>() {
        Ok(n) if n < 0 => Err(Error::illegal_argument(
            "shard count cannot be a negative value",
        )),
        Ok(_) => Ok(()),
        Err(_) => Err(
            Error::illegal_argument(format!("cannot parse ActiveShardCount[{v}]")).caused_by(
                Error::new(
                    ErrorKind::NumberFormat,
                    format!("For input string: \"{v}\""),
                ),
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(v: serde_json::Value) -> Params {
        let serde_json::Value::Object(m) = v else {
            panic!("object")
        };
        Params(m)
    }

    #[test]
    fn refuses_what_opensearch_refuses() {
        let reason = |v| {
            check(&params(v), "indices:data/read/get")
                .unwrap_err()
                .reason
        };
        assert_eq!(
            reason(json!({"wait_for_active_shards": "x"})),
            "cannot parse ActiveShardCount[x]"
        );
        assert_eq!(
            reason(json!({"wait_for_active_shards": "-2"})),
            "shard count cannot be a negative value"
        );
        assert_eq!(
            reason(json!({"local": "x"})),
            "Failed to parse value [x] as only [true] or [false] are allowed."
        );
        assert_eq!(
            reason(json!({"master_timeout": "x"})),
            "failed to parse setting [master_timeout] with value [x] as a time value: unit is missing or unrecognized"
        );
        assert_eq!(
            reason(json!({"version_type": "x"})),
            "No version type match [x]"
        );
        assert!(check(
            &params(json!({
                "wait_for_active_shards": "all", "timeout": "1m", "local": "true",
                "version_type": "external_gte", "preference": "_local"
            })),
            "indices:data/read/get"
        )
        .is_ok());
        // Search routes its shards after reading the rest: a bad preference waits till then.
        let bad = params(json!({"preference": "_shards:x"}));
        assert!(check(&bad, "indices:data/read/get").is_err());
        assert!(check(&bad, "indices:data/read/search").is_ok());
    }
}
