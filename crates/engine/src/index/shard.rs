//! One shard: a tantivy index, its writer and reader, the translog, and the live version map
//! that gives realtime GET and version checks over writes not yet refreshed.

use crate::error::{Error, ErrorKind, Result};
use crate::index::doc_builder::{stamp, DocBuilder};
use crate::index::indexing_queue::{self, QueuedDoc};
use crate::index::schema::{self, Fields};
use crate::index::shard_stats::{add_elapsed, ShardStats, Snapshot};
use crate::index::translog::{Operation, Record, Translog};
use parking_lot::{Condvar, Mutex, RwLock};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tantivy::directory::{Directory, MmapDirectory, INDEX_WRITER_LOCK};
use tantivy::index::SegmentId;
use tantivy::indexer::{LogMergePolicy, MergePolicy, NoMergePolicy, UserOperation};
use tantivy::schema::{Schema, Value as _};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, SegmentMeta, TantivyDocument, Term};

/// Per indexing thread; tantivy's floor is ~15 MB a thread.
const WRITER_MEMORY_PER_THREAD: usize = 48 * 1024 * 1024;
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
        /// Built by the caller (`DocBuilder`), stamped with its numbers under the writer lock.
        doc: TantivyDocument,
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
    writer: IndexWriter<QueuedDoc>,
    /// What `writer`'s indexing threads have yet to index, bounded (`indexing_queue`).
    queue: Arc<indexing_queue::Queue>,
    fields: Arc<Fields>,
    translog: Translog,
    max_seq_no: i64,
}

#[derive(Serialize, Deserialize, Default)]
struct ShardState {
    frozen_segments: Vec<String>,
    /// The primary term of the last time this shard was opened: OpenSearch starts a new term
    /// each time a primary is allocated, so a restart writes with the next one.
    #[serde(default)]
    primary_term: i64,
}

/// The shard starts its merges itself (tantivy's writer gets `NoMergePolicy`): after each commit
/// it asks a `LogMergePolicy` about the committed segments that are neither frozen (written before
/// a normed field was appended, stock tantivy cannot merge them: tantivy-napi.md §6.4) nor already
/// merging. Owning the merges gives exact merge statistics and lets a force merge wait for the
/// running ones instead of racing them for the same segments.
#[derive(Default)]
struct MergeState {
    /// Segments in a background merge.
    merging: HashSet<SegmentId>,
    running: usize,
    /// Force merges in progress: no background merge starts meanwhile.
    paused: usize,
}

/// The segments `_forcemerge` rewrites, from the committed, mergeable ones.
fn force_merge_plan(
    segments: &[SegmentMeta],
    max_num_segments: Option<u32>,
    only_expunge_deletes: bool,
) -> Vec<SegmentId> {
    if only_expunge_deletes {
        // Lucene's forceMergeDeletes: segments over `index.merge.policy.expunge_deletes_allowed`
        // (10%) deleted documents.
        return segments
            .iter()
            .filter(|m| m.max_doc() > 0 && m.num_deleted_docs() as f64 * 10.0 > m.max_doc() as f64)
            .map(|m| m.id())
            .collect();
    }
    let Some(max) = max_num_segments.filter(|&n| n > 0) else {
        return Vec::new();
    };
    let max = max as usize;
    if segments.len() <= max {
        // Already few enough; with a target of one, a segment holding deletes is rewritten
        // without them, as Lucene does.
        return match segments {
            [one] if max == 1 && one.has_deletes() => vec![one.id()],
            _ => Vec::new(),
        };
    }
    // The smallest ones merge into one, leaving `max` segments.
    let mut by_size: Vec<&SegmentMeta> = segments.iter().collect();
    by_size.sort_by_key(|m| m.num_docs());
    by_size[..segments.len() - max + 1]
        .iter()
        .map(|m| m.id())
        .collect()
}

/// One segment as `_segments` and `_cat/segments` show it.
#[derive(Debug, Clone)]
pub struct SegmentInfo {
    pub name: String,
    pub generation: usize,
    pub num_docs: u32,
    pub deleted_docs: u32,
    pub size_in_bytes: u64,
    pub committed: bool,
}

/// Registers the index's analyzers into a freshly opened tantivy index.
pub type TokenizerSetup = Arc<dyn Fn(&Index) + Send + Sync>;

/// Turns a logged write (id, routing, `_source`) back into its document (the mapping lives above
/// the shard).
pub type ReplayParser = dyn Fn(&str, Option<&str>, &[u8], &DocBuilder) -> Result<TantivyDocument>;

/// A committed copy as a write's check reads it ([`Shard::current_for_write`]).
enum Columns {
    Found(DocVersion),
    Absent,
    Unreadable,
}

