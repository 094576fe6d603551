//! One shard: a tantivy index, its writer and reader, the translog, and the live version map
//! that gives realtime GET and version checks over writes not yet refreshed.

use crate::error::{Error, ErrorKind, Result};
use crate::index::document_parser::FieldValue;
use crate::index::schema::{self, Fields};
use crate::index::translog::{Operation, Record, Translog};
use parking_lot::{Mutex, RwLock};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tantivy::directory::{Directory, MmapDirectory, INDEX_WRITER_LOCK};
use tantivy::index::SegmentId;
use tantivy::indexer::{LogMergePolicy, MergeCandidate, MergePolicy};
use tantivy::schema::{Schema, Value as _};
use tantivy::{
    DateTime, Index, IndexReader, IndexWriter, ReloadPolicy, SegmentMeta, TantivyDocument, Term,
};

/// Per indexing thread; tantivy's floor is ~15 MB a thread.
const WRITER_MEMORY_PER_THREAD: usize = 48 * 1024 * 1024;
const PRIMARY_TERM: i64 = 1;
/// OpenSearch keeps delete tombstones for `index.gc_deletes` (60s) so versions continue.
const GC_DELETES: Duration = Duration::from_secs(60);

/// A document's current state as far as writes are concerned.
#[derive(Debug, Clone)]
pub struct DocVersion {
    pub seq_no: i64,
    pub primary_term: i64,
    pub version: i64,
    /// `None` for a delete.
    pub source: Option<Arc<Vec<u8>>>,
    pub routing: Option<String>,
}

/// Conditions a write must meet (`op_type=create`, `if_seq_no`, `version`).
#[derive(Debug, Clone, Default)]
pub struct Preconditions {
    pub create: bool,
    pub if_seq_no: Option<i64>,
    pub if_primary_term: Option<i64>,
    pub version: Option<(i64, VersionTypeOpt)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VersionTypeOpt {
    #[default]
    Internal,
    External,
    ExternalGte,
}

pub enum ShardOp {
    Index {
        id: String,
        routing: Option<String>,
        source: Arc<Vec<u8>>,
        values: Vec<(String, FieldValue)>,
        pre: Preconditions,
    },
    Delete {
        id: String,
        pre: Preconditions,
    },
}

#[derive(Debug, Clone)]
pub struct OpResult {
    pub id: String,
    pub seq_no: i64,
    pub primary_term: i64,
    pub version: i64,
    /// `created`, `updated`, `deleted`, `not_found`.
    pub result: &'static str,
}

struct Writer {
    index: Index,
    writer: IndexWriter,
    fields: Fields,
    translog: Translog,
    max_seq_no: i64,
}

#[derive(Serialize, Deserialize, Default)]
struct ShardState {
    frozen_segments: Vec<String>,
}

/// Never proposes frozen segments: written before a normed field was appended, they cannot be
/// merged by stock tantivy (tantivy-napi.md §6.4).
#[derive(Debug)]
struct FreezingMergePolicy {
    inner: LogMergePolicy,
    frozen: Arc<RwLock<HashSet<SegmentId>>>,
}

impl MergePolicy for FreezingMergePolicy {
    fn compute_merge_candidates(&self, segments: &[SegmentMeta]) -> Vec<MergeCandidate> {
        let frozen = self.frozen.read();
        let mergeable: Vec<SegmentMeta> = segments
            .iter()
            .filter(|s| !frozen.contains(&s.id()))
            .cloned()
            .collect();
        self.inner.compute_merge_candidates(&mergeable)
    }
}

/// Registers the index's analyzers into a freshly opened tantivy index.
pub type TokenizerSetup = Arc<dyn Fn(&Index) + Send + Sync>;

/// Turns a logged `_source` back into field values (the mapping lives above the shard).
pub type ReplayParser = dyn Fn(&str, &[u8]) -> Result<Vec<(String, FieldValue)>>;

pub struct Shard {
    pub number: u32,
    dir: PathBuf,
    writer: Mutex<Option<Writer>>,
    reader: RwLock<(IndexReader, Fields)>,
    // Keyed by document id, looked up on every write: a fast non-cryptographic hash.
    live: RwLock<FxHashMap<String, DocVersion>>,
    tombstones: Mutex<FxHashMap<String, (DocVersion, Instant)>>,
    frozen: Arc<RwLock<HashSet<SegmentId>>>,
    dirty: AtomicBool,
    unsynced: AtomicBool,
    last_refresh_ms: AtomicI64,
    last_sync_ms: AtomicI64,
    tokenizer_setup: TokenizerSetup,
}

fn payload_seq_no(index: &Index) -> Result<i64> {
    let metas = index.load_metas()?;
    Ok(metas
        .payload
        .as_deref()
        .and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok())
        .and_then(|v| v["max_seq_no"].as_i64())
        .unwrap_or(-1))
}

