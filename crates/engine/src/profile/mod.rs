//! `profile: true`: per shard, the query's tree with its timings (`query.rs`), the collectors
//! of the search as OpenSearch names them, and the aggregations' timings (`aggregation.rs`),
//! in OpenSearch's `profile.shards[]` shape. Quarry runs a shard's collection as one pass, so
//! each collector of a chain reports that pass's time.

pub mod aggregation;
pub mod query;

use serde_json::{json, Map, Value};
use std::time::Instant;

/// Nanoseconds spent in a step and how many times it ran.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timer {
    pub nanos: u64,
    pub count: u64,
}

impl Timer {
    pub fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.nanos += start.elapsed().as_nanos() as u64;
        self.count += 1;
        out
    }
}

/// A collector of the search, as OpenSearch's profiler names it.
#[derive(Debug, Clone)]
pub struct CollectorProfile {
    pub name: String,
    pub reason: &'static str,
    pub nanos: u64,
    pub children: Vec<CollectorProfile>,
}

impl CollectorProfile {
    fn leaf(name: impl Into<String>, reason: &'static str, nanos: u64) -> Self {
        CollectorProfile {
            name: name.into(),
            reason,
            nanos,
            children: Vec::new(),
        }
    }

    fn wrapping(name: &str, reason: &'static str, inner: CollectorProfile) -> Self {
        CollectorProfile {
            name: name.into(),
            reason,
            nanos: inner.nanos,
            children: vec![inner],
        }
    }

    fn to_json(&self, human: bool) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        m.insert("reason".into(), json!(self.reason));
        put_time(&mut m, self.nanos, human);
        if !self.children.is_empty() {
            m.insert(
                "children".into(),
                Value::Array(self.children.iter().map(|c| c.to_json(human)).collect()),
            );
        }
        Value::Object(m)
    }
}

/// What decides the collectors of a shard's search.
pub struct CollectorShape<'a> {
    pub hits: bool,
    pub field_sort: bool,
    pub post_filter: bool,
    pub min_score: bool,
    pub terminate_after: bool,
    /// The aggregations' names, in the request's order.
    pub aggs: &'a [String],
}

/// OpenSearch's collector chain for the shape: the top docs (or the count), under a post filter,
/// a minimum score and a count limit, beside the aggregations' collector.
pub fn collectors(shape: &CollectorShape, collect_nanos: u64, aggs_nanos: u64) -> CollectorProfile {
    let mut c = if !shape.hits {
        CollectorProfile::leaf("EarlyTerminatingCollector", "search_count", collect_nanos)
    } else if shape.field_sort {
        CollectorProfile::leaf("SimpleFieldCollector", "search_top_hits", collect_nanos)
    } else {
        CollectorProfile::leaf(
            "SimpleTopScoreDocCollector",
            "search_top_hits",
            collect_nanos,
        )
    };
    if shape.post_filter {
        c = CollectorProfile::wrapping("FilteredCollector", "search_post_filter", c);
    }
    if shape.min_score {
        c = CollectorProfile::wrapping("MinimumScoreCollector", "search_min_score", c);
    }
    if shape.terminate_after {
        c = CollectorProfile::wrapping("MultiCollector", "search_terminate_after_count", c);
    }
    if shape.aggs.is_empty() {
        return c;
    }
    CollectorProfile {
        name: "MultiCollector".into(),
        reason: "search_multi",
        nanos: c.nanos + aggs_nanos,
        children: vec![
            c,
            CollectorProfile::leaf(aggs_collector(shape.aggs), "aggregation", aggs_nanos),
        ],
    }
}

/// How OpenSearch's profiler names the collector of some aggregations.
fn aggs_collector(names: &[String]) -> String {
    match names {
        [one] => format!("ProfilingAggregator: [{one}]"),
        many => format!("MultiBucketCollector: [[{}]]", many.join(", ")),
    }
}

/// The collector of the `global` aggregations' own search (`names`, in the request's order).
pub fn global_collector(names: &[String], nanos: u64) -> CollectorProfile {
    CollectorProfile::leaf(aggs_collector(names), "aggregation_global", nanos)
}

/// The search a shard runs for its `global` aggregations: a match-all of its own.
#[derive(Debug, Clone)]
pub struct GlobalSearch {
    pub queries: Vec<query::QueryProfile>,
    pub rewrite_nanos: u64,
    pub collector: CollectorProfile,
}

/// One shard's profile.
#[derive(Debug, Clone)]
pub struct ShardProfile {
    /// `[<node>][<index>][<shard>]`.
    pub id: String,
    /// The post filter's profile (if any), then the query's.
    pub queries: Vec<query::QueryProfile>,
    pub rewrite_nanos: u64,
    pub collector: CollectorProfile,
    /// The second search, where the request has `global` aggregations.
    pub global: Option<GlobalSearch>,
    pub aggs: Vec<aggregation::AggProfile>,
}

