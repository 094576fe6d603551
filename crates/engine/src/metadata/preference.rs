//! Which shards a read goes to: `routing` (murmur3 of each value, as writes route) and
//! `preference` (OpenSearch's `Preference` grammar). On one node every shard has exactly one
//! copy, the primary here, so the node-choosing preferences only decide whether that copy may
//! serve: `_replica` never can (no replica is ever assigned), `_only_nodes` only if this node
//! matches; `_prefer_nodes`, `_local`, `_primary*` and custom strings change nothing.

use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::glob_match;
use crate::util::murmur3::shard_for;

/// What a node is known by in `_only_nodes` criteria.
pub struct NodeIdentity<'a> {
    pub id: &'a str,
    pub name: &'a str,
    /// The address it is reached at (`network.host`).
    pub host: &'a str,
}

#[derive(Debug, Clone, PartialEq)]
enum Copies {
    /// Any copy may serve (this node's primary).
    Any,
    /// Replicas only: none exist on one node.
    ReplicasOnly,
    /// Only copies on nodes matching these criteria.
    OnlyNodes(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShardPreference {
    /// `_shards:0,2`: only these shard numbers (of every target index).
    only_shards: Option<Vec<i64>>,
    /// `routing=a,b`: the shards these values route to.
    routing: Option<Vec<String>>,
    copies: Copies,
}

fn no_preference(p: &str) -> Error {
    Error::illegal_argument(format!("no Preference for [{p}]"))
}

/// A `_shards` list entry as Java's `Integer.parseInt` reads it (Rust's `i32` parser accepts
/// the same: an optional sign and decimal digits).
fn shard_number(s: &str) -> Result<i64> {
    s.parse::<i32>().map(i64::from).map_err(|_| {
        Error::new(
            ErrorKind::NumberFormat,
            format!("For input string: \"{s}\""),
        )
    })
}

/// A preference type after `_shards:…|` or on its own (anything starting with `_`).
fn copies_of(p: &str) -> Result<Copies> {
    let (kind, rest) = match p.split_once(':') {
        Some((k, r)) => (k, Some(r)),
        None => (p, None),
    };
    match (kind, rest) {
        ("_replica", None) => Ok(Copies::ReplicasOnly),
        ("_primary" | "_primary_first" | "_replica_first" | "_local" | "_only_local", None) => {
            Ok(Copies::Any)
        }
        ("_prefer_nodes", Some(_)) => Ok(Copies::Any),
        ("_only_nodes", Some(nodes)) => Ok(Copies::OnlyNodes(nodes.to_string())),
        _ => Err(no_preference(kind)),
    }
}

impl ShardPreference {
    pub fn parse(preference: Option<&str>, routing: Option<&str>) -> Result<ShardPreference> {
        let routing = routing.map(|r| r.split(',').map(str::to_string).collect());
        let mut out = ShardPreference {
            only_shards: None,
            routing,
            copies: Copies::Any,
        };
        let Some(p) = preference.filter(|p| p.starts_with('_')) else {
            // Absent, empty, or a custom string: every copy is this node's.
            return Ok(out);
        };
        if let Some(rest) = p.strip_prefix("_shards:") {
            let (list, then) = match rest.split_once('|') {
                Some((l, t)) => (l, Some(t)),
                None => (rest, None),
            };
            out.only_shards = Some(
                list.split(',')
                    .filter(|s| !s.is_empty())
                    .map(shard_number)
                    .collect::<Result<_>>()?,
            );
            if let Some(t) = then {
                if !t.starts_with('_') {
                    return Err(no_preference(t.split(':').next().unwrap_or(t)));
                }
                out.copies = copies_of(t)?;
            }
            return Ok(out);
        }
        out.copies = copies_of(p)?;
        Ok(out)
    }

    /// The same preference with other routing values (an index's, after its aliases'
    /// search routing).
    pub fn with_routing(&self, routing: Option<Vec<String>>) -> ShardPreference {
        ShardPreference {
            routing,
            ..self.clone()
        }
    }

    /// The shard numbers of an index this read goes to, in order; an error when a chosen shard
    /// has no copy the preference allows (`index` names it, as OpenSearch's message does).
    pub fn shards(&self, index: &str, num_shards: u32, node: &NodeIdentity) -> Result<Vec<u32>> {
        let mut shards: Vec<u32> = match &self.routing {
            Some(values) => {
                let mut v: Vec<u32> = values
                    .iter()
                    .filter(|r| !r.is_empty())
                    .map(|r| shard_for(r, num_shards))
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            None => (0..num_shards).collect(),
        };
        if let Some(only) = &self.only_shards {
            shards.retain(|s| only.contains(&i64::from(*s)));
        }
        if let (Copies::OnlyNodes(criteria), Some(first)) = (&self.copies, shards.first()) {
            if !matches_node(criteria, node) {
                return Err(Error::illegal_argument(format!(
                    "no data nodes with criteria [{criteria}] found for shard: [{index}][{first}]"
                )));
            }
        }
        Ok(shards)
    }

    /// Whether chosen shards fail for want of an allowed copy: OpenSearch answers 503 "all
    /// shards failed" with no shard failure listed.
    pub fn no_copy_allowed(&self) -> bool {
        self.copies == Copies::ReplicasOnly
    }

    /// OpenSearch's answer when [`Self::no_copy_allowed`] and some shard was chosen, failing
    /// in the search's first `phase`.
    pub fn all_shards_failed(phase: &str) -> Error {
        crate::search::failures::phase_failure(phase, "all shards failed", &[])
    }
}

/// `DiscoveryNodes.resolveNodes` on the one node: ids, names, addresses and wildcards over them,
/// `_all`, `_local`, `_cluster_manager`/`_master`, and role filters (`data:true`).
fn matches_node(criteria: &str, node: &NodeIdentity) -> bool {
    criteria.split(',').any(|c| match c {
        "_all" | "_local" | "_cluster_manager" | "_master" => true,
        c => match c.split_once(':') {
            Some((role, v)) => {
                matches!(
                    role,
                    "data" | "ingest" | "master" | "cluster_manager" | "remote_cluster_client"
                ) && v == "true"
            }
            None => [node.id, node.name, node.host]
                .iter()
                .any(|x| glob_match(c, x)),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODE: NodeIdentity = NodeIdentity {
        id: "AbC",
        name: "oracle",
        host: "127.0.0.1",
    };

    fn shards(pref: &str, routing: Option<&str>, n: u32) -> Result<Vec<u32>> {
        ShardPreference::parse(Some(pref), routing)?.shards("i", n, &NODE)
    }

    #[test]
    fn shard_lists_and_routing_intersect() {
        assert_eq!(shards("_shards:0,2", None, 3).unwrap(), vec![0, 2]);
        assert_eq!(shards("_shards:5", None, 3).unwrap(), Vec::<u32>::new());
        assert_eq!(shards("_shards:-1", None, 3).unwrap(), Vec::<u32>::new());
        assert_eq!(shards("_shards:", None, 3).unwrap(), Vec::<u32>::new());
        assert_eq!(shards("_shards:1|_local", None, 3).unwrap(), vec![1]);
        let a = shard_for("a", 3);
        assert_eq!(shards("", Some("a"), 3).unwrap(), vec![a]);
        assert_eq!(shards("abc", Some(""), 3).unwrap(), Vec::<u32>::new());
        assert_eq!(
            shards(&format!("_shards:{a}"), Some("a"), 3).unwrap(),
            vec![a]
        );
    }

    #[test]
    fn refusals_are_worded_as_opensearch() {
        let reason = |p: &str| shards(p, None, 3).unwrap_err().reason;
        assert_eq!(reason("_bogus"), "no Preference for [_bogus]");
        assert_eq!(
            reason("_local|_shards:0"),
            "no Preference for [_local|_shards]"
        );
        assert_eq!(reason("_shards:1|abc"), "no Preference for [abc]");
        assert_eq!(reason("_shards:x"), "For input string: \"x\"");
        assert_eq!(
            reason("_only_nodes:nope"),
            "no data nodes with criteria [nope] found for shard: [i][0]"
        );
        assert!(shards("_only_nodes:orac*,x", None, 3).is_ok());
        assert!(shards("_only_nodes:127.0.0.1", None, 3).is_ok());
        assert!(ShardPreference::parse(Some("_replica"), None)
            .unwrap()
            .no_copy_allowed());
    }
}
