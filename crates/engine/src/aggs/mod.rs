//! Aggregations: a search body's `aggs` read into [`Aggs`] (`request.rs`), each shard's matches
//! counted into a [`ShardAggs`] over the fields' columns (`collect.rs`), and the shards' parts
//! merged into OpenSearch's response object (`reduce.rs`). Metrics under a bucket aggregation
//! are counted in the same pass; other nested aggregations run over each bucket's own docs,
//! which `bucket_filter.rs` describes.

pub(crate) mod bucket_filter;
mod collect;
mod reduce;
mod request;

pub use collect::{collect, FilterWeight, ShardAggs};
pub use reduce::reduce;
pub use request::{check_global_placement, parse, Agg, AggKind, Aggs, Interval, Metric};
