//! One index: its metadata (settings, mapping, aliases, persisted atomically) and its shards.
//! Writes route to shards by murmur3 of `_routing` or `_id`, as OpenSearch does.

use crate::analysis::Registry;
use crate::error::{Error, ErrorKind, Result};
use crate::index::doc_builder::DocBuilder;
use crate::index::document_parser::parse_document;
use crate::index::mapping::Mapping;
use crate::index::schema;
use crate::index::settings::IndexSettings;
use crate::index::shard::{OpResult, Preconditions, Shard, ShardOp, TokenizerSetup};
use crate::index::source_tree::Json;
use crate::util::murmur3::shard_for;
use parking_lot::{Mutex, RwLock};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tantivy::TantivyDocument;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct AliasMeta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_routing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_routing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_write_index: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_hidden: Option<bool>,
}

/// Whether an index's shards are open (OpenSearch's `IndexMetadata.State`). A closed index keeps
/// its metadata and files, but holds no tantivy reader or writer and serves no data operation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexState {
    #[default]
    Open,
    Close,
}

#[derive(Debug, Clone)]
pub struct IndexMeta {
    pub name: String,
    pub uuid: String,
    pub settings: IndexSettings,
    pub mapping: Mapping,
    pub aliases: BTreeMap<String, AliasMeta>,
    pub state: IndexState,
}

impl IndexMeta {
    pub fn is_closed(&self) -> bool {
        self.state == IndexState::Close
    }

    /// OpenSearch's `IndexClosedException` for this index.
    pub fn closed_error(&self) -> Error {
        Error::new(ErrorKind::IndexClosed, "closed")
            .with("index", self.name.as_str())
            .with("index_uuid", self.uuid.as_str())
    }
}

#[derive(Serialize, Deserialize)]
struct PersistedMeta {
    name: String,
    uuid: String,
    settings: BTreeMap<String, Value>,
    mappings: Value,
    aliases: BTreeMap<String, AliasMeta>,
    /// Absent in files written before indices could close: those are open.
    #[serde(default, skip_serializing_if = "is_open")]
    state: IndexState,
}

fn is_open(state: &IndexState) -> bool {
    *state == IndexState::Open
}

/// A write to an index, before routing.
pub enum DocWrite<'a> {
    Index {
        id: String,
        routing: Option<String>,
        /// The bytes stored as `_source`, and the same document parsed once by the caller.
        source: Arc<Vec<u8>>,
        doc: Value,
        pre: Preconditions,
    },
    /// An index write whose source the caller parsed into a tree over its request's bytes
    /// (`_bulk`, where that parse is most of a request's own work).
    IndexTree {
        id: String,
        routing: Option<String>,
        source: Arc<Vec<u8>>,
        tree: Json<'a>,
        pre: Preconditions,
    },
    Delete {
        id: String,
        routing: Option<String>,
        pre: Preconditions,
    },
}

pub struct WriteOutcome {
    pub shard: u32,
    pub result: Result<OpResult>,
}

pub struct IndexService {
    dir: PathBuf,
    meta: RwLock<Arc<IndexMeta>>,
    shards: Vec<Arc<Shard>>,
    /// The index's analyzers: analysis settings are static, so built once per open.
    registry: Arc<Registry>,
    /// Serializes mapping changes (explicit and dynamic) and their schema extensions.
    mapping_lock: Mutex<()>,
}

/// Registers an index's analyzers into each of its tantivy indices (at open, and again after a
/// schema extension reopens one).
fn tokenizer_setup(registry: &Arc<Registry>) -> TokenizerSetup {
    let registry = registry.clone();
    Arc::new(move |index: &tantivy::Index| crate::analysis::register(index.tokenizers(), &registry))
}

/// Builds the index's analysis registry and checks that every analyzer the mapping names
/// exists (OpenSearch's error shape for index creation). Also how a static analysis change on a
/// closed index is checked before it is recorded.
pub(crate) fn analysis_for(meta: &IndexMeta) -> Result<Arc<Registry>> {
    let reg = Registry::from_settings(&meta.settings.flat)?;
    meta.mapping
        .check_analyzers(&|n| reg.analyzer(n).is_some())
        .map_err(|e| {
            Error::new(
                ErrorKind::MapperParsing,
                format!("Failed to parse mapping [_doc]: {}", e.reason),
            )
            .caused_by(e)
        })?;
    Ok(Arc::new(reg))
}

