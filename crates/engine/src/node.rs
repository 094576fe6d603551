//! The node: its identity, the indices it holds on disk, the thread pools requests run on, and
//! the background work (scheduled refresh, async translog sync).

use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::{IndexMeta, IndexService};
use crate::index::mapping::Mapping;
use crate::index::settings::{Durability, IndexSettings};
use crate::metadata::index_name::validate_index_name;
use crate::metadata::target::{self, IndicesOptions};
use crate::util::worker_pool::WorkerPool;
use crate::util::{fs::atomic_write, ids};
use parking_lot::{Mutex, RwLock};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Debug, Clone, Deserialize)]
pub struct NodeConfig {
    pub data_path: PathBuf,
    pub node_name: String,
    pub cluster_name: String,
    /// `action.auto_create_index`: `true`, `false`, or OpenSearch's `+a*,-b*` list.
    #[serde(default = "default_auto_create")]
    pub auto_create_index: String,
    /// `network.host`, one of the names `_only_nodes` preferences match this node by.
    #[serde(default = "default_host")]
    pub host: String,
}

fn default_host() -> String {
    "127.0.0.1".into()
}

fn default_auto_create() -> String {
    "true".into()
}

#[derive(Serialize, Deserialize)]
struct NodeIdentity {
    node_id: String,
    cluster_uuid: String,
}

/// Whether a new index takes what the index templates give it: every creation does but a
/// resize's target, which copies its source's settings and mappings instead (as OpenSearch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Templates {
    Apply,
    Skip,
}

pub struct Node {
    pub config: NodeConfig,
    /// Shared with every search's shard targets (`_node` of a hit, `node` of a shard failure).
    pub node_id: Arc<str>,
    pub cluster_uuid: String,
    /// `PUT/GET /_cluster/settings`: the dynamic settings searches read their defaults from.
    pub cluster_settings: crate::metadata::cluster_settings::ClusterSettings,
    /// `_scripts/<id>`: the search templates stored by id.
    pub stored_scripts: crate::metadata::stored_scripts::StoredScripts,
    /// The running requests the tasks API can cancel.
    pub cancellations: crate::util::cancellation::Cancellations,
    /// `_index_template` and `_component_template`, applied to each new index.
    pub index_templates: crate::metadata::index_templates::IndexTemplates,
    /// A tombstone for each deleted index (the cluster state's `index-graveyard`).
    pub index_graveyard: crate::metadata::index_graveyard::IndexGraveyard,
    /// `version` and `state_uuid` of `GET /_cluster/state`.
    pub state_version: crate::api::cluster_state::StateVersion,
    indices: RwLock<BTreeMap<String, Arc<IndexService>>>,
    /// Serializes index creation and deletion (and alias changes across indices).
    admin_lock: Mutex<()>,
    write_pool: WorkerPool,
    search_pool: WorkerPool,
    stop: Arc<AtomicBool>,
    background: Mutex<Option<JoinHandle<()>>>,
}

/// How long an idle search thread polls for the next request before it parks. Waking a parked
/// thread costs 0.1–0.5 ms on an idle VM (the vCPU itself sleeps): measured over HTTP with one
/// connection, `_count` p50 was 0.37–0.65 ms with no polling, 0.11–0.12 ms polling 200 µs (and
/// no better at 1 ms), 0.23–0.36 ms polling 50 µs.
const SEARCH_POLL: Duration = Duration::from_micros(200);

impl Node {
    /// Opens the node on a thread of engine priority, so the index writers it starts (and their
    /// indexing and merge threads) never preempt the caller's request thread. The search
    /// threads start here, on the caller's thread: threads inherit their creator's priority,
    /// and an unprivileged process cannot raise a lowered thread back.
    pub fn open(config: NodeConfig) -> Result<Arc<Node>> {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        crate::util::priority::favour_current_thread();
        // On one core a polling worker only takes the core from the thread that would send it
        // work (and the binding's event loop polls only where these threads do: a `match` with
        // one connection, the node pinned to one core, answered in 2.1 ms p50 with both polling,
        // 0.37 ms with neither).
        let poll = if cores >= 2 {
            SEARCH_POLL
        } else {
            Duration::ZERO
        };
        let search_pool = WorkerPool::new(
            "search",
            cores,
            poll,
            crate::util::priority::favour_current_thread,
        )?;
        crate::util::priority::run_lowered(move || Node::open_here(config, search_pool, cores))
    }

