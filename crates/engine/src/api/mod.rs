//! The engine's request surface: one entry point taking an action name, its parameters and the
//! raw body, returning a status and the final JSON bytes. One module per API area.

mod aliases;
mod analyze;
mod bulk;
mod bulk_by_scroll;
mod cat;
mod cluster;
pub(crate) mod cluster_state;
mod document;
pub(crate) mod explain;
mod forcemerge;
pub(crate) mod index_templates;
pub(crate) mod indices;
pub(crate) mod json_writer;
pub(crate) mod legacy_templates;
mod msearch;
mod open_close;
mod param_check;
mod params;
mod recovery;
mod scripts;
pub(crate) mod scroll;
mod search;
mod search_template;
mod segments;
pub(crate) mod source_filter;
mod strict_json;
mod terms_lookup;
mod validate;

pub use params::Params;

use crate::error::{Error, Result};
use crate::node::Node;

pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
    /// The `Location` header of a 201 (the new document's path).
    pub location: Option<String>,
}

impl Response {
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::bytes(status, serde_json::to_vec(value).expect("json serializes"))
    }
    pub fn ok(value: &serde_json::Value) -> Response {
        Response::json(200, value)
    }
    pub fn acknowledged() -> Response {
        Response::bytes(200, br#"{"acknowledged":true}"#.to_vec())
    }
    pub fn bytes(status: u16, body: Vec<u8>) -> Response {
        Response {
            status,
            body,
            location: None,
        }
    }
    pub fn empty(status: u16) -> Response {
        Response::bytes(status, Vec::new())
    }
}

pub fn parse_node_config(bytes: &[u8]) -> Result<crate::node::NodeConfig> {
    serde_json::from_slice(bytes)
        .map_err(|e| Error::illegal_argument(format!("invalid node configuration: {e}")))
}

/// Whether an action runs on the write pool (it may block on fsync) or the search pool.
pub fn is_write(action: &str) -> bool {
    action.starts_with("indices:data/write")
        || action.starts_with("indices:admin")
        || action == "cluster:admin/settings/update"
        || action == "cluster:admin/script/put"
        || action == "cluster:admin/script/delete"
}

