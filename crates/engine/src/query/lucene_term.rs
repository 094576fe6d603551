//! A term leaf scored exactly as OpenSearch's default similarity (LegacyBM25Similarity over
//! Lucene's BM25Similarity): per-field `docCount` and `avgdl`, idf in f64, Lucene's inverse-norm
//! cache and its `w - w / (1 + freq * inv)` form (tantivy-napi.md §7.2, §7.6). Postings,
//! fieldnorms and doc iteration stay tantivy's.

use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::postings::{BlockSegmentPostings, Postings, SegmentPostings, TermInfo};
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, Term, TERMINATED};

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Docs with the field, per immutable segment (deleted docs included, as Lucene's `docCount`).
pub(crate) fn segment_doc_count(
    reader: &SegmentReader,
    field: Field,
    has_norms: bool,
) -> tantivy::Result<u64> {
    Ok(segment_field_stats(reader, field, has_norms)?.doc_count)
}

/// A segment's `docCount` and `sumTotalTermFreq` of a field, cached per immutable segment: each
/// term of a query asks for them on every segment, and the token total went through the
/// segment's inverted-index map (a lock and a hash) each time.
fn segment_field_stats(
    reader: &SegmentReader,
    field: Field,
    has_norms: bool,
) -> tantivy::Result<FieldStats> {
    /// Per segment and field id.
    type Cache = Mutex<FxHashMap<(SegmentId, u32), FieldStats>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (reader.segment_id(), field.field_id());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(&stats) = cache.lock().get(&key) {
        return Ok(stats);
    }
    let doc_count = count_docs_with(reader, field, has_norms)?;
    let sum_ttf = reader.inverted_index(field)?.total_num_tokens();
    let mut c = cache.lock();
    if c.len() > 100_000 {
        c.clear();
    }
    let stats = FieldStats { doc_count, sum_ttf };
    c.insert(key, stats);
    Ok(stats)
}

fn count_docs_with(reader: &SegmentReader, field: Field, has_norms: bool) -> tantivy::Result<u64> {
    let n = if has_norms {
        let Some(norms) = reader.fieldnorms_readers().get_field(field)? else {
            return Ok(0);
        };
        (0..reader.max_doc())
            .filter(|&d| norms.fieldnorm_id(d) != 0)
            .count() as u64
    } else {
        // Norm-less (keyword, boolean) fields: docs with a value in the column when there is one
        // (multi-valued keywords); else one token per value, the doc count of single values.
        let name = reader.schema().get_field_name(field).to_string();
        match reader.fast_fields().str(&name).ok().flatten() {
            Some(col) => {
                let index = &col.ords().index;
                (0..reader.max_doc())
                    .filter(|&d| index.has_value(d))
                    .count() as u64
            }
            None => reader.inverted_index(field)?.total_num_tokens(),
        }
    };
    Ok(n)
}

/// Lucene's per-field collection statistics.
#[derive(Clone, Copy)]
pub struct FieldStats {
    pub doc_count: u64,
    pub sum_ttf: u64,
}

pub fn field_stats(searcher: &Searcher, field: Field) -> tantivy::Result<FieldStats> {
    let has_norms = searcher.schema().get_field_entry(field).has_fieldnorms();
    let mut s = FieldStats {
        doc_count: 0,
        sum_ttf: 0,
    };
    for r in searcher.segment_readers() {
        let seg = segment_field_stats(r, field, has_norms)?;
        s.doc_count += seg.doc_count;
        s.sum_ttf += seg.sum_ttf;
    }
    Ok(s)
}

/// Term and field statistics a `dfs_query_then_fetch` gathers from every shard of every target
/// index before the query phase (OpenSearch's `AggregatedDfs`): keyed by field name and term
/// bytes, as Lucene's `Term` is, so the same field of different indices adds up.
#[derive(Default, Debug)]
pub struct DfsStats {
    fields: FxHashMap<String, (u64, u64)>,
    terms: FxHashMap<(String, Vec<u8>), u64>,
}

impl DfsStats {
    /// Adds one shard's statistics (OpenSearch's `aggregateDfs`: sums per term and field).
    pub fn add(&mut self, shard: DfsStats) {
        for (f, (dc, ttf)) in shard.fields {
            let e = self.fields.entry(f).or_default();
            e.0 += dc;
            e.1 += ttf;
        }
        for (t, df) in shard.terms {
            *self.terms.entry(t).or_default() += df;
        }
    }
}

enum DfsMode {
    /// The DFS phase on one shard: what the leaves' weights ask for is written down.
    Record(DfsStats),
    /// The query and fetch phases: the gathered numbers replace the shard's own.
    Global(Arc<DfsStats>),
}

thread_local! {
    // Weights are built synchronously on the thread that runs the shard's phase, so the mode
    // set around that work is what every leaf built inside it sees.
    static DFS: std::cell::RefCell<Option<DfsMode>> = const { std::cell::RefCell::new(None) };
}

/// Restores the previous mode when a phase ends, even by an early return or a panic.
struct DfsScope(Option<DfsMode>);

impl DfsScope {
    fn enter(mode: DfsMode) -> Self {
        DfsScope(DFS.with(|d| d.borrow_mut().replace(mode)))
    }
    fn leave(&mut self) -> Option<DfsMode> {
        DFS.with(|d| std::mem::replace(&mut *d.borrow_mut(), self.0.take()))
    }
}

impl Drop for DfsScope {
    fn drop(&mut self) {
        self.leave();
    }
}

/// Runs `f` (which builds the shard's weights) as OpenSearch's DFS phase does, returning the
/// statistics the leaves asked for: a term's only when it occurs on the shard, the last one asked
/// for when a term is asked twice, a field's when the field has documents there.
pub fn record_dfs<R>(f: impl FnOnce() -> R) -> (R, DfsStats) {
    let mut scope = DfsScope::enter(DfsMode::Record(DfsStats::default()));
    let r = f();
    let stats = match scope.leave() {
        Some(DfsMode::Record(s)) => s,
        _ => DfsStats::default(),
    };
    (r, stats)
}

/// Runs `f` with the gathered statistics in place of each shard's own, where they have them.
pub fn with_dfs<R>(stats: &Arc<DfsStats>, f: impl FnOnce() -> R) -> R {
    let _scope = DfsScope::enter(DfsMode::Global(stats.clone()));
    f()
}

/// The collection statistics a leaf scores a field with (`IndexSearcher.collectionStatistics`).
pub fn collection_stats(searcher: &Searcher, field: Field) -> tantivy::Result<FieldStats> {
    let local = field_stats(searcher, field)?;
    DFS.with(|d| {
        let mut d = d.borrow_mut();
        let Some(mode) = d.as_mut() else {
            return Ok(local);
        };
        let name = searcher.schema().get_field_name(field);
        Ok(match mode {
            DfsMode::Record(s) => {
                if local.doc_count > 0 {
                    s.fields
                        .insert(name.to_string(), (local.doc_count, local.sum_ttf));
                }
                local
            }
            DfsMode::Global(s) => match s.fields.get(name) {
                Some(&(doc_count, sum_ttf)) => FieldStats { doc_count, sum_ttf },
                None => local,
            },
        })
    })
}

/// The doc freq a leaf scores a term with (`IndexSearcher.termStatistics`): `local` is the
/// shard's own (or a rewrite's blended one); Lucene asks only for terms the shard has.
pub fn term_doc_freq(searcher: &Searcher, term: &Term, local: u64) -> u64 {
    if local == 0 {
        return 0;
    }
    DFS.with(|d| {
        let mut d = d.borrow_mut();
        let Some(mode) = d.as_mut() else {
            return local;
        };
        let key = (
            searcher.schema().get_field_name(term.field()).to_string(),
            term.serialized_value_bytes().to_vec(),
        );
        match mode {
            DfsMode::Record(s) => {
                s.terms.insert(key, local);
                local
            }
            DfsMode::Global(s) => s.terms.get(&key).copied().unwrap_or(local),
        }
    })
}

/// Lucene's BM25 idf: computed in double, returned as float.
pub fn idf(df: u64, doc_count: u64) -> f32 {
    let (n, df) = (doc_count.max(df) as f64, df as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// The inverse-norm cache of `BM25Scorer`, evaluated in Lucene's operation order. It depends
/// on the avgdl alone, which a field keeps until its segments change, so the tables are kept
/// by avgdl (each query term built 256 divisions otherwise).
pub fn norm_cache(avgdl: f32) -> Arc<[f32; 256]> {
    static TABLES: OnceLock<Mutex<FxHashMap<u32, Arc<[f32; 256]>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(t) = tables.lock().get(&avgdl.to_bits()) {
        return t.clone();
    }
    let table = compute_norm_cache(avgdl);
    let mut t = tables.lock();
    if t.len() >= 1024 {
        // Every refresh of a growing index moves its avgdl: start over rather than track them.
        t.clear();
    }
    t.insert(avgdl.to_bits(), table.clone());
    table
}

fn compute_norm_cache(avgdl: f32) -> Arc<[f32; 256]> {
    let mut cache = [0f32; 256];
    for (i, c) in cache.iter_mut().enumerate() {
        let len = FieldNormReader::id_to_fieldnorm(i as u8) as f32;
        *c = 1f32 / (K1 * ((1.0 - B) + B * len / avgdl));
    }
    Arc::new(cache)
}

#[derive(Clone, Debug)]
pub struct LuceneTermQuery {
    term: Term,
    /// A doc freq replacing the term's own (blended multi-term rewrites).
    doc_freq: Option<u64>,
    /// The query's own boost (inside the weight, so `explain` prints it as Lucene does).
    boost: f32,
}

impl LuceneTermQuery {
    pub fn new(term: Term) -> Self {
        LuceneTermQuery {
            term,
            doc_freq: None,
            boost: 1.0,
        }
    }

    pub fn with_boost(mut self, boost: f32) -> Self {
        self.boost = boost;
        self
    }

    pub fn with_doc_freq(mut self, df: u64) -> Self {
        self.doc_freq = Some(df);
        self
    }

    pub fn term(&self) -> &Term {
        &self.term
    }

    pub fn boost(&self) -> f32 {
        self.boost
    }

    /// Whether every doc holding the term scores the same: its field keeps neither freqs nor
    /// norms (a keyword), so BM25 sees freq 1 and one length everywhere, as Lucene does for a
    /// field indexed with docs only and `norms: false`.
    pub fn scores_uniformly(&self, schema: &tantivy::schema::Schema) -> bool {
        uniform_field(schema, self.term.field())
    }
}

fn uniform_field(schema: &tantivy::schema::Schema, field: tantivy::schema::Field) -> bool {
    let entry = schema.get_field_entry(field);
    !entry.has_fieldnorms()
        && entry.field_type().get_index_record_option() == Some(IndexRecordOption::Basic)
}

impl Query for LuceneTermQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.lucene_weight(scoring)?))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

impl LuceneTermQuery {
    /// The weight as its own type, which pruning trees keep (`block_max`).
    pub(crate) fn lucene_weight(
        &self,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<LuceneTermWeight> {
        let field = self.term.field();
        let mut infos = None;
        let stats = match scoring {
            EnableScoring::Enabled { searcher, .. } => {
                let fs = collection_stats(searcher, field)?;
                let local = match self.doc_freq {
                    Some(df) => df,
                    None => {
                        // Each segment's entry, kept: the scorers, bounds and counts then open
                        // the postings from it instead of looking the term up again.
                        let mut found = Vec::with_capacity(searcher.segment_readers().len());
                        let mut df = 0u64;
                        for r in searcher.segment_readers() {
                            let info = r.inverted_index(field)?.get_term_info(&self.term)?;
                            df += info.as_ref().map_or(0, |i| i.doc_freq as u64);
                            found.push((r.segment_id(), info));
                        }
                        infos = Some(found.into());
                        df
                    }
                };
                let df = term_doc_freq(searcher, &self.term, local);
                let avgdl = if fs.doc_count == 0 {
                    1.0
                } else {
                    (fs.sum_ttf as f64 / fs.doc_count as f64) as f32
                };
                Some(Stats {
                    idf: idf(df, fs.doc_count),
                    cache: norm_cache(avgdl),
                    df,
                    doc_count: fs.doc_count,
                    avgdl,
                })
            }
            EnableScoring::Disabled { .. } => None,
        };
        let uniform = match scoring {
            EnableScoring::Enabled { searcher, .. } => uniform_field(searcher.schema(), field),
            EnableScoring::Disabled { .. } => false,
        };
        Ok(LuceneTermWeight {
            term: self.term.clone(),
            infos,
            stats,
            boost: self.boost,
            uniform,
        })
    }
}

#[derive(Clone)]
struct Stats {
    idf: f32,
    cache: Arc<[f32; 256]>,
    df: u64,
    doc_count: u64,
    avgdl: f32,
}

/// A segment, and the term's entry in it (`None` where the segment lacks the term).
type SegmentTermInfo = (SegmentId, Option<TermInfo>);

#[derive(Clone)]
pub(crate) struct LuceneTermWeight {
    term: Term,
    /// The term's entry in each segment of the searcher the weight was built on, when that
    /// build looked them up (to sum the doc freqs).
    infos: Option<Arc<[SegmentTermInfo]>>,
    stats: Option<Stats>,
    boost: f32,
    /// Every posting scores the same (`LuceneTermQuery::scores_uniformly`): the scorer is a
    /// `ConstantScorer`, so a page by score is the matches with the smallest `_seq_no`.
    uniform: bool,
}

impl LuceneTermWeight {
    /// The term's entry in `reader`'s segment: the one looked up when the weight was built, or
    /// a lookup now.
    fn term_info(&self, reader: &SegmentReader) -> tantivy::Result<Option<TermInfo>> {
        let id = reader.segment_id();
        if let Some((_, info)) = self
            .infos
            .iter()
            .flat_map(|i| i.iter())
            .find(|(s, _)| *s == id)
        {
            return Ok(info.clone());
        }
        Ok(reader
            .inverted_index(self.term.field())?
            .get_term_info(&self.term)?)
    }

    fn postings(&self, reader: &SegmentReader) -> tantivy::Result<Option<SegmentPostings>> {
        let option = if self.stats.is_some() {
            IndexRecordOption::WithFreqs
        } else {
            IndexRecordOption::Basic
        };
        let Some(info) = self.term_info(reader)? else {
            return Ok(None);
        };
        Ok(Some(
            reader
                .inverted_index(self.term.field())?
                .read_postings_from_terminfo(&info, option)?,
        ))
    }

    /// The term's postings in `reader`'s segment a block at a time, docs only.
    pub(crate) fn block_postings(
        &self,
        reader: &SegmentReader,
    ) -> tantivy::Result<Option<BlockSegmentPostings>> {
        let Some(info) = self.term_info(reader)? else {
            return Ok(None);
        };
        Ok(Some(
            reader
                .inverted_index(self.term.field())?
                .read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?,
        ))
    }

    pub(crate) fn term(&self) -> &Term {
        &self.term
    }

    /// The term's doc freq in `reader`'s segment (deleted docs included), from the entry the
    /// weight looked up when it was built where it did.
    pub(crate) fn doc_freq(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        Ok(self.term_info(reader)?.map_or(0, |i| i.doc_freq))
    }

    /// Scores a `(freq, norm id)` pair as this weight's scorers under `boost` score a doc
    /// holding it (`None` when the weight does not score).
    pub(crate) fn pair_scorer(&self, boost: Score) -> Option<PairScorer> {
        let s = self.stats.as_ref()?;
        let boost = boost * super::wrappers::explain_boost();
        Some(PairScorer {
            weight: self.score_weight(s, boost),
            cache: s.cache.clone(),
        })
    }

    /// Lucene's `boost * idf * (k1 + 1)`, in its operation order.
    fn score_weight(&self, stats: &Stats, boost: Score) -> f32 {
        ((boost * self.boost) * (1.0 + K1)) * stats.idf
    }

    pub(crate) fn make_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Option<LuceneTermScorer>> {
        let Some(postings) = self.postings(reader)? else {
            return Ok(None);
        };
        let norms = reader
            .fieldnorms_readers()
            .get_field(self.term.field())?
            .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
        // Inside an explanation, the boosts of the queries above (1 otherwise).
        let boost = boost * super::wrappers::explain_boost();
        let (weight, cache) = match &self.stats {
            Some(s) => (self.score_weight(s, boost), s.cache.clone()),
            None => (0.0, Arc::new([0f32; 256])),
        };
        Ok(Some(LuceneTermScorer {
            postings,
            norms,
            weight,
            cache,
            scoring: self.stats.is_some(),
        }))
    }
}

impl Weight for LuceneTermWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let scorer = self.make_scorer(reader, boost)?;
        if let (true, Some(stats)) = (self.uniform, &self.stats) {
            // Freq 1 and the one length of a field without norms, in every segment alike
            // (one without the term included: a page spans segments with one score).
            let inv = stats.cache[FieldNormReader::fieldnorm_to_id(1) as usize];
            let boost = boost * super::wrappers::explain_boost();
            let score = bm25(self.score_weight(stats, boost), inv, 1);
            let docs: Box<dyn Scorer> = match scorer {
                Some(s) => Box::new(s),
                None => Box::new(tantivy::query::EmptyScorer),
            };
            return Ok(Box::new(super::constant::ConstantScorer::new(docs, score)));
        }
        Ok(match scorer {
            Some(s) => Box::new(s),
            None => Box::new(tantivy::query::EmptyScorer),
        })
    }

    /// Lucene's explanation of a BM25 term score, worded and nested as OpenSearch prints it.
    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = super::positioned_on(self.make_scorer(reader, 1.0)?, doc)?;
        let score = s.score();
        let field = reader
            .schema()
            .get_field_name(self.term.field())
            .to_string();
        let text = match self.term.value().as_str() {
            Some(t) => t.to_string(),
            None => match self.term.value().as_bool() {
                Some(b) => (if b { "T" } else { "F" }).to_string(),
                None => format!("{:?}", self.term.serialized_value_bytes()),
            },
        };
        let mut top = Explanation::new_with_string(
            format!("weight({field}:{text} in {doc}) [PerFieldSimilarity], result of:"),
            score,
        );
        let Some(st) = &self.stats else {
            return Ok(top);
        };
        let freq = s.postings.term_freq() as f32;
        let dl = FieldNormReader::id_to_fieldnorm(s.norms.fieldnorm_id(doc)) as f32;
        // BM25Scorer.explainTF: the tf through the inverse norm, in float (1 ulp off the
        // plain quotient now and then).
        let inv = 1f32 / (K1 * ((1.0 - B) + B * dl / st.avgdl));
        let tf = 1f32 - 1f32 / (1f32 + freq * inv);
        let mut sc = Explanation::new_with_string(
            format!("score(freq={freq:?}), computed as boost * idf * tf from:"),
            score,
        );
        sc.add_const(
            "boost",
            (super::wrappers::explain_boost() * self.boost) * (1.0 + K1),
        );
        let mut idf_e = Explanation::new(
            "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
            st.idf,
        );
        idf_e.add_const("n, number of documents containing term", st.df as f32);
        idf_e.add_const(
            "N, total number of documents with field",
            st.doc_count as f32,
        );
        sc.add_detail(idf_e);
        let mut tf_e = Explanation::new(
            "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:",
            tf,
        );
        tf_e.add_const("freq, occurrences of term within document", freq);
        tf_e.add_const("k1, term saturation parameter", K1);
        tf_e.add_const("b, length normalization parameter", B);
        tf_e.add_const(dl_description(s.norms.fieldnorm_id(doc)), dl);
        tf_e.add_const("avgdl, average length of field", st.avgdl);
        sc.add_detail(tf_e);
        top.add_detail(sc);
        Ok(top)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let Some(mut postings) = self.postings(reader)? else {
            return Ok(0);
        };
        match reader.alive_bitset() {
            Some(alive) => Ok(postings.count(alive)),
            None => Ok(postings.doc_freq()),
        }
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        super::block_max::for_each_pruning(
            Some(&super::block_max::PruneNode::Term(self.clone())),
            || self.scorer(reader, 1.0),
            reader,
            threshold,
            callback,
        )
    }
}