/// The committed segments as one batch of writes checks them: the searcher of the last
/// refresh (no refresh can come while the batch holds the writer lock), each segment's
/// version columns opened once, when a write first finds a document there (opening a column
/// reads its block index, which per document cost more than the lookup).
struct CommittedVersions {
    searcher: tantivy::Searcher,
    id_field: tantivy::schema::Field,
    /// Per segment: not opened yet, or its `_seq_no`, `_primary_term`, `_version` columns
    /// (`None` where one is missing).
    columns: Vec<Option<Option<[tantivy::columnar::Column<i64>; 3]>>>,
}

impl CommittedVersions {
    fn new(shard: &Shard) -> CommittedVersions {
        let guard = shard.reader.read();
        let searcher = guard.0.searcher();
        let columns = vec![None; searcher.segment_readers().len()];
        CommittedVersions {
            searcher,
            id_field: guard.1.fields.id,
            columns,
        }
    }

    fn find(&mut self, id: &str) -> Result<Columns> {
        let Some((ord, doc)) = live_doc(&self.searcher, self.id_field, id)? else {
            return Ok(Columns::Absent);
        };
        let seg = self.searcher.segment_reader(ord as u32);
        let opened = self.columns[ord].get_or_insert_with(|| {
            let ff = seg.fast_fields();
            let open = |name: &str| ff.i64(name).ok();
            Some([
                open(schema::SEQ_NO)?,
                open(schema::PRIMARY_TERM)?,
                open(schema::VERSION)?,
            ])
        });
        let Some([seq_no, term, version]) = opened else {
            return Ok(Columns::Unreadable);
        };
        let numbers = (seq_no.first(doc), term.first(doc), version.first(doc));
        let (Some(seq_no), Some(primary_term), Some(version)) = numbers else {
            return Ok(Columns::Unreadable);
        };
        Ok(Columns::Found(DocVersion {
            seq_no,
            primary_term,
            version,
            source: Some(Arc::default()),
            routing: None,
        }))
    }
}

/// The live document indexed under `id`, as (segment ordinal, doc): the one an `_id` lookup
/// finds (a shard holds at most one live document per id).
fn live_doc(
    searcher: &tantivy::Searcher,
    id_field: tantivy::schema::Field,
    id: &str,
) -> Result<Option<(usize, tantivy::DocId)>> {
    use tantivy::DocSet;
    let term = Term::from_field_text(id_field, id);
    for (ord, seg) in searcher.segment_readers().iter().enumerate() {
        let inverted = seg.inverted_index(id_field)?;
        let Some(mut postings) =
            inverted.read_postings(&term, tantivy::schema::IndexRecordOption::Basic)?
        else {
            continue;
        };
        let mut doc = postings.doc();
        while doc != tantivy::TERMINATED {
            if !seg.is_deleted(doc) {
                return Ok(Some((ord, doc)));
            }
            doc = postings.advance();
        }
    }
    Ok(None)
}

