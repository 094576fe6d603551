pub mod index_name;
pub mod target;