impl Shard {
    /// Opens (or creates) the shard in `dir` and replays its translog past the last commit.
    pub fn open(
        dir: &Path,
        number: u32,
        schema_for_new: &Schema,
        setup: TokenizerSetup,
        parse: &ReplayParser,
    ) -> Result<Arc<Shard>> {
        let index_dir = dir.join("index");
        std::fs::create_dir_all(&index_dir)?;
        remove_stale_temp_files(&index_dir)?;
        let directory =
            MmapDirectory::open(&index_dir).map_err(|e| Error::internal(e.to_string()))?;
        let index = if Index::exists(&directory).map_err(|e| Error::internal(e.to_string()))? {
            Index::open(directory)?
        } else {
            Index::create(
                directory,
                schema_for_new.clone(),
                tantivy::IndexSettings::default(),
            )?
        };
        setup(&index);
        let state: ShardState = std::fs::read(dir.join("shard.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let frozen: HashSet<SegmentId> = state
            .frozen_segments
            .iter()
            .filter_map(|s| SegmentId::from_uuid_string(s).ok())
            .collect();
        let frozen = Arc::new(RwLock::new(frozen));
        let (translog, records) = Translog::open(&dir.join("translog"))?;
        let committed = payload_seq_no(&index)?;
        let (writer, reader) = Self::open_writer(&index, &frozen, translog, committed)?;
        let shard = Arc::new(Shard {
            number,
            dir: dir.to_path_buf(),
            reader: RwLock::new(reader),
            writer: Mutex::new(Some(writer)),
            live: RwLock::new(FxHashMap::default()),
            tombstones: Mutex::new(FxHashMap::default()),
            frozen,
            dirty: AtomicBool::new(false),
            unsynced: AtomicBool::new(false),
            last_refresh_ms: AtomicI64::new(0),
            last_sync_ms: AtomicI64::new(0),
            tokenizer_setup: setup,
        });
        shard.replay(
            records
                .into_iter()
                .filter(|r| r.seq_no > committed)
                .collect(),
            parse,
        )?;
        Ok(shard)
    }

    fn open_writer(
        index: &Index,
        frozen: &Arc<RwLock<HashSet<SegmentId>>>,
        translog: Translog,
        max_seq_no: i64,
    ) -> Result<(Writer, (IndexReader, Fields))> {
        // One indexing thread per core (at most 4): a single thread was the ingest bottleneck.
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 4);
        let writer: IndexWriter =
            index.writer_with_num_threads(threads, threads * WRITER_MEMORY_PER_THREAD)?;
        // A crash mid-commit leaves files the last commit does not reference (e.g. `.del` files
        // of the same opstamp the replay is about to reach again); tantivy refuses to overwrite
        // them, so clear them before anything is written.
        writer.garbage_collect_files().wait()?;
        writer.set_merge_policy(Box::new(FreezingMergePolicy {
            inner: LogMergePolicy::default(),
            frozen: frozen.clone(),
        }));
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let fields = Fields::new(&index.schema());
        Ok((
            Writer {
                index: index.clone(),
                writer,
                fields: fields.clone(),
                translog,
                max_seq_no,
            },
            (reader, fields),
        ))
    }

    fn replay(&self, records: Vec<Record>, parse: &ReplayParser) -> Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let n = records.len();
        {
            let mut guard = self.writer.lock();
            let w = guard.as_mut().expect("writer open");
            let fields = w.fields.clone();
            for r in records {
                match &r.op {
                    Operation::Index {
                        id,
                        routing,
                        source,
                    } => {
                        let values = parse(id, source)?;
                        w.writer.delete_term(Term::from_field_text(fields.id, id));
                        let doc = build_doc(
                            &fields,
                            w.index.tokenizers(),
                            id,
                            routing.as_deref(),
                            source,
                            &values,
                            r.seq_no,
                            r.version,
                            r.primary_term,
                        );
                        w.writer.add_document(doc)?;
                    }
                    Operation::Delete { id } => {
                        w.writer.delete_term(Term::from_field_text(fields.id, id));
                    }
                }
                w.max_seq_no = w.max_seq_no.max(r.seq_no);
            }
        }
        log::info!(
            "shard [{}]: replayed {n} translog operations",
            self.dir.display()
        );
        self.refresh()
    }