impl IndexService {
    pub fn create(dir: &Path, meta: IndexMeta) -> Result<Arc<IndexService>> {
        let registry = analysis_for(&meta)?;
        std::fs::create_dir_all(dir)?;
        let schema = match schema::extend(&schema::base_schema(), &meta.mapping) {
            Some(ext) => ext.schema,
            None => schema::base_schema(),
        };
        persist(dir, &meta)?;
        let mapping = meta.mapping.clone();
        let parse = move |id: &str, routing: Option<&str>, src: &[u8], b: &DocBuilder| {
            replay_parse(&mapping, id, routing, src, b)
        };
        let setup = tokenizer_setup(&registry);
        let shards = (0..meta.settings.number_of_shards)
            .map(|n| Shard::open(&dir.join(n.to_string()), n, &schema, setup.clone(), &parse))
            .collect::<Result<Vec<_>>>()?;
        Ok(Arc::new(IndexService {
            dir: dir.to_path_buf(),
            meta: RwLock::new(Arc::new(meta)),
            shards,
            registry,
            mapping_lock: Mutex::new(()),
        }))
    }

    /// Opens the index in `dir` as its metadata left it: with its shards, or closed.
    pub fn open(dir: &Path) -> Result<Arc<IndexService>> {
        let bytes = std::fs::read(dir.join("_state").join("index.json"))?;
        let p: PersistedMeta = serde_json::from_slice(&bytes)
            .map_err(|e| Error::internal(format!("corrupt index metadata: {e}")))?;
        let meta = IndexMeta {
            name: p.name,
            uuid: p.uuid,
            settings: IndexSettings::from_flat(p.settings)?,
            mapping: Mapping::parse(&p.mappings)?,
            aliases: p.aliases,
            state: p.state,
        };
        if meta.is_closed() {
            return Ok(IndexService::closed(dir, meta));
        }
        IndexService::open_shards(dir, meta)
    }

    /// A closed index: its metadata only. Nothing under its shard directories is opened, so
    /// no reader, writer, translog or analyzer is held.
    fn closed(dir: &Path, meta: IndexMeta) -> Arc<IndexService> {
        Arc::new(IndexService {
            dir: dir.to_path_buf(),
            shards: Vec::new(),
            // Unused: a closed index analyses nothing, and its mapping updates check the
            // analysis its settings hold at the time.
            registry: Arc::new(Registry::default()),
            meta: RwLock::new(Arc::new(meta)),
            mapping_lock: Mutex::new(()),
        })
    }