pub fn execute(
    node: &Node,
    action: &str,
    params: &Params,
    body: Option<&[u8]>,
) -> Result<Response> {
    param_check::check(params, action)?;
    if let Some(help) = cat::help(action, params) {
        return help;
    }
    match action {
        "cluster:monitor/health" => cluster::health(node, params),
        "cluster:monitor/state/metadata" => cluster::node_info(node),
        "cluster:monitor/state" => cluster_state::state(node, params),
        "cluster:monitor/settings" => cluster::get_settings(node, params),
        "cluster:admin/settings/update" => cluster::put_settings(node, params, body),
        "indices:admin/create" => indices::create(node, params, body),
        "indices:admin/index_template/put" => {
            index_templates::put_index_template(node, params, body)
        }
        "indices:admin/index_template/get" => index_templates::get_index_templates(node, params),
        "indices:admin/index_template/exists" => {
            index_templates::index_template_exists(node, params)
        }
        "indices:admin/index_template/delete" => {
            index_templates::delete_index_template(node, params)
        }
        "indices:admin/index_template/simulate_index" => {
            index_templates::simulate_index(node, params)
        }
        "indices:admin/index_template/simulate" => {
            index_templates::simulate_template(node, params, body)
        }
        "indices:admin/template/put" => legacy_templates::put(node, params, body),
        "indices:admin/template/get" => legacy_templates::get(node, params),
        "indices:admin/template/exists" => legacy_templates::exists(node, params),
        "indices:admin/template/delete" => legacy_templates::delete(node, params),
        "cluster:admin/component_template/put" => {
            index_templates::put_component_template(node, params, body)
        }
        "cluster:admin/component_template/get" => {
            index_templates::get_component_templates(node, params)
        }
        "cluster:admin/component_template/exists" => {
            index_templates::component_template_exists(node, params)
        }
        "cluster:admin/component_template/delete" => {
            index_templates::delete_component_template(node, params)
        }
        "indices:admin/delete" => indices::delete(node, params),
        "indices:admin/get" => indices::get(node, params),
        "indices:admin/exists" => indices::exists(node, params),
        "indices:admin/mappings/get" => indices::get_mapping(node, params),
        "indices:admin/mappings/fields/get" => indices::get_field_mapping(node, params),
        "indices:admin/mapping/put" => indices::put_mapping(node, params, body),
        "indices:monitor/settings/get" => indices::get_settings(node, params),
        "indices:admin/settings/update" => indices::put_settings(node, params, body),
        "indices:admin/block/add" => indices::add_block(node, params),
        "indices:admin/close" => open_close::close(node, params),
        "indices:admin/open" => open_close::open(node, params),
        "indices:admin/refresh" => indices::refresh(node, params),
        "indices:admin/flush" => indices::flush(node, params),
        "indices:admin/forcemerge" => forcemerge::force_merge(node, params),
        "indices:monitor/segments" => segments::segments(node, params),
        "indices:data/read/count" => search::count(node, params, body),
        "indices:data/read/search" => search::search(node, params, body),
        "indices:data/read/msearch" => msearch::msearch(node, params, body),
        "indices:data/read/search/template" => search_template::search_template(node, params, body),
        "indices:data/read/search/template/render" => {
            search_template::render_template(node, params, body)
        }
        "indices:data/read/msearch/template" => {
            search_template::msearch_template(node, params, body)
        }
        "cluster:admin/script/put" => scripts::put(node, params, body),
        "cluster:admin/script/get" => scripts::get(node, params),
        "cluster:admin/script/delete" => scripts::delete(node, params),
        "indices:data/read/scroll" => scroll::scroll(node, params, body),
        "indices:data/read/scroll/clear" => scroll::clear(node, params, body),
        "indices:data/read/explain" => explain::explain(node, params, body),
        "indices:data/read/validate/query" => validate::validate(node, params, body),
        "indices:monitor/stats" => indices::stats(node, params),
        "indices:admin/aliases" => aliases::update(node, body),
        "indices:admin/alias/put" => aliases::put(node, params, body),
        "indices:admin/alias/delete" => aliases::delete(node, params),
        "indices:admin/aliases/get" => aliases::get(node, params),
        "indices:admin/aliases/exists" => aliases::exists(node, params),
        "cat:indices" => cat::indices(node, params),
        "cat:aliases" => cat::aliases(node, params),
        "cat:templates" => cat::templates(node, params),
        "cat:count" => cat::count(node, params),
        "cat:health" => cat::health(node, params),
        "cat:segments" => cat::segments(node, params),
        "cat:shards" => cat::shards(node, params),
        "cat:recovery" => cat::recovery(node, params),
        "indices:monitor/recovery" => recovery::recovery(node, params),
        "cat:nodes" => cat::nodes(node, params, body),
        "cat:allocation" => cat::allocation(node, params, body),
        "cat:cluster_manager" => cat::cluster_manager(node, params, body),
        "cat:nodeattrs" => cat::nodeattrs(node, params, body),
        "cat:plugins" => cat::plugins(node, params, body),
        "cat:tasks" => cat::tasks(node, params, body),
        "cat:thread_pool" => cat::thread_pool(node, params, body),
        "cat:pending_tasks" => cat::empty(params, cat::PENDING_TASKS),
        "cat:fielddata" => cat::empty(params, cat::FIELDDATA),
        "cat:repositories" => cat::empty(params, cat::REPOSITORIES),
        "indices:data/write/index" => document::index(node, params, body),
        "indices:data/write/delete" => document::delete(node, params),
        "indices:data/write/update" => document::update(node, params, body),
        "indices:data/write/bulk" => bulk::bulk(node, params, body),
        "indices:data/write/bulk_by_scroll" => bulk_by_scroll::batch(node, params, body),
        "indices:data/read/get" => document::get(node, params),
        "indices:data/read/exists" => document::exists(node, params),
        "indices:data/read/source" => document::get_source(node, params),
        "indices:data/read/mget" => document::mget(node, params, body),
        "indices:admin/analyze" => analyze::analyze(node, params, body),
        other => Err(Error::illegal_argument(format!(
            "unknown engine action [{other}]"
        ))),
    }
}