    pub fn schema(&self) -> Schema {
        self.writer
            .lock()
            .as_ref()
            .expect("writer open")
            .index
            .schema()
    }

    /// The current version of `id`: unrefreshed writes first, then recent deletes, then the index.
    pub fn current(&self, id: &str) -> Result<Option<DocVersion>> {
        if let Some(v) = self.live.read().get(id) {
            return Ok(Some(v.clone()));
        }
        {
            let mut tombs = self.tombstones.lock();
            if let Some((v, at)) = tombs.get(id) {
                if at.elapsed() < GC_DELETES {
                    return Ok(Some(v.clone()));
                }
                tombs.remove(id);
            }
        }
        self.lookup_committed(id)
    }

    pub fn lookup_committed(&self, id: &str) -> Result<Option<DocVersion>> {
        let guard = self.reader.read();
        let (reader, fields) = &*guard;
        let searcher = reader.searcher();
        let term = Term::from_field_text(fields.id, id);
        for (ord, seg) in searcher.segment_readers().iter().enumerate() {
            let inverted = seg.inverted_index(fields.id)?;
            let Some(mut postings) =
                inverted.read_postings(&term, tantivy::schema::IndexRecordOption::Basic)?
            else {
                continue;
            };
            use tantivy::DocSet;
            let mut doc = postings.doc();
            while doc != tantivy::TERMINATED {
                if !seg.is_deleted(doc) {
                    let stored: TantivyDocument =
                        searcher.doc(tantivy::DocAddress::new(ord as u32, doc))?;
                    let i64_of = |f| stored.get_first(f).and_then(|v| v.as_i64()).unwrap_or(0);
                    let source = stored
                        .get_first(fields.source)
                        .and_then(|v| v.as_bytes())
                        .map(|b| Arc::new(b.to_vec()));
                    let routing = stored
                        .get_first(fields.routing)
                        .and_then(|v| v.as_str())
                        .map(String::from);
                    return Ok(Some(DocVersion {
                        seq_no: i64_of(fields.seq_no),
                        primary_term: i64_of(fields.primary_term),
                        version: i64_of(fields.version),
                        source,
                        routing,
                    }));
                }
                doc = postings.advance();
            }
        }
        Ok(None)
    }

