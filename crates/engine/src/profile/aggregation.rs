//! The aggregations' profiles: each top-level aggregation timed on its own pass over the
//! shard's matches (Quarry collects every aggregation in one pass; profiling runs each alone so
//! each has its own time), named by the aggregator class OpenSearch would pick, its
//! sub-aggregations at every depth as children (each the time its own addition to its parent's
//! pass took).

use super::Timer;
use crate::aggs::{Agg, AggKind, Aggs, Metric};
use crate::error::Result;
use crate::index::mapping::{FieldType, Mapping};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone)]
pub struct AggProfile {
    pub type_name: &'static str,
    pub description: String,
    pub collect: Timer,
    pub children: Vec<AggProfile>,
}

impl AggProfile {
    pub fn to_json(&self, human: bool) -> Value {
        let mut breakdown = Map::new();
        for (name, t) in [
            ("initialize", Timer::default()),
            ("build_leaf_collector", Timer::default()),
            ("collect", self.collect),
            ("post_collection", Timer::default()),
            ("build_aggregation", Timer::default()),
            ("reduce", Timer::default()),
        ] {
            breakdown.insert(name.into(), json!(t.nanos));
            breakdown.insert(format!("{name}_count"), json!(t.count));
        }
        let mut m = Map::new();
        m.insert("type".into(), json!(self.type_name));
        m.insert("description".into(), json!(self.description));
        super::put_time(&mut m, self.collect.nanos, human);
        m.insert("breakdown".into(), Value::Object(breakdown));
        if !self.children.is_empty() {
            m.insert(
                "children".into(),
                Value::Array(self.children.iter().map(|c| c.to_json(human)).collect()),
            );
        }
        Value::Object(m)
    }
}

/// The aggregator class OpenSearch runs an aggregation with.
fn class(agg: &Agg, mapping: &Mapping) -> &'static str {
    match &agg.kind {
        AggKind::Terms { field, .. } => match mapping.field(field).map(|f| f.ty) {
            // OpenSearch's collector without sub-aggregations counts straight into ordinals.
            Some(FieldType::Keyword) if agg.subs.is_empty() && agg.nested.is_empty() => {
                "GlobalOrdinalsStringTermsAggregator.LowCardinality"
            }
            Some(FieldType::Keyword) => "GlobalOrdinalsStringTermsAggregator",
            _ => "NumericTermsAggregator",
        },
        AggKind::DateHistogram { .. } => "DateHistogramAggregator",
        AggKind::Histogram { .. } => "NumericHistogramAggregator",
        AggKind::Range { .. } => "RangeAggregator",
        AggKind::Cardinality { .. } => "CardinalityAggregator",
        AggKind::Missing { .. } => "MissingAggregator",
        AggKind::Filter { .. } => "FilterAggregator",
        AggKind::Filters { .. } => "FiltersAggregator",
        AggKind::Global => "GlobalAggregator",
        AggKind::Metric { metric, .. } => match metric {
            Metric::Stats => "StatsAggregator",
            Metric::Min => "MinAggregator",
            Metric::Max => "MaxAggregator",
            Metric::Avg => "AvgAggregator",
            Metric::Sum => "SumAggregator",
            Metric::ValueCount => "ValueCountAggregator",
            Metric::ExtendedStats(_) => "ExtendedStatsAggregator",
        },
    }
}

/// Profiles each aggregation: `run` collects the given aggregations over the shard's matches.
pub fn profile(
    aggs: &Aggs,
    mapping: &Mapping,
    run: &mut dyn FnMut(&Aggs) -> Result<()>,
) -> Result<Vec<AggProfile>> {
    let mut out = Vec::with_capacity(aggs.0.len());
    for agg in &aggs.0 {
        let mut collect = Timer::default();
        collect.time(|| run(&Aggs(vec![agg.clone()])))?;
        out.push(AggProfile {
            type_name: class(agg, mapping),
            description: agg.name.clone(),
            collect,
            children: children(agg, mapping, &|top| top, run)?,
        });
    }
    Ok(out)
}

/// The profiles of `parent`'s sub-aggregations, in the order written, each timed as what adding
/// it alone to its bare parent costs the top-level aggregation's pass. `place` turns a version of
/// `parent` into the top-level aggregation holding it (its ancestors keep only the way down).
fn children(
    parent: &Agg,
    mapping: &Mapping,
    place: &dyn Fn(Agg) -> Agg,
    run: &mut dyn FnMut(&Aggs) -> Result<()>,
) -> Result<Vec<AggProfile>> {
    let mut subs: Vec<&Agg> = parent.subs.iter().chain(&parent.nested).collect();
    if subs.is_empty() {
        return Ok(Vec::new());
    }
    subs.sort_by_key(|a| a.position);
    let bare = Agg {
        subs: Vec::new(),
        nested: Vec::new(),
        ..parent.clone()
    };
    let with_one = |sub: Agg| {
        let mut a = bare.clone();
        // Split as the request's parser splits them.
        if matches!(sub.kind, AggKind::Metric { .. }) {
            a.subs.push(sub);
        } else {
            a.nested.push(sub);
        }
        a
    };
    let mut alone = Timer::default();
    alone.time(|| run(&Aggs(vec![place(bare.clone())])))?;
    let mut out = Vec::with_capacity(subs.len());
    for sub in subs {
        let mut t = Timer::default();
        t.time(|| run(&Aggs(vec![place(with_one(sub.clone()))])))?;
        let place_sub = |a: Agg| place(with_one(a));
        out.push(AggProfile {
            type_name: class(sub, mapping),
            description: sub.name.clone(),
            collect: Timer {
                nanos: t.nanos.saturating_sub(alone.nanos),
                count: 1,
            },
            children: children(sub, mapping, &place_sub, run)?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_at_every_depth_in_the_order_written() {
        let aggs = crate::aggs::parse(
            &crate::dsl::json::parse(
                br#"{"all":{"global":{},"aggs":{"t":{"terms":{"field":"k"},"aggs":{"x":{"avg":{"field":"n"}},"h":{"histogram":{"field":"n","interval":5}}}},"s":{"sum":{"field":"n"}}}}}"#,
            )
            .unwrap(),
        )
        .unwrap();
        let mut runs = Vec::new();
        let out = profile(&aggs, &Mapping::empty(), &mut |a| {
            runs.push(a.0.len());
            Ok(())
        })
        .unwrap();
        let all = &out[0];
        assert_eq!(
            (all.type_name, all.description.as_str()),
            ("GlobalAggregator", "all")
        );
        let names: Vec<&str> = all
            .children
            .iter()
            .map(|c| c.description.as_str())
            .collect();
        assert_eq!(names, ["t", "s"]);
        let t = &all.children[0];
        let names: Vec<(&str, &str)> = t
            .children
            .iter()
            .map(|c| (c.type_name, c.description.as_str()))
            .collect();
        assert_eq!(
            names,
            [("AvgAggregator", "x"), ("NumericHistogramAggregator", "h")]
        );
        // Each run is one top-level aggregation: the whole, then a bare parent and one run per
        // child, at each level.
        assert_eq!(runs.len(), 1 + (1 + 2) + (1 + 2));
        assert!(runs.iter().all(|n| *n == 1));
    }
}
