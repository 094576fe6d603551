pub mod auto_create;
pub mod index_name;
pub mod preference;
pub mod target;