    /// Applies writes in order; each gets its own result. Durable only after [`Shard::sync`].
    pub fn apply(
        &self,
        ops: Vec<ShardOp>,
        index: &str,
        uuid: &str,
    ) -> Result<Vec<Result<OpResult>>> {
        let mut guard = self.writer.lock();
        let w = guard
            .as_mut()
            .ok_or_else(|| Error::internal("shard is closed"))?;
        let mut results = Vec::with_capacity(ops.len());
        let mut records = Vec::with_capacity(ops.len());
        for op in ops {
            let (id, pre) = match &op {
                ShardOp::Index { id, pre, .. } | ShardOp::Delete { id, pre } => {
                    (id.clone(), pre.clone())
                }
            };
            let current = self.current(&id)?;
            let live = current.as_ref().filter(|c| c.source.is_some());
            let version = match check(
                &id,
                live,
                current.as_ref(),
                &pre,
                matches!(op, ShardOp::Delete { .. }),
            ) {
                Ok(v) => v,
                Err(e) => {
                    results.push(Err(e.on_shard(index, uuid, self.number)));
                    continue;
                }
            };
            let seq_no = w.max_seq_no + 1;
            match op {
                ShardOp::Index {
                    id,
                    routing,
                    source,
                    values,
                    ..
                } => {
                    // Only an existing copy needs deleting: tantivy applies every delete term
                    // to every segment at commit, so skipping them keeps fresh ingest cheap.
                    if live.is_some() {
                        w.writer
                            .delete_term(Term::from_field_text(w.fields.id, &id));
                    }
                    let doc = build_doc(
                        &w.fields,
                        w.index.tokenizers(),
                        &id,
                        routing.as_deref(),
                        &source,
                        &values,
                        seq_no,
                        version,
                        PRIMARY_TERM,
                    );
                    w.writer.add_document(doc)?;
                    records.push(Record {
                        seq_no,
                        primary_term: PRIMARY_TERM,
                        version,
                        op: Operation::Index {
                            id: id.clone(),
                            routing: routing.clone(),
                            source: source.clone(),
                        },
                    });
                    self.tombstones.lock().remove(&id);
                    self.live.write().insert(
                        id.clone(),
                        DocVersion {
                            seq_no,
                            primary_term: PRIMARY_TERM,
                            version,
                            source: Some(source),
                            routing,
                        },
                    );
                    results.push(Ok(OpResult {
                        id,
                        seq_no,
                        primary_term: PRIMARY_TERM,
                        version,
                        result: if live.is_some() { "updated" } else { "created" },
                    }));
                }
                ShardOp::Delete { id, .. } => {
                    if live.is_some() {
                        w.writer
                            .delete_term(Term::from_field_text(w.fields.id, &id));
                    }
                    records.push(Record {
                        seq_no,
                        primary_term: PRIMARY_TERM,
                        version,
                        op: Operation::Delete { id: id.clone() },
                    });
                    let tomb = DocVersion {
                        seq_no,
                        primary_term: PRIMARY_TERM,
                        version,
                        source: None,
                        routing: None,
                    };
                    self.live.write().insert(id.clone(), tomb.clone());
                    self.tombstones
                        .lock()
                        .insert(id.clone(), (tomb, Instant::now()));
                    results.push(Ok(OpResult {
                        id,
                        seq_no,
                        primary_term: PRIMARY_TERM,
                        version,
                        result: if live.is_some() {
                            "deleted"
                        } else {
                            "not_found"
                        },
                    }));
                }
            }
            w.max_seq_no = seq_no;
        }
        if !records.is_empty() {
            w.translog.append(&records)?;
            self.dirty.store(true, Ordering::Release);
            self.unsynced.store(true, Ordering::Release);
        }
        Ok(results)
    }

    /// A handle to fsync the translog without holding the shard lock.
    pub fn translog_handle(&self) -> Result<File> {
        self.writer
            .lock()
            .as_ref()
            .ok_or_else(|| Error::internal("shard is closed"))?
            .translog
            .sync_handle()
    }

    pub fn sync(&self) -> Result<()> {
        if self.unsynced.swap(false, Ordering::AcqRel) {
            let f = self.translog_handle()?;
            f.sync_data()?;
        }
        self.last_sync_ms
            .store(chrono::Utc::now().timestamp_millis(), Ordering::Relaxed);
        Ok(())
    }