/// `time_in_nanos`, after its text when `human` asks (`XContentBuilder.humanReadableField`).
pub fn put_time(m: &mut Map<String, Value>, nanos: u64, human: bool) {
    if human {
        m.insert("time".into(), json!(human_time(nanos)));
    }
    m.insert("time_in_nanos".into(), json!(nanos));
}

/// OpenSearch's `TimeValue.toString` of a duration in nanoseconds: the largest unit it reaches,
/// one fractional digit cut (not rounded), none when that digit is 0.
pub fn human_time(nanos: u64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let units: [(u64, &str); 6] = [
        (86_400_000_000_000, "d"),
        (3_600_000_000_000, "h"),
        (60_000_000_000, "m"),
        (1_000_000_000, "s"),
        (1_000_000, "ms"),
        (1_000, "micros"),
    ];
    let (per, suffix) = units
        .iter()
        .find(|(per, _)| nanos >= *per)
        .copied()
        .unwrap_or((1, "nanos"));
    let whole = nanos / per;
    let tenth = (nanos % per) * 10 / per;
    if tenth == 0 {
        format!("{whole}{suffix}")
    } else {
        format!("{whole}.{tenth}{suffix}")
    }
}

/// One element of a shard's `searches`.
fn search_json(
    queries: &[query::QueryProfile],
    rewrite_nanos: u64,
    collector: &CollectorProfile,
    human: bool,
) -> Value {
    json!({
        "query": queries.iter().map(|q| q.to_json(human)).collect::<Vec<_>>(),
        "rewrite_time": rewrite_nanos,
        "collector": [collector.to_json(human)],
    })
}

impl ShardProfile {
    pub fn to_json(&self, human: bool) -> Value {
        let mut searches = vec![search_json(
            &self.queries,
            self.rewrite_nanos,
            &self.collector,
            human,
        )];
        if let Some(g) = &self.global {
            searches.push(search_json(
                &g.queries,
                g.rewrite_nanos,
                &g.collector,
                human,
            ));
        }
        json!({
            "id": self.id,
            "inbound_network_time_in_millis": 0,
            "outbound_network_time_in_millis": 0,
            "searches": searches,
            "aggregations": self.aggs.iter().map(|a| a.to_json(human)).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collectors_nest_as_opensearch_names_them() {
        let names = ["a".to_string(), "b".to_string()];
        let shape = CollectorShape {
            hits: true,
            field_sort: false,
            post_filter: true,
            min_score: true,
            terminate_after: false,
            aggs: &names,
        };
        let c = collectors(&shape, 10, 5);
        assert_eq!(
            (c.name.as_str(), c.reason, c.nanos),
            ("MultiCollector", "search_multi", 15)
        );
        assert_eq!(c.children[0].name, "MinimumScoreCollector");
        assert_eq!(c.children[0].children[0].name, "FilteredCollector");
        assert_eq!(
            c.children[0].children[0].children[0].name,
            "SimpleTopScoreDocCollector"
        );
        assert_eq!(c.children[1].name, "MultiBucketCollector: [[a, b]]");
        let count = CollectorShape {
            hits: false,
            field_sort: false,
            post_filter: false,
            min_score: false,
            terminate_after: false,
            aggs: &[],
        };
        assert_eq!(collectors(&count, 3, 0).reason, "search_count");
    }

    #[test]
    fn global_aggregations_add_a_search_of_their_own() {
        let one = global_collector(&["all".to_string()], 7);
        assert_eq!(
            (one.name.as_str(), one.reason, one.nanos),
            ("ProfilingAggregator: [all]", "aggregation_global", 7)
        );
        let two = global_collector(&["a".to_string(), "b".to_string()], 0);
        assert_eq!(two.name, "MultiBucketCollector: [[a, b]]");
        let shard = |global: Option<GlobalSearch>| ShardProfile {
            id: "[n][i][0]".into(),
            queries: Vec::new(),
            rewrite_nanos: 1,
            collector: CollectorProfile::leaf("EarlyTerminatingCollector", "search_count", 2),
            global,
            aggs: Vec::new(),
        };
        let v = shard(Some(GlobalSearch {
            queries: Vec::new(),
            rewrite_nanos: 3,
            collector: one,
        }))
        .to_json(false);
        let searches = v["searches"].as_array().unwrap();
        assert_eq!(searches.len(), 2);
        assert_eq!(searches[1]["rewrite_time"], 3);
        assert_eq!(searches[1]["collector"][0]["reason"], "aggregation_global");
        assert_eq!(
            shard(None).to_json(false)["searches"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }

    #[test]
    fn human_times_as_time_value_prints_them() {
        for (nanos, text) in [
            (17_561_133, "17.5ms"),
            (252_896, "252.8micros"),
            (91_606, "91.6micros"),
            (2_000_000, "2ms"),
            (999, "999nanos"),
            (0, "0s"),
            (1_500_000_000, "1.5s"),
        ] {
            assert_eq!(human_time(nanos), text);
        }
    }
}