    /// Opens the shards of an index whose metadata is `meta` (replaying each translog past its
    /// commit). Nothing is persisted: the caller records the state once this succeeded.
    pub fn open_shards(dir: &Path, meta: IndexMeta) -> Result<Arc<IndexService>> {
        let mapping = meta.mapping.clone();
        let parse = move |id: &str, routing: Option<&str>, src: &[u8], b: &DocBuilder| {
            replay_parse(&mapping, id, routing, src, b)
        };
        let registry = Arc::new(Registry::from_settings(&meta.settings.flat)?);
        let setup = tokenizer_setup(&registry);
        let shards = (0..meta.settings.number_of_shards)
            .map(|n| {
                Shard::open(
                    &dir.join(n.to_string()),
                    n,
                    &schema::base_schema(),
                    setup.clone(),
                    &parse,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let svc = Arc::new(IndexService {
            dir: dir.to_path_buf(),
            meta: RwLock::new(Arc::new(meta)),
            shards,
            registry,
            mapping_lock: Mutex::new(()),
        });
        // The mapping file is written after meta.json on extension; a crash between the two
        // leaves tantivy ahead, which is harmless. The reverse cannot happen.
        svc.ensure_schema(&svc.meta().mapping)?;
        Ok(svc)
    }

    pub fn meta(&self) -> Arc<IndexMeta> {
        self.meta.read().clone()
    }

    pub fn name(&self) -> String {
        self.meta.read().name.clone()
    }

    pub fn shards(&self) -> &[Arc<Shard>] {
        &self.shards
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Replaces metadata and persists it (settings, aliases).
    pub fn update_meta(&self, f: impl FnOnce(&mut IndexMeta) -> Result<()>) -> Result<()> {
        let _g = self.mapping_lock.lock();
        let mut m = (*self.meta()).clone();
        f(&mut m)?;
        persist(&self.dir, &m)?;
        *self.meta.write() = Arc::new(m);
        Ok(())
    }

    fn ensure_schema(&self, mapping: &Mapping) -> Result<()> {
        for shard in &self.shards {
            if let Some(ext) = schema::extend(&shard.schema(), mapping) {
                shard.extend_schema(&ext)?;
            }
        }
        Ok(())
    }

    /// Merges a mapping update: schema first, then the mapping, so a mapped field always has
    /// its tantivy field. Returns whether anything changed.
    pub fn merge_mapping(&self, update: &Mapping) -> Result<bool> {
        let _g = self.mapping_lock.lock();
        self.merge_mapping_locked(update)
    }

    fn merge_mapping_locked(&self, update: &Mapping) -> Result<bool> {
        let current = self.meta();
        let merged = current.mapping.merged(update)?;
        // A closed index's analysis may have changed since it closed: check against it as it is.
        let registry = if current.is_closed() {
            Arc::new(Registry::from_settings(&current.settings.flat)?)
        } else {
            self.registry.clone()
        };
        update.check_analyzers(&|n| registry.analyzer(n).is_some())?;
        if merged.render() == current.mapping.render() {
            return Ok(false);
        }
        self.ensure_schema(&merged)?;
        let mut m = (*current).clone();
        m.mapping = merged;
        persist(&self.dir, &m)?;
        *self.meta.write() = Arc::new(m);
        Ok(true)
    }

    /// The document `doc` (the parsed `source`) makes for `shard`, applying any dynamic mapping
    /// it introduces first, so the shard's schema has every field the document names.
    fn document(
        &self,
        shard: &Shard,
        id: &str,
        routing: Option<&str>,
        source: &[u8],
        doc: &Json,
    ) -> Result<TantivyDocument> {
        let meta = self.meta();
        let parsed = parse_document(&meta.mapping, id, doc)?;
        if parsed.dynamic_update.is_none() {
            return Ok(shard
                .doc_builder()
                .build(id, routing, source, &parsed.values));
        }
        // Concurrent writers may map the same new field at once (one seeing `1.5`, another `2`):
        // under the lock, parse again against the mapping as it is now, so the second one
        // follows the first instead of conflicting with it, as OpenSearch does.
        let _g = self.mapping_lock.lock();
        let meta = self.meta();
        let again = parse_document(&meta.mapping, id, doc)?;
        if let Some(update) = &again.dynamic_update {
            self.merge_mapping_locked(&Mapping::parse(update)?)?;
            let meta = self.meta();
            let values = parse_document(&meta.mapping, id, doc)?.values;
            return Ok(shard.doc_builder().build(id, routing, source, &values));
        }
        Ok(shard
            .doc_builder()
            .build(id, routing, source, &again.values))
    }

    pub fn shard_of(&self, id: &str, routing: Option<&str>) -> u32 {
        shard_for(routing.unwrap_or(id), self.shards.len() as u32)
    }

    /// Runs writes: parse (with dynamic mapping), route, apply per shard in request order,
    /// then make them durable as the index's translog durability asks.
    pub fn write(&self, writes: Vec<DocWrite<'_>>) -> Vec<WriteOutcome> {
        let meta = self.meta();
        let n = writes.len();
        // A single shard (the default) takes every operation: sized once. Grown by doubling, a
        // bulk's operations (a few hundred bytes each) were copied about twice over into fresh
        // pages.
        let one_shard = self.shards.len() == 1;
        let mut per_shard: Vec<Vec<(usize, ShardOp)>> = (0..self.shards.len())
            .map(|_| Vec::with_capacity(if one_shard { n } else { 0 }))
            .collect();
        let mut outcomes: Vec<Option<WriteOutcome>> = (0..n).map(|_| None).collect();
        // A write that raced the index's closing finds its shard's writer gone: it is refused
        // as any write to a closed index is.
        let closing = |e: Error| match self.meta() {
            m if m.is_closed() => m.closed_error(),
            _ => e,
        };
        for (i, w) in writes.into_iter().enumerate() {
            let (id, routing, source, tree, pre) = match w {
                DocWrite::Delete { id, routing, pre } => {
                    let shard = self.shard_of(&id, routing.as_deref());
                    per_shard[shard as usize].push((i, ShardOp::Delete { id, pre }));
                    continue;
                }
                DocWrite::Index {
                    id,
                    routing,
                    source,
                    doc,
                    pre,
                } => {
                    // The value's strings move into the tree: nothing is copied.
                    (id, routing, source, Json::from(doc), pre)
                }
                DocWrite::IndexTree {
                    id,
                    routing,
                    source,
                    tree,
                    pre,
                } => (id, routing, source, tree, pre),
            };
            {
                let shard = self.shard_of(&id, routing.as_deref());
                let built = self
                    .document(
                        &self.shards[shard as usize],
                        &id,
                        routing.as_deref(),
                        &source,
                        &tree,
                    )
                    .map_err(|e| closing(locate_object_value(e, &source)));
                // The parsed tree is done with: freed here, before the shard's lock.
                drop(tree);
                match built {
                    Ok(doc) => per_shard[shard as usize].push((
                        i,
                        ShardOp::Index {
                            id,
                            routing,
                            source,
                            doc,
                            pre,
                        },
                    )),
                    Err(e) => {
                        outcomes[i] = Some(WriteOutcome {
                            shard,
                            result: Err(e),
                        })
                    }
                }
            }
        }
        for (s, ops) in per_shard.into_iter().enumerate() {
            if ops.is_empty() {
                continue;
            }
            let (idx, ops): (Vec<usize>, Vec<ShardOp>) = ops.into_iter().unzip();
            let shard = &self.shards[s];
            match shard.apply(ops, &meta.name, &meta.uuid).map_err(closing) {
                Ok(results) => {
                    for (i, r) in idx.into_iter().zip(results) {
                        outcomes[i] = Some(WriteOutcome {
                            shard: s as u32,
                            result: r,
                        });
                    }
                }
                Err(e) => {
                    for i in idx {
                        outcomes[i] = Some(WriteOutcome {
                            shard: s as u32,
                            result: Err(e.clone()),
                        });
                    }
                }
            }
            if meta.settings.durability == crate::index::settings::Durability::Request {
                if let Err(e) = shard.sync().map_err(closing) {
                    for o in outcomes
                        .iter_mut()
                        .flatten()
                        .filter(|o| o.shard == s as u32)
                    {
                        o.result = Err(e.clone());
                    }
                }
            }
        }
        outcomes
            .into_iter()
            .map(|o| o.expect("every write has an outcome"))
            .collect()
    }

    pub fn refresh(&self) -> Result<()> {
        for s in &self.shards {
            s.refresh()?;
        }
        Ok(())
    }

    pub fn doc_count(&self) -> u64 {
        self.shards.iter().map(|s| s.doc_count()).sum()
    }

    /// Commits and releases every shard's writer (node shutdown, deletion, closing).
    pub fn close(&self) -> Result<()> {
        for s in &self.shards {
            s.close()?;
        }
        Ok(())
    }

    /// Closes the index for good: commits its shards, then records the closed state (the
    /// shards hold everything by then, so a crash after the record loses nothing). Returns the
    /// closed index that replaces this one; this one's readers go when its last user drops it.
    pub fn into_closed(&self) -> Result<Arc<IndexService>> {
        let _g = self.mapping_lock.lock();
        self.close()?;
        for s in &self.shards {
            s.record_closed()?;
        }
        let mut meta = (*self.meta()).clone();
        meta.state = IndexState::Close;
        meta.settings = meta.settings.with_verified_before_close(true)?;
        persist(&self.dir, &meta)?;
        // Requests that resolved this index before it closed see it closed from now on.
        *self.meta.write() = Arc::new(meta.clone());
        Ok(IndexService::closed(&self.dir, meta))
    }

    /// Opens a closed index: its shards first (analyzers built from the settings as they are
    /// now, translogs replayed), then the open state recorded; a failure leaves it closed.
    pub fn into_open(&self) -> Result<Arc<IndexService>> {
        let mut meta = (*self.meta()).clone();
        meta.state = IndexState::Open;
        meta.settings = meta.settings.with_verified_before_close(false)?;
        let svc = IndexService::open_shards(&self.dir, meta)?;
        persist(&self.dir, &svc.meta())?;
        Ok(svc)
    }

    /// Refuses a data operation on a closed index with OpenSearch's `index_closed_exception`.
    pub fn check_open(&self) -> Result<()> {
        let meta = self.meta();
        if meta.is_closed() {
            return Err(meta.closed_error());
        }
        Ok(())
    }
}

/// Jackson names where it met an object given to a leaf field ("Can't get text on a START_OBJECT
/// at 1:6"): the position of that value in the request's bytes, found from the field's path.
fn locate_object_value(mut e: Error, source: &[u8]) -> Error {
    const NO_TEXT: &str = "Can't get text on a START_OBJECT";
    let Some(cause) = e.caused_by.as_deref_mut().filter(|c| c.reason == NO_TEXT) else {
        return e;
    };
    let Some(path) = e
        .reason
        .strip_prefix("failed to parse field [")
        .and_then(|r| r.split_once("] of type ["))
        .map(|(p, _)| p.to_string())
    else {
        return e;
    };
    let Some(root) = crate::dsl::json::parse(source) else {
        return e;
    };
    let segments: Vec<&str> = path.split('.').collect();
    let mut node = &root;
    let mut i = 0;
    while i < segments.len() {
        // Object keys may hold dots themselves (`{"a.b": …}`): the longest key that matches.
        let Some((next, j)) = (i + 1..=segments.len())
            .rev()
            .find_map(|j| node.get(&segments[i..j].join(".")).map(|n| (n, j)))
        else {
            return e;
        };
        node = next;
        i = j;
    }
    if let crate::dsl::json::J::Arr(items) = &node.v {
        match items.iter().find(|n| n.as_obj().is_some()) {
            Some(obj) => node = obj,
            None => return e,
        }
    }
    cause.reason = format!("{NO_TEXT} at {}:{}", node.pos.line, node.pos.col);
    e
}

fn source_parse_error(e: &serde_json::Error) -> Error {
    Error::new(ErrorKind::MapperParsing, "failed to parse")
        .caused_by(Error::new(ErrorKind::JsonParse, e.to_string()))
}

fn replay_parse(
    mapping: &Mapping,
    id: &str,
    routing: Option<&str>,
    src: &[u8],
    builder: &DocBuilder,
) -> Result<TantivyDocument> {
    // Logged sources were accepted by the strict parse; the lenient one is only a fallback.
    let tree = match serde_json::from_slice::<Json>(src) {
        Ok(tree) => tree,
        Err(_) => {
            Json::from(serde_json::from_slice::<Value>(src).map_err(|e| source_parse_error(&e))?)
        }
    };
    // The mapping on disk already holds every field a logged document introduced (the mapping
    // is persisted before the write is logged), so replay never needs a dynamic update.
    let values = parse_document(mapping, id, &tree)?.values;
    Ok(builder.build(id, routing, src, &values))
}

fn persist(dir: &Path, meta: &IndexMeta) -> Result<()> {
    let p = PersistedMeta {
        name: meta.name.clone(),
        uuid: meta.uuid.clone(),
        settings: meta.settings.flat.clone(),
        mappings: meta.mapping.render(),
        aliases: meta.aliases.clone(),
        state: meta.state,
    };
    let bytes = serde_json::to_vec_pretty(&p).map_err(|e| Error::internal(e.to_string()))?;
    crate::util::fs::atomic_write(&dir.join("_state").join("index.json"), &bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn create(dir: &Path) -> Arc<IndexService> {
        let settings = IndexSettings::for_new_index(
            Some(&json!({"number_of_shards": 1, "number_of_replicas": 0})),
            "books",
            "u",
            0,
        )
        .unwrap();
        let meta = IndexMeta {
            name: "books".into(),
            uuid: "u".into(),
            settings,
            mapping: Mapping::parse(&json!({"properties": {"t": {"type": "text"}}})).unwrap(),
            aliases: BTreeMap::new(),
            state: IndexState::Open,
        };
        IndexService::create(dir, meta).unwrap()
    }

    fn index(svc: &IndexService, id: &str, t: &str) {
        let doc = json!({ "t": t });
        let write = DocWrite::Index {
            id: id.into(),
            routing: None,
            source: Arc::new(serde_json::to_vec(&doc).unwrap()),
            doc,
            pre: Preconditions::default(),
        };
        for outcome in svc.write(vec![write]) {
            outcome.result.unwrap();
        }
    }

    /// `(seq_no, primary_term, version)` of a document, from the shard that holds it.
    fn version(svc: &IndexService, id: &str) -> (i64, i64, i64) {
        let shard = &svc.shards()[svc.shard_of(id, None) as usize];
        let v = shard.current(id).unwrap().unwrap();
        (v.seq_no, v.primary_term, v.version)
    }

    #[test]
    fn a_closed_index_holds_no_shard_and_reopens_with_its_documents() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("idx");
        let svc = create(&dir);
        index(&svc, "1", "one");
        svc.refresh().unwrap();
        // A second version and a document never refreshed: the commit on close keeps them.
        index(&svc, "1", "one again");
        index(&svc, "2", "two");
        let before = (version(&svc, "1"), version(&svc, "2"));
        assert_eq!(before, ((1, 1, 2), (2, 1, 1)));

        let closed = svc.into_closed().unwrap();
        // A request still holding the open index is refused as closed, not failed.
        assert!(svc.meta().is_closed());
        let doc = json!({"t": "late"});
        let late = svc.write(vec![DocWrite::Index {
            id: "late".into(),
            routing: None,
            source: Arc::new(serde_json::to_vec(&doc).unwrap()),
            doc,
            pre: Preconditions::default(),
        }]);
        assert_eq!(
            late[0].result.as_ref().unwrap_err().type_name(),
            "index_closed_exception"
        );
        drop(svc);
        assert!(closed.meta().is_closed());
        assert!(closed.shards().is_empty());
        assert_eq!(
            closed.meta().settings.flat["index.verified_before_close"],
            json!("true")
        );
        assert_eq!(
            closed.check_open().unwrap_err().type_name(),
            "index_closed_exception"
        );
        // Nothing holds the shards' tantivy indices: a writer may take their lock.
        let files = tantivy::Index::open_in_dir(dir.join("0").join("index")).unwrap();
        drop(files.writer::<TantivyDocument>(15_000_000).unwrap());

        let open = closed.into_open().unwrap();
        assert!(!open.meta().is_closed());
        assert!(!open
            .meta()
            .settings
            .flat
            .contains_key("index.verified_before_close"));
        assert_eq!(open.doc_count(), 2);
        let (one, two) = (version(&open, "1"), version(&open, "2"));
        assert_eq!((one.0, one.2), (before.0 .0, before.0 .2));
        assert_eq!((two.0, two.2), (before.1 .0, before.1 .2));
        // Closing and opening each start a primary term, as OpenSearch's reallocations do.
        index(&open, "3", "three");
        assert_eq!(version(&open, "3"), (3, 3, 1));
    }

    #[test]
    fn the_closed_state_survives_a_restart() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("idx");
        let svc = create(&dir);
        index(&svc, "1", "one");
        let closed = svc.into_closed().unwrap();
        drop(svc);
        drop(closed);

        let again = IndexService::open(&dir).unwrap();
        assert!(again.meta().is_closed());
        assert!(again.shards().is_empty());
        let open = again.into_open().unwrap();
        drop(again);
        drop(open);
        // The open state is persisted too.
        let last = IndexService::open(&dir).unwrap();
        assert!(!last.meta().is_closed());
        assert_eq!(last.doc_count(), 1);
        assert_eq!(version(&last, "1").0, 0);
    }

    #[test]
    fn files_from_before_index_states_read_as_open() {
        let p: PersistedMeta = serde_json::from_value(json!({
            "name": "i", "uuid": "u", "settings": {}, "mappings": {}, "aliases": {}
        }))
        .unwrap();
        assert_eq!(p.state, IndexState::Open);
        // And an open index writes no state at all.
        assert!(serde_json::to_value(&p).unwrap().get("state").is_none());
    }
}