/// A term's BM25 arithmetic without its postings: [`LuceneTermScorer::score_of`].
pub(crate) struct PairScorer {
    weight: f32,
    cache: Arc<[f32; 256]>,
}

impl PairScorer {
    #[inline]
    pub(crate) fn score(&self, freq: u32, norm_id: u8) -> Score {
        bm25(self.weight, self.cache[norm_id as usize], freq)
    }
}

pub(crate) struct LuceneTermScorer {
    postings: SegmentPostings,
    norms: FieldNormReader,
    weight: f32,
    cache: Arc<[f32; 256]>,
    scoring: bool,
}

impl DocSet for LuceneTermScorer {
    fn advance(&mut self) -> DocId {
        self.postings.advance()
    }
    fn seek(&mut self, target: DocId) -> DocId {
        self.postings.seek(target)
    }
    fn doc(&self) -> DocId {
        self.postings.doc()
    }
    fn size_hint(&self) -> u32 {
        self.postings.size_hint()
    }
}

impl Scorer for LuceneTermScorer {
    fn score(&mut self) -> Score {
        if !self.scoring || self.doc() == TERMINATED {
            return 0.0;
        }
        self.score_of(
            self.postings.term_freq(),
            self.norms.fieldnorm_id(self.doc()),
        )
    }
}