pub struct Shard {
    pub number: u32,
    /// How this opening found the shard (set once the translog is replayed).
    recovery: std::sync::OnceLock<crate::index::recovery::Recovery>,
    /// This opening's primary term, stamped on every write it makes.
    primary_term: i64,
    dir: PathBuf,
    writer: Mutex<Option<Writer>>,
    reader: RwLock<(IndexReader, DocBuilder)>,
    // Keyed by document id, looked up on every write: a fast non-cryptographic hash.
    live: RwLock<FxHashMap<String, DocVersion>>,
    tombstones: Mutex<FxHashMap<String, (DocVersion, Instant)>>,
    frozen: Arc<RwLock<HashSet<SegmentId>>>,
    dirty: AtomicBool,
    unsynced: AtomicBool,
    last_refresh_ms: AtomicI64,
    last_sync_ms: AtomicI64,
    tokenizer_setup: TokenizerSetup,
    pub stats: ShardStats,
    merges: Mutex<MergeState>,
    merge_ended: Condvar,
    force_merging: Mutex<()>,
    /// Lucene-style generations: each segment numbered in the order this shard first saw it
    /// (tantivy names segments by UUID and keeps no counter).
    generations: Mutex<(FxHashMap<SegmentId, u64>, u64)>,
    /// For the threads that wait on background merges (they outlive no shard).
    me: Weak<Shard>,
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
        let start_ms = chrono::Utc::now().timestamp_millis();
        let index_dir = dir.join("index");
        std::fs::create_dir_all(&index_dir)?;
        remove_stale_temp_files(&index_dir)?;
        let files = crate::index::recovery::store_files(&index_dir);
        let directory =
            MmapDirectory::open(&index_dir).map_err(|e| Error::internal(e.to_string()))?;
        let existing_store =
            Index::exists(&directory).map_err(|e| Error::internal(e.to_string()))?;
        let index = if existing_store {
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
        let primary_term = state.primary_term + 1;
        crate::util::fs::atomic_write(
            &dir.join("shard.json"),
            &serde_json::to_vec(&ShardState {
                primary_term,
                ..state
            })
            .expect("json"),
        )?;
        let (translog, records) = Translog::open(&dir.join("translog"))?;
        let committed = payload_seq_no(&index)?;
        let (writer, reader) = Self::open_writer(&index, translog, committed)?;
        let now = chrono::Utc::now().timestamp_millis();
        let shard = Arc::new_cyclic(|me| Shard {
            number,
            recovery: std::sync::OnceLock::new(),
            primary_term,
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
            stats: ShardStats::default(),
            merges: Mutex::new(MergeState::default()),
            merge_ended: Condvar::new(),
            force_merging: Mutex::new(()),
            generations: Mutex::new((FxHashMap::default(), 0)),
            me: me.clone(),
        });
        shard
            .stats
            .translog_modified_ms
            .store(now, Ordering::Relaxed);
        let replayed: Vec<Record> = records
            .into_iter()
            .filter(|r| r.seq_no > committed)
            .collect();
        let translog_ops = replayed.len() as u64;
        let replay_ms = chrono::Utc::now().timestamp_millis();
        shard.replay(replayed, parse)?;
        let stop_ms = chrono::Utc::now().timestamp_millis();
        let _ = shard.recovery.set(crate::index::recovery::Recovery {
            existing_store,
            start_ms,
            stop_ms,
            files: if existing_store { files } else { Vec::new() },
            index_ms: replay_ms - start_ms,
            translog_ms: stop_ms - replay_ms,
            translog_ops,
        });
        Ok(shard)
    }

    /// How this opening found the shard.
    pub fn recovery(&self) -> Option<&crate::index::recovery::Recovery> {
        self.recovery.get()
    }

