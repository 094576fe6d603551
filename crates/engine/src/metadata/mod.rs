pub mod auto_create;
pub mod blocks;
pub mod cluster_settings;
pub mod index_graveyard;
pub mod index_name;
pub mod preference;
pub mod stored_scripts;
pub mod target;