    pub fn millis_since_sync(&self, now_ms: i64) -> i64 {
        now_ms - self.last_sync_ms.load(Ordering::Relaxed)
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Ordering::Acquire)
    }

    pub fn millis_since_refresh(&self, now_ms: i64) -> i64 {
        now_ms - self.last_refresh_ms.load(Ordering::Relaxed)
    }

    /// Commits tantivy (durable, with the max sequence number as payload), makes the writes
    /// searchable, then trims the translog.
    pub fn refresh(&self) -> Result<()> {
        let mut guard = self.writer.lock();
        let Some(w) = guard.as_mut() else {
            return Ok(());
        };
        self.commit_locked(w)?;
        Ok(())
    }

    fn commit_locked(&self, w: &mut Writer) -> Result<()> {
        self.dirty.store(false, Ordering::Release);
        let mut prepared = w.writer.prepare_commit()?;
        prepared.set_payload(&serde_json::json!({ "max_seq_no": w.max_seq_no }).to_string());
        prepared.commit()?;
        {
            let r = self.reader.read();
            r.0.reload()?;
        }
        self.live.write().clear();
        w.translog.roll_and_trim()?;
        self.unsynced.store(false, Ordering::Release);
        let now = chrono::Utc::now().timestamp_millis();
        self.last_refresh_ms.store(now, Ordering::Relaxed);
        Ok(())
    }

    /// Appends fields to the schema: commit, release the writer, rewrite `meta.json` under the
    /// writer lock, reopen (tantivy-napi.md §6.5).
    pub fn extend_schema(&self, ext: &crate::index::schema::Extension) -> Result<()> {
        let mut guard = self.writer.lock();
        let mut w = guard
            .take()
            .ok_or_else(|| Error::internal("shard is closed"))?;
        let result = (|| -> Result<()> {
            self.commit_locked(&mut w)?;
            let Writer {
                index,
                writer,
                translog,
                max_seq_no,
                ..
            } = w;
            writer.wait_merging_threads()?;
            if ext.adds_fieldnorms {
                let mut frozen = self.frozen.write();
                for meta in index.searchable_segment_metas()? {
                    frozen.insert(meta.id());
                }
                let state = ShardState {
                    frozen_segments: frozen.iter().map(|s| s.uuid_string()).collect(),
                };
                crate::util::fs::atomic_write(
                    &self.dir.join("shard.json"),
                    &serde_json::to_vec(&state).expect("json"),
                )?;
            }
            {
                let dir = index.directory();
                let _lock = dir
                    .acquire_lock(&INDEX_WRITER_LOCK)
                    .map_err(|e| Error::internal(e.to_string()))?;
                let mut metas = index.load_metas()?;
                metas.schema = ext.schema.clone();
                let bytes = serde_json::to_vec_pretty(&metas)
                    .map_err(|e| Error::internal(e.to_string()))?;
                dir.atomic_write(Path::new("meta.json"), &bytes)?;
                dir.sync_directory()?;
            }
            drop(index);
            let directory = MmapDirectory::open(self.dir.join("index"))
                .map_err(|e| Error::internal(e.to_string()))?;
            let index = Index::open(directory)?;
            (self.tokenizer_setup)(&index);
            let (new_writer, reader) =
                Self::open_writer(&index, &self.frozen, translog, max_seq_no)?;
            *self.reader.write() = reader;
            *guard = Some(new_writer);
            Ok(())
        })();
        if guard.is_none() {
            // The writer is gone: the shard refuses writes until a restart reopens it and replays
            // its translog (nothing acknowledged is lost; the translog was synced by the commit).
            log::error!(
                "shard [{}]: schema extension failed: {:?}",
                self.dir.display(),
                result
            );
        }
        result
    }

    pub fn searcher(&self) -> tantivy::Searcher {
        self.reader.read().0.searcher()
    }

    pub fn doc_count(&self) -> u64 {
        self.searcher().num_docs()
    }

    pub fn deleted_count(&self) -> u64 {
        let s = self.searcher();
        s.segment_readers()
            .iter()
            .map(|r| (r.max_doc() - r.num_docs()) as u64)
            .sum()
    }

    pub fn segment_count(&self) -> usize {
        self.searcher().segment_readers().len()
    }

    pub fn store_size(&self) -> u64 {
        crate::util::fs::dir_size(&self.dir)
    }

    pub fn max_seq_no(&self) -> i64 {
        self.writer
            .lock()
            .as_ref()
            .map(|w| w.max_seq_no)
            .unwrap_or(-1)
    }

    /// Commits and stops the writer (graceful shutdown).
    pub fn close(&self) -> Result<()> {
        let mut guard = self.writer.lock();
        if let Some(mut w) = guard.take() {
            self.commit_locked(&mut w)?;
            w.writer.wait_merging_threads()?;
        }
        Ok(())
    }
}