    fn open_writer(
        index: &Index,
        translog: Translog,
        max_seq_no: i64,
    ) -> Result<(Writer, (IndexReader, DocBuilder))> {
        // One indexing thread per core (at most 4): a single thread was the ingest bottleneck.
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 4);
        let writer: IndexWriter<QueuedDoc> =
            index.writer_with_num_threads(threads, threads * WRITER_MEMORY_PER_THREAD)?;
        // A crash mid-commit leaves files the last commit does not reference (e.g. `.del` files
        // of the same opstamp the replay is about to reach again); tantivy refuses to overwrite
        // them, so clear them before anything is written.
        writer.garbage_collect_files().wait()?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let builder = DocBuilder::new(Fields::new(&index.schema()), index.tokenizers().clone());
        Ok((
            Writer {
                index: index.clone(),
                writer,
                queue: Arc::default(),
                fields: builder.fields.clone(),
                translog,
                max_seq_no,
            },
            (reader, builder),
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
            let builder = self.doc_builder();
            for r in records {
                match &r.op {
                    Operation::Index {
                        id,
                        routing,
                        source,
                    } => {
                        let mut doc = parse(id, routing.as_deref(), source, &builder)?;
                        stamp(&fields, &mut doc, r.seq_no, r.version, r.primary_term);
                        w.writer.delete_term(Term::from_field_text(fields.id, id));
                        w.writer.add_document(w.queue.enqueue(doc))?;
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

    /// What documents for this shard are built with, outside its writer lock.
    pub fn doc_builder(&self) -> DocBuilder {
        self.reader.read().1.clone()
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
        match self.uncommitted(id) {
            Some(v) => Ok(Some(v)),
            None => self.lookup_committed(id),
        }
    }

    /// The version of `id` a write since the last refresh left: a live write, or a delete
    /// still within `GC_DELETES` (an older tombstone is dropped here).
    fn uncommitted(&self, id: &str) -> Option<DocVersion> {
        if let Some(v) = self.live.read().get(id) {
            return Some(v.clone());
        }
        let mut tombs = self.tombstones.lock();
        let (v, at) = tombs.get(id)?;
        if at.elapsed() < GC_DELETES {
            return Some(v.clone());
        }
        tombs.remove(id);
        None
    }

    /// What a write checks `id` against: [`Shard::current`], except that a committed copy is read
    /// from the `_seq_no`, `_primary_term` and `_version` columns, not from its stored document.
    /// Decompressing the stored block of every document a delete-by-query (or an overwriting
    /// bulk) named was most of its write cost, and the check needs the numbers only. A
    /// committed copy always has its `_source` stored (`DocBuilder`), so it counts as present:
    /// its `source` is an empty stand-in, which no write reads.
    fn current_for_write(
        &self,
        id: &str,
        committed: &mut CommittedVersions,
    ) -> Result<Option<DocVersion>> {
        if let Some(v) = self.uncommitted(id) {
            return Ok(Some(v));
        }
        match committed.find(id)? {
            Columns::Found(v) => Ok(Some(v)),
            Columns::Absent => Ok(None),
            // A segment without the columns (none is written so, but the stored document is
            // the record): read it as a GET does.
            Columns::Unreadable => self.lookup_committed(id),
        }
    }

    pub fn lookup_committed(&self, id: &str) -> Result<Option<DocVersion>> {
        let guard = self.reader.read();
        let (reader, builder) = &*guard;
        let fields = &*builder.fields;
        let searcher = reader.searcher();
        let Some((ord, doc)) = live_doc(&searcher, fields.id, id)? else {
            return Ok(None);
        };
        let stored: TantivyDocument = searcher.doc(tantivy::DocAddress::new(ord as u32, doc))?;
        let i64_of = |f| stored.get_first(f).and_then(|v| v.as_i64()).unwrap_or(0);
        let source = schema::stored_source(&stored, fields.source).map(|b| Arc::new(b.to_vec()));
        let routing = stored
            .get_first(fields.routing)
            .and_then(|v| v.as_str())
            .map(String::from);
        Ok(Some(DocVersion {
            seq_no: i64_of(fields.seq_no),
            primary_term: i64_of(fields.primary_term),
            version: i64_of(fields.version),
            source,
            routing,
        }))
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
        let deletes = ops
            .iter()
            .filter(|o| matches!(o, ShardOp::Delete { .. }))
            .count() as u64;
        let indexes = ops.len() as u64 - deletes;
        let st = &self.stats;
        st.index_current.fetch_add(indexes, Ordering::Relaxed);
        st.delete_current.fetch_add(deletes, Ordering::Relaxed);
        let (mut index_nanos, mut delete_nanos) = (0u64, 0u64);
        let (mut indexed, mut deleted, mut failed) = (0u64, 0u64, 0u64);
        let mut committed = CommittedVersions::new(self);
        // Sent in batches (`indexing_queue`), in order, each with its own opstamp.
        let mut to_tantivy = Vec::with_capacity(ops.len().min(indexing_queue::BATCH));
        for op in ops {
            let op_started = Instant::now();
            let (id, pre) = match &op {
                ShardOp::Index { id, pre, .. } | ShardOp::Delete { id, pre } => {
                    (id.clone(), pre.clone())
                }
            };
            let current = self.current_for_write(&id, &mut committed)?;
            let live = current.as_ref().filter(|c| c.source.is_some());
            let version = match check(
                &id,
                live,
                current.as_ref(),
                &pre,
                matches!(op, ShardOp::Delete { .. }),
                self.primary_term,
            ) {
                Ok(v) => v,
                Err(e) => {
                    if matches!(op, ShardOp::Index { .. }) {
                        failed += 1;
                    }
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
                    mut doc,
                    ..
                } => {
                    // Only an existing copy needs deleting: tantivy applies every delete term
                    // to every segment at commit, so skipping them keeps fresh ingest cheap.
                    if live.is_some() {
                        to_tantivy.push(UserOperation::Delete(Term::from_field_text(
                            w.fields.id,
                            &id,
                        )));
                    }
                    stamp(&w.fields, &mut doc, seq_no, version, self.primary_term);
                    to_tantivy.push(UserOperation::Add(w.queue.enqueue(doc)));
                    if to_tantivy.len() >= indexing_queue::BATCH {
                        w.queue.wait_for_room();
                        w.writer.run(to_tantivy.drain(..))?;
                    }
                    records.push(Record {
                        seq_no,
                        primary_term: self.primary_term,
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
                            primary_term: self.primary_term,
                            version,
                            source: Some(source),
                            routing,
                        },
                    );
                    results.push(Ok(OpResult {
                        id,
                        seq_no,
                        primary_term: self.primary_term,
                        version,
                        result: if live.is_some() { "updated" } else { "created" },
                    }));
                    indexed += 1;
                    index_nanos += op_started.elapsed().as_nanos() as u64;
                }
                ShardOp::Delete { id, .. } => {
                    if live.is_some() {
                        to_tantivy.push(UserOperation::Delete(Term::from_field_text(
                            w.fields.id,
                            &id,
                        )));
                    }
                    records.push(Record {
                        seq_no,
                        primary_term: self.primary_term,
                        version,
                        op: Operation::Delete { id: id.clone() },
                    });
                    let tomb = DocVersion {
                        seq_no,
                        primary_term: self.primary_term,
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
                        primary_term: self.primary_term,
                        version,
                        result: if live.is_some() {
                            "deleted"
                        } else {
                            "not_found"
                        },
                    }));
                    deleted += 1;
                    delete_nanos += op_started.elapsed().as_nanos() as u64;
                }
            }
            w.max_seq_no = seq_no;
        }
        if !to_tantivy.is_empty() {
            w.queue.wait_for_room();
            w.writer.run(to_tantivy)?;
        }
        st.index_current.fetch_sub(indexes, Ordering::Relaxed);
        st.delete_current.fetch_sub(deletes, Ordering::Relaxed);
        st.index_total.fetch_add(indexed, Ordering::Relaxed);
        st.index_nanos.fetch_add(index_nanos, Ordering::Relaxed);
        st.index_failed.fetch_add(failed, Ordering::Relaxed);
        st.delete_total.fetch_add(deleted, Ordering::Relaxed);
        st.delete_nanos.fetch_add(delete_nanos, Ordering::Relaxed);
        if !records.is_empty() {
            let bytes = w.translog.append(&records)?;
            st.translog_ops
                .fetch_add(records.len() as u64, Ordering::Relaxed);
            st.translog_bytes.fetch_add(bytes, Ordering::Relaxed);
            st.translog_modified_ms
                .store(chrono::Utc::now().timestamp_millis(), Ordering::Relaxed);
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
        let started = Instant::now();
        self.dirty.store(false, Ordering::Release);
        let mut prepared = w.writer.prepare_commit()?;
        prepared.set_payload(&serde_json::json!({ "max_seq_no": w.max_seq_no }).to_string());
        prepared.commit()?;
        self.reload_reader()?;
        self.live.write().clear();
        w.translog.roll_and_trim()?;
        self.unsynced.store(false, Ordering::Release);
        let now = chrono::Utc::now().timestamp_millis();
        self.last_refresh_ms.store(now, Ordering::Relaxed);
        let st = &self.stats;
        st.translog_ops.store(0, Ordering::Relaxed);
        st.translog_bytes.store(0, Ordering::Relaxed);
        st.translog_modified_ms.store(now, Ordering::Relaxed);
        st.refresh_total.fetch_add(1, Ordering::Relaxed);
        add_elapsed(&st.refresh_nanos, started.elapsed());
        self.maybe_merge_locked(w);
        Ok(())
    }

    /// `_flush`: a commit, counted as a flush (every commit is also a refresh here).
    pub fn flush(&self) -> Result<()> {
        let started = Instant::now();
        self.refresh()?;
        self.stats.flush_total.fetch_add(1, Ordering::Relaxed);
        add_elapsed(&self.stats.flush_nanos, started.elapsed());
        Ok(())
    }

    /// Starts the background merges the log merge policy proposes over the committed segments.
    /// Failing to start one is not an error: the segments stay as they are until the next commit.
    fn maybe_merge_locked(&self, w: &mut Writer) {
        let metas = match w.index.searchable_segment_metas() {
            Ok(m) => m,
            Err(e) => {
                log::warn!("shard [{}]: reading segments: {e}", self.dir.display());
                return;
            }
        };
        self.number_segments(&metas);
        let mut st = self.merges.lock();
        if st.paused > 0 {
            return;
        }
        let mergeable: Vec<SegmentMeta> = {
            let frozen = self.frozen.read();
            metas
                .into_iter()
                .filter(|m| !frozen.contains(&m.id()) && !st.merging.contains(&m.id()))
                .collect()
        };
        if mergeable.len() <= 1 && mergeable.iter().all(|m| !m.has_deletes()) {
            return;
        }
        for candidate in LogMergePolicy::default().compute_merge_candidates(&mergeable) {
            let sources: Vec<&SegmentMeta> = mergeable
                .iter()
                .filter(|m| candidate.0.contains(&m.id()))
                .collect();
            let (docs, bytes) = self.merge_size(&sources);
            let ids = candidate.0;
            let future = w.writer.merge(&ids);
            st.merging.extend(ids.iter().copied());
            st.running += 1;
            self.stats.merge_started(docs, bytes);
            let me = self.me.clone();
            let started = Instant::now();
            let spawned = std::thread::Builder::new()
                .name("quarry-merge".into())
                .spawn(move || {
                    let result = future.wait();
                    if let Some(shard) = me.upgrade() {
                        shard.background_merge_ended(&ids, docs, bytes, started, result);
                    }
                });
            if let Err(e) = spawned {
                // The merge runs on; only its accounting is lost, and the segments stay marked
                // as merging until the shard reopens.
                log::warn!("shard [{}]: merge watcher: {e}", self.dir.display());
            }
        }
    }

    /// Gives new segments the next generations and forgets the ones merged away.
    fn number_segments(&self, metas: &[SegmentMeta]) {
        let mut g = self.generations.lock();
        let (names, next) = &mut *g;
        names.retain(|id, _| metas.iter().any(|m| m.id() == *id));
        for m in metas {
            names.entry(m.id()).or_insert_with(|| {
                *next += 1;
                *next - 1
            });
        }
    }

    fn background_merge_ended(
        &self,
        ids: &[SegmentId],
        docs: u64,
        bytes: u64,
        started: Instant,
        result: tantivy::Result<Option<SegmentMeta>>,
    ) {
        if let Err(e) = &result {
            log::warn!("shard [{}]: merge failed: {e}", self.dir.display());
        }
        self.stats
            .merge_ended(docs, bytes, started.elapsed(), result.is_ok());
        {
            let mut st = self.merges.lock();
            for id in ids {
                st.merging.remove(id);
            }
            st.running -= 1;
        }
        self.merge_ended.notify_all();
        if let Ok(Some(meta)) = &result {
            self.number_segments_with(meta);
        }
        if result.is_ok() {
            // Searches move to the merged segment (tantivy saved it with the last commit's
            // payload), and what it makes possible may merge next.
            if let Err(e) = self.reload_reader() {
                log::warn!("shard [{}]: reload after merge: {e}", self.dir.display());
            }
            if let Some(w) = self.writer.lock().as_mut() {
                self.maybe_merge_locked(w);
            }
        }
    }

    /// A merged segment takes the next generation as soon as it exists.
    fn number_segments_with(&self, meta: &SegmentMeta) {
        let mut g = self.generations.lock();
        let (names, next) = &mut *g;
        names.entry(meta.id()).or_insert_with(|| {
            *next += 1;
            *next - 1
        });
    }

    /// Documents (deleted ones included, as Lucene counts a merge's input) and bytes on disk.
    fn merge_size(&self, sources: &[&SegmentMeta]) -> (u64, u64) {
        let dir = self.dir.join("index");
        let docs = sources.iter().map(|m| m.max_doc() as u64).sum();
        let bytes = sources
            .iter()
            .flat_map(|m| m.list_files())
            .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
            .map(|md| md.len())
            .sum();
        (docs, bytes)
    }

    /// `_forcemerge` on this shard: waits for running background merges (none start meanwhile),
    /// commits so every write is in a segment, merges as asked, then commits again when `flush`.
    /// The merged segment is saved by tantivy with the last commit's payload, so a crash at any
    /// point leaves a commit whose `max_seq_no` matches its segments and a translog past it.
    pub fn force_merge(
        &self,
        max_num_segments: Option<u32>,
        only_expunge_deletes: bool,
        flush: bool,
    ) -> Result<()> {
        let _one_at_a_time = self.force_merging.lock();
        {
            let mut st = self.merges.lock();
            st.paused += 1;
            while st.running > 0 {
                self.merge_ended.wait(&mut st);
            }
        }
        let merged = self.force_merge_paused(max_num_segments, only_expunge_deletes, flush);
        self.merges.lock().paused -= 1;
        merged?;
        if let Some(w) = self.writer.lock().as_mut() {
            self.maybe_merge_locked(w);
        }
        Ok(())
    }

    fn force_merge_paused(
        &self,
        max_num_segments: Option<u32>,
        only_expunge_deletes: bool,
        flush: bool,
    ) -> Result<()> {
        let (future, docs, bytes) = {
            let mut guard = self.writer.lock();
            let w = guard
                .as_mut()
                .ok_or_else(|| Error::internal("shard is closed"))?;
            self.commit_locked(w)?;
            let mergeable: Vec<SegmentMeta> = {
                let frozen = self.frozen.read();
                w.index
                    .searchable_segment_metas()?
                    .into_iter()
                    .filter(|m| !frozen.contains(&m.id()))
                    .collect()
            };
            let ids = force_merge_plan(&mergeable, max_num_segments, only_expunge_deletes);
            if ids.is_empty() {
                (None, 0, 0)
            } else {
                let sources: Vec<&SegmentMeta> =
                    mergeable.iter().filter(|m| ids.contains(&m.id())).collect();
                let (docs, bytes) = self.merge_size(&sources);
                self.stats.merge_started(docs, bytes);
                (Some(w.writer.merge(&ids)), docs, bytes)
            }
        };
        if let Some(future) = future {
            // The writer lock is released: writes and refreshes go on while the merge runs.
            let started = Instant::now();
            let result = future.wait();
            self.stats
                .merge_ended(docs, bytes, started.elapsed(), result.is_ok());
            if let Some(meta) = result? {
                self.number_segments_with(&meta);
            }
        }
        if flush {
            self.flush()
        } else {
            self.reload_reader()?;
            Ok(())
        }
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
                    primary_term: self.primary_term,
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
            let (new_writer, reader) = Self::open_writer(&index, translog, max_seq_no)?;
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

    /// Searches see the last commit; columns kept open for the readers it replaced are let go.
    fn reload_reader(&self) -> tantivy::Result<()> {
        self.reader.read().0.reload()?;
        crate::search::open_columns::sweep();
        Ok(())
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

    /// The segments searches see, by generation, named as Lucene names them (`_` and the
    /// generation in base 36).
    pub fn segments(&self) -> Result<Vec<SegmentInfo>> {
        let searcher = self.searcher();
        let committed = searcher.index().searchable_segment_metas()?;
        self.number_segments(&committed);
        let generations = self.generations.lock().0.clone();
        let dir = self.dir.join("index");
        let mut out = Vec::new();
        for reader in searcher.segment_readers() {
            let id = reader.segment_id();
            let meta = committed.iter().position(|m| m.id() == id);
            let generation = generations.get(&id).copied().unwrap_or(0);
            let size_in_bytes = meta
                .map(|i| {
                    committed[i]
                        .list_files()
                        .into_iter()
                        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
                        .map(|md| md.len())
                        .sum()
                })
                .unwrap_or(0);
            out.push(SegmentInfo {
                name: format!("_{}", base36(generation)),
                generation: generation as usize,
                num_docs: reader.num_docs(),
                deleted_docs: reader.num_deleted_docs(),
                size_in_bytes,
                committed: meta.is_some(),
            });
        }
        out.sort_by_key(|s| s.generation);
        Ok(out)
    }

    /// Counters plus what is read from the shard now.
    pub fn stats_snapshot(&self) -> Snapshot {
        let version_map_bytes = self
            .live
            .read()
            .iter()
            .map(|(id, v)| (id.len() + v.source.as_ref().map_or(0, |s| s.len()) + 64) as u64)
            .sum();
        Snapshot {
            segment_count: self.segment_count() as u64,
            version_map_bytes,
            now_ms: chrono::Utc::now().timestamp_millis(),
        }
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

    /// Records that the index closed with this shard: OpenSearch reallocates a closed index's
    /// shards, which starts a primary term of its own, so the opening after writes with the
    /// term after that one.
    pub fn record_closed(&self) -> Result<()> {
        let path = self.dir.join("shard.json");
        let state: ShardState = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let state = ShardState {
            primary_term: self.primary_term + 1,
            ..state
        };
        crate::util::fs::atomic_write(&path, &serde_json::to_vec(&state).expect("json"))?;
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
    primary_term: i64,
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
        let term = pre.if_primary_term.unwrap_or(primary_term);
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

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &Path) -> Arc<Shard> {
        let setup: TokenizerSetup = Arc::new(|_: &Index| {});
        Shard::open(dir, 0, &new_schema(), setup, &|id, routing, source, b| {
            Ok(b.build(id, routing, source, &[]))
        })
        .unwrap()
    }

    fn index(shard: &Shard, id: &str) {
        let source = br#"{"a":1}"#;
        let op = ShardOp::Index {
            id: id.into(),
            routing: None,
            source: Arc::new(source.to_vec()),
            doc: shard.doc_builder().build(id, None, source, &[]),
            pre: Preconditions::default(),
        };
        shard
            .apply(vec![op], "i", "u")
            .unwrap()
            .pop()
            .unwrap()
            .unwrap();
    }

    #[test]
    fn a_write_checks_committed_copies_by_their_columns() {
        let d = tempfile::tempdir().unwrap();
        let shard = open(d.path());
        index(&shard, "a");
        index(&shard, "a");
        index(&shard, "b");
        shard.refresh().unwrap();
        // Committed: the live map is empty, the numbers come from the columns and agree with
        // the stored document's.
        for id in ["a", "b"] {
            let columns = shard
                .current_for_write(id, &mut CommittedVersions::new(&shard))
                .unwrap()
                .unwrap();
            let stored = shard.lookup_committed(id).unwrap().unwrap();
            assert_eq!(
                (columns.seq_no, columns.primary_term, columns.version),
                (stored.seq_no, stored.primary_term, stored.version)
            );
            assert!(columns.source.is_some(), "a committed copy is present");
        }
        assert_eq!(
            shard
                .current_for_write("a", &mut CommittedVersions::new(&shard))
                .unwrap()
                .unwrap()
                .version,
            2
        );
        assert!(shard
            .current_for_write("zz", &mut CommittedVersions::new(&shard))
            .unwrap()
            .is_none());
        // A guarded delete of what the search saw succeeds once; the same guard then conflicts
        // with the tombstone.
        let b = shard
            .current_for_write("b", &mut CommittedVersions::new(&shard))
            .unwrap()
            .unwrap();
        let guarded = || ShardOp::Delete {
            id: "b".into(),
            pre: Preconditions {
                if_seq_no: Some(b.seq_no),
                if_primary_term: Some(b.primary_term),
                ..Preconditions::default()
            },
        };
        let first = shard.apply(vec![guarded()], "i", "u").unwrap();
        assert_eq!(first[0].as_ref().unwrap().result, "deleted");
        shard.refresh().unwrap();
        let again = shard.apply(vec![guarded()], "i", "u").unwrap();
        assert_eq!(again[0].as_ref().unwrap_err().status(), 409);
        assert!(shard
            .current_for_write("b", &mut CommittedVersions::new(&shard))
            .unwrap()
            .unwrap()
            .source
            .is_none());
    }

    #[test]
    fn force_merge_to_one_segment_keeps_documents_and_commit() {
        let d = tempfile::tempdir().unwrap();
        let shard = open(d.path());
        for i in 0..5 {
            index(&shard, &format!("d{i}"));
            shard.refresh().unwrap();
        }
        let delete = ShardOp::Delete {
            id: "d0".into(),
            pre: Preconditions::default(),
        };
        shard.apply(vec![delete], "i", "u").unwrap();
        index(&shard, "d5");
        assert!(shard.segment_count() > 1);
        shard.force_merge(Some(1), false, true).unwrap();
        assert_eq!(shard.segment_count(), 1);
        assert_eq!(shard.doc_count(), 5);
        assert_eq!(shard.deleted_count(), 0);
        let segs = shard.segments().unwrap();
        assert_eq!(segs.len(), 1);
        assert!(segs[0].committed && segs[0].num_docs == 5 && segs[0].size_in_bytes > 0);
        // Generations keep counting: the merged segment comes after every one it replaced.
        assert!(segs[0].generation >= 5, "{segs:?}");
        assert_eq!(
            segs[0].name,
            format!("_{}", base36(segs[0].generation as u64))
        );
        let merges = shard.stats.merges();
        assert!(merges["total"].as_u64().unwrap() >= 1);
        assert_eq!(merges["current"], 0);
        assert_eq!(shard.stats.flush()["total"], 1);
        assert_eq!(shard.stats.indexing()["index_total"], 6);
        assert_eq!(shard.stats.indexing()["delete_total"], 1);
        shard.close().unwrap();
        drop(shard);
        // The merged segment was committed with the shard's payload: nothing is replayed twice.
        let again = open(d.path());
        assert_eq!(again.doc_count(), 5);
        assert_eq!(again.max_seq_no(), 6);
        assert_eq!(again.segment_count(), 1);
    }

    #[test]
    fn expunge_merges_only_segments_with_enough_deletes() {
        let d = tempfile::tempdir().unwrap();
        let shard = open(d.path());
        for i in 0..3 {
            index(&shard, &format!("a{i}"));
        }
        shard.refresh().unwrap();
        index(&shard, "b0");
        shard.refresh().unwrap();
        let delete = ShardOp::Delete {
            id: "a0".into(),
            pre: Preconditions::default(),
        };
        shard.apply(vec![delete], "i", "u").unwrap();
        shard.refresh().unwrap();
        let before = shard.segment_count();
        shard.force_merge(None, true, true).unwrap();
        assert_eq!(shard.deleted_count(), 0);
        assert_eq!(shard.doc_count(), 3);
        assert_eq!(shard.segment_count(), before);
    }

    #[test]
    fn each_opening_writes_with_the_next_primary_term() {
        let d = tempfile::tempdir().unwrap();
        let term_of = |shard: &Shard, id: &str| shard.current(id).unwrap().unwrap().primary_term;
        let shard = open(d.path());
        index(&shard, "a");
        assert_eq!(term_of(&shard, "a"), 1);
        shard.close().unwrap();
        drop(shard);
        let shard = open(d.path());
        index(&shard, "b");
        assert_eq!(term_of(&shard, "b"), 2);
        assert_eq!(
            term_of(&shard, "a"),
            1,
            "a document keeps the term it was written with"
        );
        // Without a clean close too (the translog replays with the recorded terms).
        drop(shard);
        let shard = open(d.path());
        assert_eq!(term_of(&shard, "b"), 2);
        index(&shard, "c");
        assert_eq!(term_of(&shard, "c"), 3);
    }

    #[test]
    fn base36_names() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
    }
}
