//! Quarry's engine: OpenSearch's index, document and search semantics on tantivy. It knows
//! nothing of Node.js or HTTP: requests come in as an action name, parameters and body bytes,
//! and leave as a status and JSON bytes.

pub mod aggs;
pub mod analysis;
pub mod api;
pub mod dsl;
pub mod error;
pub mod index;
pub mod metadata;
pub mod node;
pub mod profile;
pub mod query;
pub mod search;
pub mod template;
pub mod util;

pub use api::{execute, Params, Response};
pub use error::{Error, ErrorKind, Result};
pub use node::{Node, NodeConfig};