/// The version a write gets, or the conflict OpenSearch reports.
fn check(
    id: &str,
    live: Option<&DocVersion>,
    any: Option<&DocVersion>,
    pre: &Preconditions,
    is_delete: bool,
) -> Result<i64> {
    let conflict = |reason: String| {
        Err(Error::new(
            ErrorKind::VersionConflict,
            format!("[{id}]: version conflict, {reason}"),
        ))
    };
    if pre.create {
        if let Some(c) = live {
            return conflict(format!(
                "document already exists (current version [{}])",
                c.version
            ));
        }
    }
    if let Some(seq) = pre.if_seq_no {
        let term = pre.if_primary_term.unwrap_or(PRIMARY_TERM);
        match live {
            None => {
                return conflict(format!(
                    "required seqNo [{seq}], primary term [{term}]. but no document was found"
                ))
            }
            Some(c) if c.seq_no != seq || c.primary_term != term => {
                return conflict(format!(
                    "required seqNo [{seq}], primary term [{term}]. current document has seqNo [{}] and primary term [{}]",
                    c.seq_no, c.primary_term
                ))
            }
            _ => {}
        }
    }
    match pre.version {
        Some((v, VersionTypeOpt::External)) | Some((v, VersionTypeOpt::ExternalGte)) => {
            let gte = matches!(pre.version, Some((_, VersionTypeOpt::ExternalGte)));
            if let Some(c) = any {
                let ok = if gte { v >= c.version } else { v > c.version };
                if !ok {
                    let rel = if gte {
                        "higher than"
                    } else {
                        "higher or equal to"
                    };
                    return conflict(format!(
                        "current version [{}] is {rel} the one provided [{v}]",
                        c.version
                    ));
                }
            }
            Ok(v)
        }
        Some((v, VersionTypeOpt::Internal)) => {
            let current = live.map(|c| c.version);
            if current != Some(v) {
                return match current {
                    Some(c) => conflict(format!(
                        "current version [{c}] is different than the one provided [{v}]"
                    )),
                    None => conflict(format!("document does not exist (expected version [{v}])")),
                };
            }
            Ok(v + 1)
        }
        None => {
            let _ = is_delete;
            Ok(any.map(|c| c.version + 1).unwrap_or(1))
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn build_doc(
    fields: &Fields,
    tokenizers: &tantivy::tokenizer::TokenizerManager,
    id: &str,
    routing: Option<&str>,
    source: &[u8],
    values: &[(String, FieldValue)],
    seq_no: i64,
    version: i64,
    primary_term: i64,
) -> TantivyDocument {
    let mut doc = TantivyDocument::new();
    doc.add_text(fields.id, id);
    doc.add_bytes(fields.source, source);
    doc.add_i64(fields.seq_no, seq_no);
    doc.add_i64(fields.version, version);
    doc.add_i64(fields.primary_term, primary_term);
    if let Some(r) = routing {
        doc.add_text(fields.routing, r);
    }
    // Text values per field (with the mapping's gap, if any): a field with several values is
    // indexed as one pre-tokenized value, `position_increment_gap` positions between values.
    type TextValues<'a> = Vec<(tantivy::schema::Field, Option<u32>, Vec<&'a str>)>;
    let mut texts: TextValues = Vec::new();
    fn text_entry(texts: &mut TextValues, f: tantivy::schema::Field) -> usize {
        match texts.iter().position(|t| t.0 == f) {
            Some(i) => i,
            None => {
                texts.push((f, None, Vec::new()));
                texts.len() - 1
            }
        }
    }
    for (path, value) in values {
        let Some(&f) = fields.by_path.get(path) else {
            continue;
        };
        match value {
            FieldValue::Str(s) if fields.text.contains_key(&f) => {
                let i = text_entry(&mut texts, f);
                texts[i].2.push(s);
            }
            FieldValue::PositionGap(g) => {
                let i = text_entry(&mut texts, f);
                texts[i].1 = Some(*g);
            }
            FieldValue::Str(s) => match fields.normalizers.get(&f) {
                Some(key) => doc.add_text(f, crate::analysis::normalize(tokenizers, key, s)),
                None => doc.add_text(f, s),
            },
            FieldValue::I64(v) => doc.add_i64(f, *v),
            FieldValue::U64(v) => doc.add_u64(f, *v),
            FieldValue::F64(v) => doc.add_f64(f, *v),
            FieldValue::Bool(v) => doc.add_bool(f, *v),
            FieldValue::DateMillis(ms) => doc.add_date(f, DateTime::from_timestamp_millis(*ms)),
            FieldValue::Ip(ip) => doc.add_ip_addr(f, *ip),
        }
    }
    for (f, gap, vals) in texts {
        if let [one] = vals[..] {
            doc.add_text(f, one);
            continue;
        }
        match crate::analysis::multi_valued(tokenizers, &fields.text[&f], &vals, gap) {
            Some(pre) => doc.add_pre_tokenized_text(f, pre),
            None => vals.iter().for_each(|v| doc.add_text(f, v)),
        }
    }
    doc
}

/// Temporary files of an atomic write interrupted by a crash: tantivy does not track them.
/// Safe only before a writer opens the directory.
fn remove_stale_temp_files(dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dir)?.flatten() {
        if entry.file_name().to_string_lossy().starts_with(".tmp") {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

pub fn new_schema() -> Schema {
    schema::base_schema()
}
