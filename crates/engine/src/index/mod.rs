pub mod date_format;
pub mod document_parser;
pub mod index_service;
pub mod mapping;
pub mod schema;
pub mod settings;
pub mod shard;
pub mod translog;
