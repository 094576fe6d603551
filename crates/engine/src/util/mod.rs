pub mod cancellation;
pub mod fs;
pub mod ids;
pub mod jackson_pretty;
pub mod java_hash;
pub mod json_cursor;
pub mod json_syntax;
pub mod memory;
pub mod murmur3;
pub mod priority;
pub mod segment_cache;
#[cfg(test)]
pub mod test_support;
pub mod time_zone;
pub mod units;
pub mod worker_pool;