    fn open_here(config: NodeConfig, search_pool: WorkerPool, cores: usize) -> Result<Arc<Node>> {
        let data = &config.data_path;
        std::fs::create_dir_all(data.join("indices"))?;
        let id_path = data.join("_state").join("node.json");
        let identity: NodeIdentity = match std::fs::read(&id_path) {
            Ok(b) => serde_json::from_slice(&b)
                .map_err(|e| Error::internal(format!("corrupt node metadata: {e}")))?,
            Err(_) => {
                let id = NodeIdentity {
                    node_id: ids::random_uuid(),
                    cluster_uuid: ids::random_uuid(),
                };
                atomic_write(&id_path, &serde_json::to_vec(&id).expect("json"))?;
                id
            }
        };
        let mut indices = BTreeMap::new();
        for entry in std::fs::read_dir(data.join("indices"))?.flatten() {
            let dir = entry.path();
            if dir.extension().is_some_and(|e| e == "deleting") {
                // A deletion interrupted by a crash: finish it.
                let _ = std::fs::remove_dir_all(&dir);
                continue;
            }
            if !dir.join("_state").join("index.json").exists() {
                continue;
            }
            let svc = IndexService::open(&dir)?;
            indices.insert(svc.name(), svc);
        }
        let cluster_settings = crate::metadata::cluster_settings::ClusterSettings::open(data)?;
        let stored_scripts = crate::metadata::stored_scripts::StoredScripts::open(data)?;
        let index_graveyard = crate::metadata::index_graveyard::IndexGraveyard::open(data)?;
        let index_templates = crate::metadata::index_templates::IndexTemplates::open(data)?;
        let node = Arc::new(Node {
            node_id: identity.node_id.into(),
            cluster_settings,
            stored_scripts,
            index_graveyard,
            index_templates,
            cancellations: Default::default(),
            state_version: Default::default(),
            cluster_uuid: identity.cluster_uuid,
            indices: RwLock::new(indices),
            admin_lock: Mutex::new(()),
            // Writes block on fsync; more threads than cores keep the disk busy.
            write_pool: WorkerPool::new(
                "write",
                cores.max(2) * 2,
                Duration::ZERO,
                crate::util::priority::lower_current_thread,
            )?,
            search_pool,
            stop: Arc::new(AtomicBool::new(false)),
            background: Mutex::new(None),
            config,
        });
        node.start_background();
        Ok(node)
    }

    fn start_background(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let stop = self.stop.clone();
        let handle = std::thread::Builder::new()
            .name("quarry-scheduler".into())
            .spawn(move || {
                while !stop.load(Ordering::Acquire) {
                    std::thread::sleep(Duration::from_millis(50));
                    let Some(node) = weak.upgrade() else { return };
                    node.scheduled_work();
                }
            })
            .expect("spawn scheduler");
        *self.background.lock() = Some(handle);
    }