impl LuceneTermScorer {
    /// `1 + freq * normInverse` of the current doc, below which its score cannot pass
    /// `threshold` (see [`LuceneTermScorer::score_bar`]): the score without its division.
    #[inline]
    pub(crate) fn denominator(&self) -> f64 {
        let inv = self.cache[self.norms.fieldnorm_id(self.doc()) as usize];
        (1.0 + self.postings.term_freq() as f32 * inv) as f64
    }

    /// A `denominator` below which a doc scores at most `threshold`: `w - w / d > t` is
    /// `d > w / (w - t)`, and the bar is taken for `t` lowered by `margin` times the weight, far
    /// more than the few ulps the float score can be off by. `None` where no bar applies (no
    /// threshold yet, or one the weight cannot pass, which the block bounds already decide).
    pub(crate) fn score_bar(&self, threshold: Score, margin: f64) -> Option<f64> {
        let (w, t) = (self.weight as f64, threshold as f64);
        (self.scoring && t.is_finite() && t >= 0.0 && t < w).then(|| w / (w - t + w * margin))
    }

    /// The score of a doc with this freq and norm (and an upper bound for docs with lower freqs
    /// or longer fields: every step of the float arithmetic is monotonic).
    #[inline]
    pub(crate) fn score_of(&self, freq: u32, norm_id: u8) -> Score {
        bm25(self.weight, self.cache[norm_id as usize], freq)
    }
}

/// Lucene's `BM25Scorer.score`: `weight - weight / (1 + freq * normInverse)`.
#[inline]
fn bm25(weight: f32, inv: f32, freq: u32) -> Score {
    weight - weight / (1f32 + freq as f32 * inv)
}

/// BM25Scorer.explainTF's wording of the length: norms past byte 39 encode lengths only
/// approximately (tantivy's norm ids are Lucene's bytes).
pub(crate) fn dl_description(norm_id: u8) -> &'static str {
    if norm_id > 39 {
        "dl, length of field (approximate)"
    } else {
        "dl, length of field"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lucene_numbers() {
        // freq 1 in a doc of average length: (1 + k1) * idf * 1 / (1 + k1) = idf.
        let idf5 = idf(1, 5);
        let w = (1.0f32 * (1.0 + K1)) * idf5;
        let cache = norm_cache(2.0);
        let s = w - w / (1f32 + 1.0 * cache[2]);
        assert!((s - idf5).abs() < 1e-6, "{s} vs {idf5}");
        // OpenSearch prints 0.2876821 for a term in the only doc of the field.
        assert_eq!(format!("{:?}", idf(1, 1)), "0.2876821");
    }
}
