pub mod fs;
pub mod ids;
pub mod json_syntax;
pub mod memory;
pub mod murmur3;
pub mod priority;
pub mod time_zone;
pub mod units;