    fn scheduled_work(&self) {
        let now = chrono::Utc::now().timestamp_millis();
        let mut last_commit_ms = i64::MIN;
        for svc in self.all_services() {
            let meta = svc.meta();
            for shard in svc.shards() {
                last_commit_ms = last_commit_ms.max(now - shard.millis_since_refresh(now));
                if let Some(interval) = meta.settings.refresh_interval {
                    if shard.is_dirty()
                        && shard.millis_since_refresh(now) >= interval.as_millis() as i64
                    {
                        if let Err(e) = shard.refresh() {
                            log::error!(
                                "[{}][{}] scheduled refresh failed: {e}",
                                meta.name,
                                shard.number
                            );
                        }
                    }
                }
                if meta.settings.durability == Durability::Async {
                    // The interval bounds what a crash can lose of acknowledged writes.
                    let interval = meta.settings.sync_interval.as_millis() as i64;
                    if shard.millis_since_sync(now) >= interval {
                        if let Err(e) = shard.sync() {
                            log::error!(
                                "[{}][{}] translog sync failed: {e}",
                                meta.name,
                                shard.number
                            );
                        }
                    }
                }
            }
        }
        // What the commits' indexing buffers freed goes back to the system once writes settle.
        crate::util::memory::release_after_commit(last_commit_ms, now);
        crate::api::scroll::free_expired();
    }

