//! The napi-rs binding: decodes arguments, runs the engine on its own thread pools (never on
//! the JS thread or libuv's pool), and hands back `{ status, body }` with the body as a Buffer.
//! Engine errors become JS errors whose message is the OpenSearch cause as JSON.

mod body;
mod completion;
mod spent;

use body::LentBody;
use completion::{Completer, Outcome};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use quarry_engine::{Node, NodeConfig, Params};
use std::sync::Arc;

/// The `code` of engine errors, by which the TS layer tells them from its own.
pub(crate) const ENGINE_ERROR_CODE: &str = "QuarryEngineError";

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
    completer: Completer,
}

fn engine_error(e: &quarry_engine::Error) -> Error {
    Error::new(Status::GenericFailure, e.to_wire().to_string())
}

#[napi]
impl Engine {
    /// Opens the node's data directory. `config` is JSON: `{data_path, node_name, cluster_name,
    /// auto_create_index}`.
    #[napi(factory)]
    pub fn open(env: &Env, config: Buffer) -> Result<Engine> {
        let cfg: NodeConfig = serde_json_from(&config)?;
        let node = Node::open(cfg).map_err(|e| engine_error(&e))?;
        let completer = Completer::new(env, node.search_pool().polls())?;
        Ok(Engine { node, completer })
    }

    #[napi(getter)]
    pub fn node_id(&self) -> String {
        self.node.node_id.to_string()
    }

    #[napi(getter)]
    pub fn cluster_uuid(&self) -> String {
        self.node.cluster_uuid.clone()
    }

    /// Response bodies the caller has written and will not read again: push them here and the
    /// next settle frees them (`spent.rs`). The same array every time.
    #[napi(getter, ts_return_type = "Buffer[]")]
    pub fn spent<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        self.completer.spent(env)
    }

    /// Runs one action. `params` is a JSON object of path and query parameters; `body` the raw
    /// request body, or the chunks it arrived in (joined here, on the pool; the call consumes
    /// them, see `body.rs`). The job goes straight to the engine's pool (one hand-off), and its
    /// promise settles from there with one call into the JS thread.
    /// `task`, when given, is the request's task id: `cancel(task)` then stops it (a search
    /// before its next shard).
    #[napi(
        ts_args_type = "action: string, params: string, body?: Buffer | Buffer[] | null, task?: number",
        ts_return_type = "Promise<EngineResponse>"
    )]
    pub fn execute<'env>(
        &self,
        env: &'env Env,
        action: String,
        params: String,
        body: Option<Unknown<'env>>,
        task: Option<f64>,
    ) -> Result<Object<'env>> {
        let body = match body {
            Some(b) if !matches!(b.get_type()?, ValueType::Null | ValueType::Undefined) => {
                Some(LentBody::hold(env, b)?)
            }
            _ => None,
        };
        let is_write = quarry_engine::api::is_write(&action);
        let (pending, promise) = self.completer.begin(env, !is_write)?;
        let node = self.node.clone();
        let job = move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let params = Params::from_json(params.as_bytes())?;
                let bytes = body.as_ref().map(LentBody::bytes);
                let run = || quarry_engine::execute(&node, &action, &params, bytes.as_deref());
                match task {
                    Some(id) => node.cancellations.run(id as u64, run),
                    None => run(),
                }
            }))
            .unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_string());
                Err(quarry_engine::Error::internal(what))
            });
            pending.settle(Outcome { result, keep: body });
        };
        if is_write {
            self.node.write_pool().spawn(job);
        } else {
            self.node.search_pool().spawn(job);
        }
        Ok(promise)
    }

    /// Cancels the running request of a task (given to `execute`); one not started yet stops
    /// before its first shard.
    #[napi]
    pub fn cancel(&self, task: f64) {
        self.node.cancellations.cancel(task as u64);
    }

    /// Drops a cancel that came after its request's job had finished.
    #[napi]
    pub fn forget_cancel(&self, task: f64) {
        self.node.cancellations.forget(task as u64);
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
