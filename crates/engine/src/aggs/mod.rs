//! Aggregations: a search body's `aggs` read into [`Aggs`] (`request.rs`), each shard's matches
//! counted into a [`ShardAggs`] over the fields' columns (`collect.rs`), and the shards' parts
//! merged into OpenSearch's response object (`reduce.rs`): `terms`, `date_histogram` and the
//! numeric metrics (`stats`, `min`, `max`, `avg`, `sum`, `value_count`), without sub-aggregations
//! yet.

mod collect;
mod reduce;
mod request;

pub use collect::{collect, FilterWeight, ShardAggs};
pub use reduce::reduce;
pub use request::{parse, Agg, AggKind, Aggs, Interval, Metric};
