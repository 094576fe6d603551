//! The aggregations' profiles: each top-level aggregation timed on its own pass over the
//! shard's matches (Quarry collects every aggregation in one pass; profiling runs each alone so
//! each has its own time), named by the aggregator class OpenSearch would pick, its
//! sub-aggregations as children (each the time its own addition to its parent's pass took).

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
            Some(FieldType::Keyword) if agg.subs.is_empty() => {
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
        let alone = Agg {
            subs: Vec::new(),
            ..agg.clone()
        };
        let mut collect = Timer::default();
        collect.time(|| run(&Aggs(vec![agg.clone()])))?;
        let mut bare = Timer::default();
        bare.time(|| run(&Aggs(vec![alone.clone()])))?;
        let mut children = Vec::with_capacity(agg.subs.len());
        for sub in &agg.subs {
            let with_one = Agg {
                subs: vec![sub.clone()],
                ..alone.clone()
            };
            let mut t = Timer::default();
            t.time(|| run(&Aggs(vec![with_one])))?;
            children.push(AggProfile {
                type_name: class(sub, mapping),
                description: sub.name.clone(),
                collect: Timer {
                    nanos: t.nanos.saturating_sub(bare.nanos),
                    count: 1,
                },
                children: Vec::new(),
            });
        }
        out.push(AggProfile {
            type_name: class(agg, mapping),
            description: agg.name.clone(),
            collect,
            children,
        });
    }
    Ok(out)
}