    /// What `_only_nodes` criteria match this node by.
    pub fn identity(&self) -> crate::metadata::preference::NodeIdentity<'_> {
        crate::metadata::preference::NodeIdentity {
            id: &self.node_id,
            name: &self.config.node_name,
            host: &self.config.host,
        }
    }

    pub fn write_pool(&self) -> &WorkerPool {
        &self.write_pool
    }

    pub fn search_pool(&self) -> &WorkerPool {
        &self.search_pool
    }

    pub fn all_services(&self) -> Vec<Arc<IndexService>> {
        self.indices.read().values().cloned().collect()
    }

    pub fn all_metas(&self) -> Vec<Arc<IndexMeta>> {
        self.indices.read().values().map(|s| s.meta()).collect()
    }

    pub fn service(&self, name: &str) -> Option<Arc<IndexService>> {
        self.indices.read().get(name).cloned()
    }

    pub fn resolve(
        &self,
        expression: &str,
        opts: IndicesOptions,
    ) -> Result<Vec<Arc<IndexService>>> {
        let metas = self.all_metas();
        let names = target::resolve(&metas, expression, opts)?;
        let map = self.indices.read();
        Ok(names.iter().filter_map(|n| map.get(n).cloned()).collect())
    }

    /// [`Node::resolve`] for reads, keeping the names the expression resolved to (they decide
    /// each index's alias filter and search routing).
    pub fn resolve_read(
        &self,
        expression: &str,
        opts: IndicesOptions,
    ) -> Result<(Vec<Arc<IndexService>>, target::Resolved)> {
        let metas = self.all_metas();
        let resolved = target::resolve_expressions(&metas, expression, opts)?;
        let map = self.indices.read();
        let services = resolved
            .indices
            .iter()
            .filter_map(|n| map.get(n).cloned())
            .collect();
        Ok((services, resolved))
    }

    /// The index a write to `name` goes to: the index itself, an alias's write index, or a new
    /// index when auto-creation allows it.
    pub fn write_target(&self, name: &str) -> Result<Arc<IndexService>> {
        self.write_target_inner(name, true)
    }

    /// Like [`Node::write_target`], for writes that never create an index (delete, update).
    pub fn existing_write_target(&self, name: &str) -> Result<Arc<IndexService>> {
        self.write_target_inner(name, false)
    }

    fn write_target_inner(&self, name: &str, create: bool) -> Result<Arc<IndexService>> {
        let target = self.find_write_target(name, create)?;
        target.check_open()?;
        Ok(target)
    }

    fn find_write_target(&self, name: &str, create: bool) -> Result<Arc<IndexService>> {
        if let Some(s) = self.service(name) {
            return Ok(s);
        }
        let services = self.all_services();
        let with_alias: Vec<_> = services
            .iter()
            .filter(|s| s.meta().aliases.contains_key(name))
            .cloned()
            .collect();
        if !with_alias.is_empty() {
            let explicit: Vec<_> = with_alias
                .iter()
                .filter(|s| s.meta().aliases[name].is_write_index == Some(true))
                .cloned()
                .collect();
            if let Some(s) = explicit.first() {
                return Ok(s.clone());
            }
            if with_alias.len() == 1
                && with_alias[0].meta().aliases[name].is_write_index != Some(false)
            {
                return Ok(with_alias[0].clone());
            }
            return Err(Error::illegal_argument(format!(
                "no write index is defined for alias [{name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index"
            )));
        }
        if !create {
            return Err(Error::index_expression_not_found(name));
        }
        crate::metadata::auto_create::check(&self.config.auto_create_index, name)?;
        match self.create_index(name, None, None, None, Templates::Apply) {
            Ok(s) => Ok(s),
            Err(e) if e.kind == ErrorKind::ResourceAlreadyExists => self
                .service(name)
                .ok_or_else(|| Error::index_not_found(name)),
            Err(e) => Err(e),
        }
    }

    pub fn create_index(
        &self,
        name: &str,
        settings: Option<&Value>,
        mappings: Option<&Value>,
        aliases: Option<BTreeMap<String, crate::index::index_service::AliasMeta>>,
        templates: Templates,
    ) -> Result<Arc<IndexService>> {
        validate_index_name(name)?;
        let _g = self.admin_lock.lock();
        if let Some(existing) = self.service(name) {
            let uuid = existing.meta().uuid.clone();
            return Err(Error::new(
                ErrorKind::ResourceAlreadyExists,
                format!("index [{name}/{uuid}] already exists"),
            )
            .with("index", name)
            .with("index_uuid", uuid));
        }
        if self
            .all_metas()
            .iter()
            .any(|m| m.aliases.contains_key(name))
        {
            return Err(Error::new(
                ErrorKind::InvalidIndexName,
                format!("Invalid index name [{name}], already exists as alias"),
            )
            .with("index", name)
            .with("index_uuid", "_na_"));
        }
        let uuid = ids::random_uuid();
        let now = chrono::Utc::now().timestamp_millis();
        if let Some(Value::Object(m)) = mappings {
            crate::index::mapping::reject_type_wrapper(m)?;
        }
        let (templated_settings, templated_mappings, aliases) = match templates {
            Templates::Apply => self.apply_templates(name, settings, mappings, aliases)?,
            Templates::Skip => (settings.cloned(), mappings.cloned(), aliases),
        };
        let (settings, mappings) = (templated_settings.as_ref(), templated_mappings.as_ref());
        let settings = IndexSettings::for_new_index(settings, name, &uuid, now)?;
        let mapping = match mappings {
            Some(m) => Mapping::parse(m).map_err(|e| {
                Error::new(
                    ErrorKind::MapperParsing,
                    format!("Failed to parse mapping [_doc]: {}", e.reason),
                )
                .caused_by(e)
            })?,
            None => Mapping::empty(),
        };
        let meta = IndexMeta {
            name: name.to_string(),
            uuid: uuid.clone(),
            settings,
            mapping,
            aliases: aliases.unwrap_or_default(),
            state: Default::default(),
        };
        let dir = self.config.data_path.join("indices").join(&uuid);
        let filters: Vec<(String, Value)> = meta
            .aliases
            .iter()
            .filter_map(|(n, a)| Some((n.clone(), a.filter.clone()?)))
            .collect();
        let svc = IndexService::create(&dir, meta)?;
        // Alias filters are checked against the new index's own mapping; one that does not
        // build leaves no index behind.
        for (alias, filter) in &filters {
            if let Err(e) = crate::search::alias_filter::validate(alias, filter, &svc) {
                svc.close()?;
                drop(svc);
                remove_index_dir(&dir)?;
                return Err(e);
            }
        }
        self.indices.write().insert(name.to_string(), svc.clone());
        Ok(svc)
    }

    /// What a new index takes from the index template that matches it (else from the legacy
    /// templates that do, by `order`): the template's
    /// settings under the request's, its mappings merged under the request's, its aliases
    /// beside the request's (the request's win on a name both give).
    #[allow(clippy::type_complexity)]
    fn apply_templates(
        &self,
        name: &str,
        settings: Option<&Value>,
        mappings: Option<&Value>,
        aliases: Option<BTreeMap<String, crate::index::index_service::AliasMeta>>,
    ) -> Result<(
        Option<Value>,
        Option<Value>,
        Option<BTreeMap<String, crate::index::index_service::AliasMeta>>,
    )> {
        let requested = match settings {
            Some(s) => crate::index::settings::flatten(s)?,
            None => BTreeMap::new(),
        };
        let hidden = requested.get("index.hidden").and_then(Value::as_str) == Some("true")
            || requested.get("index.hidden") == Some(&Value::Bool(true));
        let resolved = match self.index_templates.find(name, hidden) {
            Some((_, template)) => self.index_templates.compose(&template),
            None => match self.index_templates.compose_legacy(name) {
                Some(resolved) => resolved,
                None => return Ok((settings.cloned(), mappings.cloned(), aliases)),
            },
        };
        let mut flat = resolved.settings.clone();
        flat.extend(requested);
        let merged_settings = Value::Object(flat.into_iter().collect());
        let merged_mappings = crate::api::index_templates::composed_mapping(&resolved, mappings);
        let mut merged_aliases = BTreeMap::new();
        for (alias, def) in &resolved.aliases {
            merged_aliases.insert(
                alias.clone(),
                crate::api::indices::parse_alias_body(alias, Some(def))?,
            );
        }
        merged_aliases.extend(aliases.unwrap_or_default());
        Ok((Some(merged_settings), merged_mappings, Some(merged_aliases)))
    }

    /// Closes the index `name`: its shards committed and released, its scroll contexts freed,
    /// the closed state persisted. Returns whether it was open (closing a closed index is a
    /// no-op, as OpenSearch acknowledges it without listing it).
    pub fn close_index(&self, name: &str) -> Result<bool> {
        let _g = self.admin_lock.lock();
        let Some(svc) = self.service(name) else {
            return Err(Error::index_not_found(name));
        };
        if svc.meta().is_closed() {
            return Ok(false);
        }
        let closed = svc.into_closed()?;
        self.indices.write().insert(name.to_string(), closed);
        crate::api::scroll::free_of(&svc);
        Ok(true)
    }

    /// Opens the closed index `name` with every document, version and sequence number it had
    /// (each shard replays its translog past its last commit). Returns whether it was closed.
    pub fn open_index(&self, name: &str) -> Result<bool> {
        let _g = self.admin_lock.lock();
        let Some(svc) = self.service(name) else {
            return Err(Error::index_not_found(name));
        };
        if !svc.meta().is_closed() {
            return Ok(false);
        }
        let open = svc.into_open()?;
        self.indices.write().insert(name.to_string(), open);
        Ok(true)
    }

    pub fn delete_index(&self, name: &str) -> Result<()> {
        let _g = self.admin_lock.lock();
        let Some(svc) = self.indices.write().remove(name) else {
            return Err(Error::index_not_found(name));
        };
        svc.close()?;
        let dir = svc.dir().to_path_buf();
        let uuid = svc.meta().uuid.clone();
        drop(svc);
        remove_index_dir(&dir)?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.index_graveyard.bury(name, &uuid, now)
    }

    pub fn admin_lock(&self) -> parking_lot::MutexGuard<'_, ()> {
        self.admin_lock.lock()
    }

    /// Graceful shutdown: stop background work, commit every shard.
    pub fn close(&self) -> Result<()> {
        self.stop.store(true, Ordering::Release);
        if let Some(h) = self.background.lock().take() {
            let _ = h.join();
        }
        for svc in self.all_services() {
            svc.close()?;
        }
        Ok(())
    }
}

/// Renames first, so a crash mid-delete never leaves a half index that looks whole.
fn remove_index_dir(dir: &Path) -> Result<()> {
    let doomed = dir.with_extension("deleting");
    std::fs::rename(dir, &doomed)?;
    if let Some(parent) = dir.parent() {
        crate::util::fs::sync_dir(parent)?;
    }
    std::fs::remove_dir_all(&doomed)?;
    Ok(())
}
