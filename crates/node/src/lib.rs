//! The napi-rs binding: decodes arguments, runs the engine on its own thread pools (never on
//! the JS thread or libuv's pool), and hands back `{ status, body }` with the body as a Buffer.
//! Engine errors become JS errors whose message is the OpenSearch cause as JSON.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use quarry_engine::{Node, NodeConfig, Params};
use std::sync::Arc;

#[napi(object)]
pub struct EngineResponse {
    pub status: u32,
    pub body: Buffer,
    /// `Location` of a created document.
    pub location: Option<String>,
}

#[napi]
pub struct Engine {
    node: Arc<Node>,
}

fn engine_error(e: &quarry_engine::Error) -> Error {
    Error::new(Status::GenericFailure, e.to_wire().to_string())
}

#[napi]
impl Engine {
    /// Opens the node's data directory. `config` is JSON: `{data_path, node_name, cluster_name,
    /// auto_create_index}`.
    #[napi(factory)]
    pub fn open(config: Buffer) -> Result<Engine> {
        let cfg: NodeConfig = serde_json_from(&config)?;
        let node = Node::open(cfg).map_err(|e| engine_error(&e))?;
        Ok(Engine { node })
    }

    #[napi(getter)]
    pub fn node_id(&self) -> String {
        self.node.node_id.clone()
    }

    #[napi(getter)]
    pub fn cluster_uuid(&self) -> String {
        self.node.cluster_uuid.clone()
    }

    /// Runs one action. `params` is a JSON object of path and query parameters; `body` the raw
    /// request body. Resolves on the engine's pool.
    #[napi(ts_return_type = "Promise<EngineResponse>")]
    pub fn execute<'env>(
        &self,
        env: &'env Env,
        action: String,
        params: Buffer,
        body: Option<Buffer>,
    ) -> Result<Object<'env>> {
        let params = Params::from_json(&params).map_err(|e| engine_error(&e))?;
        // The body Buffer itself goes to the pool (no copy of multi-megabyte bulks on the JS
        // thread): request bodies are never written to by the HTTP layer once read, and napi-rs
        // releases the reference on the JS thread when the job drops it.
        let (deferred, promise) = env.create_deferred::<EngineResponse, _>()?;
        let node = self.node.clone();
        let is_write = quarry_engine::api::is_write(&action);
        let job = move || {
            let result = quarry_engine::execute(&node, &action, &params, body.as_deref());
            match result {
                Ok(r) => deferred.resolve(move |_| {
                    Ok(EngineResponse {
                        status: r.status as u32,
                        body: r.body.into(),
                        location: r.location,
                    })
                }),
                Err(e) => deferred.reject(engine_error(&e)),
            }
        };
        if is_write {
            self.node.write_pool().spawn(job);
        } else {
            self.node.search_pool().spawn(job);
        }
        Ok(promise)
    }

    /// Commits every shard and stops background work (graceful shutdown).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred::<(), _>()?;
        let node = self.node.clone();
        std::thread::spawn(move || match node.close() {
            Ok(()) => deferred.resolve(|_| Ok(())),
            Err(e) => deferred.reject(engine_error(&e)),
        });
        Ok(promise)
    }
}

fn serde_json_from(bytes: &[u8]) -> Result<NodeConfig> {
    quarry_engine::api::parse_node_config(bytes).map_err(|e| engine_error(&e))
}
