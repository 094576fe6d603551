//! Top-k by score without scoring every match: block-max pruning (Lucene's MaxScore, windowed
//! as its `MaxScoreBulkScorer`) for term leaves and their disjunctions (`match` OR, should-only
//! `bool`, `dis_max`, `multi_match` best_fields, boosts around them).
//!
//! tantivy's Block-WAND needs its own BM25 scorer and keeps the block maxima private, so the
//! bounds are Quarry's own: per segment and term, each block of 128 postings keeps the
//! Pareto-maximal `(term freq, norm id)` pairs of its docs (a Lucene BM25 term score grows with
//! the freq and shrinks with the length, so one of them scores highest whatever the query's
//! idf, boost and avgdl). Cached per segment, since segments never change.
//!
//! Scores stay exactly the exhaustive ones: a doc that can still enter the top k is scored by
//! every leaf and combined with the combiners' own arithmetic (double sums, dis_max's float max
//! plus the others' double sum times tie); pruning only skips docs whose upper bound cannot reach
//! the collector's threshold (with a relative margin far wider than float rounding).

use super::combine::{DisMaxQuery, SumQuery};
use super::constant::BitDocs;
use super::filtered::FilteredQuery;
use super::lucene_term::{LuceneTermQuery, LuceneTermScorer, LuceneTermWeight};
use super::wrappers::BoostedQuery;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::query::{EnableScoring, Query, Scorer, Weight};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

/// More leaves than this are left to the exhaustive union (each pruned doc re-evaluates the
/// tree's bound once per non-essential leaf).
const MAX_LEAVES: usize = 16;

/// The most the cached bounds may hold (about 1/16 of a byte per posting).
const CACHE_BYTES: usize = 32 << 20;

/// Blocks with more Pareto points keep only their corner `(max freq, min norm)`.
const MAX_POINTS: usize = 8;

/// Beside other leaves, a leaf with more block points than this over the shard does not prime.
const PRIME_MAX_POINTS: usize = 4096;

/// A bound must exceed the threshold by this much (relative) before a doc counts as beaten:
/// far above the few ulps double sums and float casts can move a score.
const MARGIN: f64 = 1e-5;

/// The doc of a point no doc need hold (a block's corner kept in place of its many points).
const NO_DOC: DocId = DocId::MAX;

/// One term's per-block score bounds in one segment.
struct TermBlocks {
    /// The last doc of each block.
    last_docs: Vec<DocId>,
    /// `points[starts[b]..starts[b + 1]]` are block `b`'s `(freq, norm id)` pairs.
    starts: Vec<u32>,
    points: Vec<(u32, u8)>,
    /// A doc holding each point's freq and norm ([`NO_DOC`] for a corner): the docs whose
    /// scores [`PruneNode::prime`] knows before any posting is read.
    point_docs: Vec<DocId>,
}

impl TermBlocks {
    fn compute(reader: &SegmentReader, term: &Term) -> tantivy::Result<TermBlocks> {
        let mut out = TermBlocks {
            last_docs: Vec::new(),
            starts: vec![0],
            points: Vec::new(),
            point_docs: Vec::new(),
        };
        let inverted = reader.inverted_index(term.field())?;
        let Some(mut block) = inverted.read_block_postings(term, IndexRecordOption::WithFreqs)?
        else {
            return Ok(out);
        };
        let norms = reader
            .fieldnorms_readers()
            .get_field(term.field())?
            .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
        let total = block.doc_freq() as usize;
        let mut seen = 0;
        let mut pairs: Vec<(u8, u32, DocId)> = Vec::with_capacity(128);
        while seen < total {
            let docs = block.docs();
            if docs.is_empty() {
                break;
            }
            pairs.clear();
            for (i, &doc) in docs.iter().enumerate() {
                // `freq(i)` is 1 where the field records no freqs, as the scorer reads it.
                pairs.push((norms.fieldnorm_id(doc), block.freq(i), doc));
            }
            seen += docs.len();
            out.last_docs.push(docs[docs.len() - 1]);
            pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
            let start = out.points.len();
            let mut best = 0;
            for &(norm, freq, doc) in &pairs {
                if freq > best {
                    out.points.push((freq, norm));
                    out.point_docs.push(doc);
                    best = freq;
                }
            }
            if out.points.len() - start > MAX_POINTS {
                out.points.truncate(start);
                out.point_docs.truncate(start);
                out.points.push((best, pairs[0].0));
                out.point_docs.push(NO_DOC);
            }
            out.starts.push(out.points.len() as u32);
            block.advance();
        }
        Ok(out)
    }

    /// Heap bytes the bounds hold.
    fn bytes(&self) -> usize {
        self.last_docs.len() * 4 + self.starts.len() * 4 + self.points.len() * 12 + 64
    }

    fn get(reader: &SegmentReader, term: &Term) -> tantivy::Result<Arc<TermBlocks>> {
        /// The bounds of every cached term by segment, and their bytes. Keyed by segment
        /// first, so a lookup borrows the term rather than cloning it into a key.
        type Cache = Mutex<(
            FxHashMap<SegmentId, FxHashMap<Term, Arc<TermBlocks>>>,
            usize,
        )>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let segment = reader.segment_id();
        if let Some(b) = cache.lock().0.get(&segment).and_then(|m| m.get(term)) {
            return Ok(b.clone());
        }
        let blocks = Arc::new(TermBlocks::compute(reader, term)?);
        let mut c = cache.lock();
        if c.1 + blocks.bytes() > CACHE_BYTES {
            // Segments come and go with merges; a full cache starts over rather than tracking
            // them (a term's bounds cost one pass over its postings to rebuild).
            c.0.clear();
            c.1 = 0;
        }
        c.1 += blocks.bytes();
        if let Some(old) =
            c.0.entry(segment)
                .or_default()
                .insert(term.clone(), blocks.clone())
        {
            c.1 -= old.bytes();
        }
        Ok(blocks)
    }
}

/// A threshold just below a score `kth` of at least `k` docs: by far more than the float
/// arithmetic of a score (or of a boost applied to it) can move one, so no doc at or above it
/// is turned away, ties included.
fn below(kth: f64) -> Score {
    if kth > 0.0 {
        (kth * (1.0 - 4.0 * MARGIN)) as f32
    } else {
        f32::NEG_INFINITY
    }
}

/// A pruning-capable query tree, its term weights built once with the query's statistics.
#[derive(Clone)]
pub(crate) enum PruneNode {
    Term(LuceneTermWeight),
    Sum(Vec<PruneNode>),
    DisMax(Vec<PruneNode>, f32),
    /// A boost, passed down to the leaves as tantivy's `BoostWeight` passes it.
    Boost(Box<PruneNode>, f32),
}

impl PruneNode {
    /// The segment's shape of the tree, its leaves appended to `leaves`.
    fn build(
        &self,
        reader: &SegmentReader,
        boost: Score,
        leaves: &mut Vec<Leaf>,
    ) -> tantivy::Result<Tree> {
        Ok(match self {
            PruneNode::Term(w) => match w.make_scorer(reader, boost)? {
                Some(scorer) => {
                    let blocks = TermBlocks::get(reader, w.term())?;
                    leaves.push(Leaf {
                        block_bounds: vec![f32::NAN; blocks.last_docs.len()],
                        blocks,
                        scorer,
                        block: 0,
                        bound: 0.0,
                    });
                    Tree::Leaf(leaves.len() - 1)
                }
                None => Tree::Empty,
            },
            PruneNode::Sum(c) => Tree::Sum(
                c.iter()
                    .map(|n| n.build(reader, boost, leaves))
                    .collect::<tantivy::Result<_>>()?,
            ),
            PruneNode::DisMax(c, tie) => Tree::DisMax(
                c.iter()
                    .map(|n| n.build(reader, boost, leaves))
                    .collect::<tantivy::Result<_>>()?,
                *tie,
            ),
            PruneNode::Boost(n, b) => n.build(reader, boost * b, leaves)?,
        })
    }
}

impl PruneNode {
    /// The tree as [`PruneNode::build`] shapes it, with each leaf's term weight and boost in
    /// place of a scorer (no postings opened).
    fn shape<'a>(&'a self, boost: Score, leaves: &mut Vec<(&'a LuceneTermWeight, Score)>) -> Tree {
        match self {
            PruneNode::Term(w) => {
                leaves.push((w, boost));
                Tree::Leaf(leaves.len() - 1)
            }
            PruneNode::Sum(c) => Tree::Sum(c.iter().map(|n| n.shape(boost, leaves)).collect()),
            PruneNode::DisMax(c, tie) => {
                Tree::DisMax(c.iter().map(|n| n.shape(boost, leaves)).collect(), *tie)
            }
            PruneNode::Boost(n, b) => n.shape(boost * b, leaves),
        }
    }

    /// A threshold below the `k`-th best score of the query over the alive docs of `readers`,
    /// known before any posting is read (minus infinity when fewer than `k` docs are known).
    ///
    /// Each cached block bound names a doc holding its `(freq, norm)`, so that leaf's score of
    /// the doc is exact; with its other leaves taken as not matching, the tree's value can only
    /// be lower (every combiner grows with each of its clauses). A doc is named at most once
    /// per leaf, so one leaf's `k`-th best such value is at most the `k`-th best score, and a
    /// walk started from just below it reports every doc of the top `k`, ties with the `k`-th
    /// included. For one term the blocks' docs are its best docs: its walks then skip nearly
    /// every block rather than scoring the first segment's matches until the page fills.
    pub(crate) fn prime(&self, readers: &[SegmentReader], k: usize) -> tantivy::Result<Score> {
        let mut leaves = Vec::with_capacity(self.leaf_count());
        let tree = self.shape(1.0, &mut leaves);
        if k == 0 || leaves.is_empty() {
            return Ok(f32::NEG_INFINITY);
        }
        let flat = tree.is_flat();
        let mut vals = vec![0f32; leaves.len()];
        let mut values: Vec<f64> = Vec::new();
        let mut bar = f32::NEG_INFINITY;
        for (i, (w, boost)) in leaves.iter().enumerate() {
            let Some(scorer) = w.pair_scorer(*boost) else {
                return Ok(f32::NEG_INFINITY);
            };
            values.clear();
            let blocks = readers
                .iter()
                .map(|r| TermBlocks::get(r, w.term()))
                .collect::<tantivy::Result<Vec<_>>>()?;
            if leaves.len() > 1
                && blocks.iter().map(|b| b.points.len()).sum::<usize>() > PRIME_MAX_POINTS
            {
                // A term this common scores low: beside other terms its docs would not set the
                // bar, and scoring its points could cost more than the walk it would shorten.
                continue;
            }
            for (reader, blocks) in readers.iter().zip(&blocks) {
                let alive = reader.alive_bitset();
                for (&(freq, norm), &doc) in blocks.points.iter().zip(&blocks.point_docs) {
                    if doc == NO_DOC || alive.is_some_and(|a| !a.is_alive(doc)) {
                        continue;
                    }
                    vals[i] = scorer.score(freq, norm);
                    values.push(if flat {
                        vals[i] as f64
                    } else {
                        tree.eval(&vals) as f64
                    });
                }
            }
            vals[i] = 0.0;
            if values.len() >= k {
                let (_, kth, _) = values.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
                bar = bar.max(below(*kth));
            }
        }
        Ok(bar)
    }

    /// The floor [`implied_terms`] put under a segment's count of alive matches (each doc of
    /// each leaf matches), from the doc freqs the weights looked up when they were built.
    pub(crate) fn count_floor(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let most = match self {
            PruneNode::Term(w) => w.doc_freq(reader)?,
            PruneNode::Sum(c) | PruneNode::DisMax(c, _) => {
                let mut most = 0;
                for n in c {
                    most = most.max(n.count_floor(reader)?);
                }
                most
            }
            PruneNode::Boost(n, _) => n.count_floor(reader)?,
        };
        Ok(most.saturating_sub(reader.num_deleted_docs()))
    }

    fn leaf_count(&self) -> usize {
        match self {
            PruneNode::Term(_) => 1,
            PruneNode::Sum(c) | PruneNode::DisMax(c, _) => {
                c.iter().map(PruneNode::leaf_count).sum()
            }
            PruneNode::Boost(n, _) => n.leaf_count(),
        }
    }

    /// The alive docs matching any leaf: the postings marked in a bitset, no scorer built.
    pub(crate) fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        Ok(BitDocs::count_alive_in(&self.docs(reader)?, reader))
    }

    /// The docs (deleted ones too) matching any leaf, as bitset words.
    pub(crate) fn docs(&self, reader: &SegmentReader) -> tantivy::Result<Vec<u64>> {
        let mut words = BitDocs::empty(reader.max_doc());
        self.mark(reader, &mut words)?;
        Ok(words)
    }

    fn mark(&self, reader: &SegmentReader, words: &mut [u64]) -> tantivy::Result<()> {
        match self {
            PruneNode::Term(w) => {
                if let Some(block) = w.block_postings(reader)? {
                    BitDocs::insert_postings(words, block);
                }
            }
            PruneNode::Sum(c) | PruneNode::DisMax(c, _) => {
                for n in c {
                    n.mark(reader, words)?;
                }
            }
            PruneNode::Boost(n, _) => n.mark(reader, words)?,
        }
        Ok(())
    }
}

/// A query's weight and, when it is a tree of term leaves under sums, dis_max and boosts, its
/// pruning tree (which also counts the query's matches without a scorer, scoring or not).
pub(crate) fn weight_and_node(
    q: &dyn Query,
    scoring: EnableScoring<'_>,
) -> tantivy::Result<(Box<dyn Weight>, Option<PruneNode>)> {
    if let Some(t) = q.downcast_ref::<LuceneTermQuery>() {
        let w = t.lucene_weight(scoring)?;
        // Without scoring the tree still counts (its postings into a bitset), never prunes.
        let node = Some(PruneNode::Term(w.clone()));
        return Ok((Box::new(w), node));
    }
    if let Some(s) = q.downcast_ref::<SumQuery>() {
        return s.weight_and_node(scoring);
    }
    if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
        return d.weight_and_node(scoring);
    }
    if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        return b.weight_and_node(scoring);
    }
    Ok((q.weight(scoring)?, None))
}

/// Terms each of whose docs matches `q`: the term leaves reached through disjunctions
/// (`SumQuery` needing one clause, `DisMaxQuery`) and boosts. A segment's doc freq of any of
/// them, less its deleted docs, is a floor under the query's count there, known without
/// reading a posting.
pub fn implied_terms(q: &dyn Query) -> Vec<Term> {
    let mut out = Vec::new();
    collect_implied(q, &mut out);
    out
}

fn collect_implied(q: &dyn Query, out: &mut Vec<Term>) {
    if q.downcast_ref::<LuceneTermQuery>().is_some() {
        q.query_terms(&mut |term, _| out.push(term.clone()));
    } else if let Some(s) = q.downcast_ref::<SumQuery>() {
        if s.minimum() <= 1 {
            for c in s.clauses() {
                collect_implied(c.as_ref(), out);
            }
        }
    } else if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
        for c in d.clauses() {
            collect_implied(c.as_ref(), out);
        }
    } else if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        collect_implied(b.inner(), out);
    }
}

/// The floor [`implied_terms`] put under a segment's count of alive matches.
pub fn count_floor(reader: &SegmentReader, terms: &[Term]) -> tantivy::Result<u32> {
    let mut most = 0u32;
    for t in terms {
        most = most.max(reader.inverted_index(t.field())?.doc_freq(t)?);
    }
    Ok(most.saturating_sub(reader.num_deleted_docs()))
}

/// Whether a query's weight prunes in `for_each_pruning` (and reports every match to a
/// callback that keeps the threshold at minus infinity, so counting stays exact until then).
pub fn prunable(q: &dyn Query) -> bool {
    if let Some(f) = q.downcast_ref::<FilteredQuery>() {
        // Only at the top: its gate lives in its own weight, not in a pruning tree.
        return prunable(f.scoring());
    }
    fn leaves(q: &dyn Query) -> Option<usize> {
        if q.downcast_ref::<LuceneTermQuery>().is_some() {
            return Some(1);
        }
        if let Some(s) = q.downcast_ref::<SumQuery>() {
            if s.minimum() > 1 {
                return None;
            }
            return s.clauses().iter().map(|c| leaves(c.as_ref())).sum();
        }
        if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
            return d.clauses().iter().map(|c| leaves(c.as_ref())).sum();
        }
        if let Some(b) = q.downcast_ref::<BoostedQuery>() {
            return leaves(b.inner());
        }
        None
    }
    leaves(q).is_some_and(|n| n <= MAX_LEAVES)
}

/// A term leaf on one segment: its scorer and block bounds.
struct Leaf {
    scorer: LuceneTermScorer,
    blocks: Arc<TermBlocks>,
    /// Each block's bound once computed (NaN before): a sparse leaf's block spans many
    /// windows, and its bound costs a division per point.
    block_bounds: Vec<f32>,
    /// The block holding the window's first doc.
    block: usize,
    /// The leaf's bound in the current window.
    bound: f32,
}

impl Leaf {
    fn doc(&self) -> DocId {
        self.scorer.doc()
    }

    /// Moves `block` to the first block that may hold `target` or later docs; `false` when
    /// there is none.
    fn shallow_seek(&mut self, target: DocId) -> bool {
        let last = &self.blocks.last_docs;
        if self.block < last.len() && last[self.block] < target {
            self.block += last[self.block..].partition_point(|&d| d < target);
        }
        self.block < last.len()
    }

    fn block_bound(&mut self) -> f32 {
        let known = self.block_bounds[self.block];
        if !known.is_nan() {
            return known;
        }
        let b = &self.blocks;
        let (s, e) = (
            b.starts[self.block] as usize,
            b.starts[self.block + 1] as usize,
        );
        let bound = b.points[s..e]
            .iter()
            .map(|&(freq, norm)| self.scorer.score_of(freq, norm))
            .fold(0.0, f32::max);
        self.block_bounds[self.block] = bound;
        bound
    }
}

/// The segment's scoring tree over leaf slots.
enum Tree {
    Leaf(usize),
    /// A term absent from the segment.
    Empty,
    Sum(Vec<Tree>),
    DisMax(Vec<Tree>, f32),
}

impl Tree {
    /// The score from per-leaf scores (0 for leaves not matching), in the combiners' arithmetic:
    /// `SumCombiner`'s double sum and `DisMaxCombiner`'s float max plus the double sum of the
    /// others times tie, each cast to float as their scorers return it.
    fn eval(&self, vals: &[f32]) -> f32 {
        match self {
            Tree::Leaf(i) => vals[*i],
            Tree::Empty => 0.0,
            Tree::Sum(c) => c.iter().map(|t| t.eval(vals) as f64).sum::<f64>() as f32,
            Tree::DisMax(c, tie) => {
                let (mut max, mut others) = (0f32, 0f64);
                for t in c {
                    let s = t.eval(vals);
                    if s >= max {
                        others += max as f64;
                        max = s;
                    } else {
                        others += s as f64;
                    }
                }
                (max as f64 + others * *tie as f64) as f32
            }
        }
    }
}

fn can_compete(bound: f64, threshold: Score) -> bool {
    bound * (1.0 + MARGIN) > threshold as f64
}

impl Tree {
    /// Whether the tree is one sum of leaves (or one leaf), whose bounds are plain sums.
    fn is_flat(&self) -> bool {
        match self {
            Tree::Leaf(_) | Tree::Empty => true,
            Tree::Sum(c) => c.iter().all(|t| matches!(t, Tree::Leaf(_) | Tree::Empty)),
            Tree::DisMax(..) => false,
        }
    }

    /// The tree's value with these per-leaf values (scores or bounds), for bounding.
    fn bound(&self, flat: bool, vals: &[f32]) -> f64 {
        if flat {
            vals.iter().map(|&v| v as f64).sum()
        } else {
            self.eval(vals) as f64
        }
    }
}

/// Every document of `scorer` scoring above the threshold, which the callback raises: the
/// top-k pass of a query with no pruning tree.
pub(crate) fn for_each_above(
    mut scorer: Box<dyn Scorer>,
    mut threshold: Score,
    callback: &mut dyn FnMut(DocId, Score) -> Score,
) -> tantivy::Result<()> {
    let mut doc = scorer.doc();
    while doc != TERMINATED {
        let score = scorer.score();
        if score > threshold {
            threshold = callback(doc, score);
        }
        doc = scorer.advance();
    }
    Ok(())
}

/// tantivy's `for_each_pruning` for a pruning tree: `callback` sees every doc scoring above
/// the threshold it returns, from the pruned walk (which, while that threshold is minus
/// infinity, reports every match). Without a tree, every doc of `exhaustive` is judged.
pub(crate) fn for_each_pruning(
    node: Option<&PruneNode>,
    exhaustive: impl FnOnce() -> tantivy::Result<Box<dyn Scorer>>,
    reader: &SegmentReader,
    threshold: Score,
    callback: &mut dyn FnMut(DocId, Score) -> Score,
) -> tantivy::Result<()> {
    match node {
        Some(node) => for_each_pruning_gated(node, reader, threshold, callback, |_| true),
        None => for_each_above(exhaustive()?, threshold, callback),
    }
}

/// [`for_each_pruning`] on a tree, where a doc is reported only if `gate` admits it (asked in
/// increasing doc order, only about docs scoring above the threshold).
///
/// The walk starts at once, even while the collector has no threshold yet: its first page
/// fills from the walk's own docs, where opening the weight's union scorer for them cost as
/// much again as the walk's set-up (a second term lookup and postings open per leaf, and a
/// union's first 4,096-doc refill).
pub(crate) fn for_each_pruning_gated(
    node: &PruneNode,
    reader: &SegmentReader,
    threshold: Score,
    callback: &mut dyn FnMut(DocId, Score) -> Score,
    gate: impl FnMut(DocId) -> bool,
) -> tantivy::Result<()> {
    // Sized up front: a leaf holds its postings' decoded block, about 2 KB to copy on a regrow.
    let mut leaves = Vec::with_capacity(node.leaf_count());
    let tree = node.build(reader, 1.0, &mut leaves)?;
    prune(&tree, &mut leaves, threshold, callback, gate);
    Ok(())
}

/// The pruned walk from `start`, in windows bounded by the leaves' blocks. In a window whose
/// bounds cannot reach the threshold nothing is read. Else, when some leaves must match for a
/// doc to reach it (the others' bounds together fall short), the candidates are the docs those
/// required leaves share (the rarest leads, the others leapfrog); else they are the docs of the
/// essential leaves (MaxScore: the leaves left once the smallest bounds that together fall
/// short are set aside). The other leaves are probed, the highest bound first, while the
/// candidate can still make it.
fn prune(
    tree: &Tree,
    leaves: &mut [Leaf],
    mut threshold: Score,
    callback: &mut dyn FnMut(DocId, Score) -> Score,
    mut gate: impl FnMut(DocId) -> bool,
) {
    let n = leaves.len();
    if n == 0 {
        return;
    }
    let flat = tree.is_flat();
    // A single term scores a candidate with one division; its bar on the division's
    // denominator turns most candidates away without it.
    let single = matches!(tree, Tree::Leaf(_));
    let mut bar = None;
    let mut vals = vec![0f32; n];
    let mut bounds = vec![0f32; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut required: Vec<usize> = Vec::with_capacity(n);
    // Every doc below `upto` has been decided.
    let mut upto = 0;
    'windows: loop {
        if single {
            bar = leaves[0].scorer.score_bar(threshold, MARGIN);
        }
        let mut first = TERMINATED;
        for l in leaves.iter_mut() {
            if l.doc() < upto {
                l.scorer.seek(upto);
            }
            first = first.min(l.doc());
        }
        if first == TERMINATED {
            return;
        }
        let mut end = TERMINATED - 1;
        for l in leaves.iter_mut() {
            if l.doc() != TERMINATED && l.shallow_seek(first) {
                end = end.min(l.blocks.last_docs[l.block]);
            }
        }
        for (i, l) in leaves.iter_mut().enumerate() {
            l.bound = if l.doc() > end { 0.0 } else { l.block_bound() };
            bounds[i] = l.bound;
        }
        if !can_compete(tree.bound(flat, &bounds), threshold) {
            upto = end + 1;
            continue;
        }
        required.clear();
        for i in 0..n {
            if bounds[i] == 0.0 {
                continue;
            }
            bounds[i] = 0.0;
            if !can_compete(tree.bound(flat, &bounds), threshold) {
                required.push(i);
            }
            bounds[i] = leaves[i].bound;
        }
        // The other leaves with docs in the window, highest bound first. A bound of zero still
        // counts: under a threshold below zero (none yet, or a page of zero scores) its docs
        // compete.
        order.clear();
        order.extend((0..n).filter(|&i| leaves[i].doc() <= end && !required.contains(&i)));
        order.sort_unstable_by(|&a, &b| bounds[b].total_cmp(&bounds[a]));
        // Candidates from the essential leaves: `order[k..]` (the smallest bounds) cannot reach
        // the threshold alone.
        let mut k = order.len();
        if required.is_empty() {
            vals.fill(0.0);
            while k > 0 {
                let i = order[k - 1];
                vals[i] = bounds[i];
                if can_compete(tree.bound(flat, &vals), threshold) {
                    break;
                }
                k -= 1;
            }
            vals.fill(0.0);
        } else {
            required.sort_unstable_by_key(|&i| leaves[i].scorer.size_hint());
        }
        let (essential, probe) = if required.is_empty() {
            order.split_at(k)
        } else {
            (&[][..], &order[..])
        };
        // The probed leaves' bounds together, for a flat tree's best case.
        let probe_bounds: f64 = if flat {
            probe.iter().map(|&i| bounds[i] as f64).sum()
        } else {
            0.0
        };
        loop {
            let doc = if let Some((&lead, rest)) = required.split_first() {
                let mut d = leaves[lead].doc();
                'align: while d <= end {
                    for &r in rest {
                        let l = &mut leaves[r];
                        if l.doc() < d {
                            l.scorer.seek(d);
                        }
                        let ahead = l.doc();
                        if ahead > end {
                            // The window is done; the lead keeps its docs past it, where the
                            // leaves may not be required.
                            d = ahead;
                            break 'align;
                        }
                        if ahead > d {
                            d = leaves[lead].scorer.seek(ahead);
                            continue 'align;
                        }
                    }
                    break;
                }
                d
            } else {
                essential
                    .iter()
                    .map(|&i| leaves[i].doc())
                    .min()
                    .unwrap_or(TERMINATED)
            };
            if doc > end {
                upto = end + 1;
                continue 'windows;
            }
            if let Some(bar) = bar {
                let l = &mut leaves[0];
                if l.scorer.denominator() < bar {
                    l.scorer.advance();
                    continue;
                }
            }
            // `vals` is all zeros here: each candidate clears what it set.
            let mut known: f64 = 0.0;
            for &i in &required {
                vals[i] = leaves[i].scorer.score();
                known += vals[i] as f64;
            }
            if let Some(&lead) = required.first() {
                leaves[lead].scorer.advance();
            }
            for &i in essential {
                let l = &mut leaves[i];
                if l.doc() == doc {
                    vals[i] = l.scorer.score();
                    known += vals[i] as f64;
                    l.scorer.advance();
                }
            }
            // The doc's best case: what scored so far, the unprobed leaves at their bounds.
            let mut rest = probe_bounds;
            let mut alive = true;
            for (j, &i) in probe.iter().enumerate() {
                let bound = if flat {
                    known + rest
                } else {
                    for &u in &probe[j..] {
                        vals[u] = bounds[u];
                    }
                    let b = tree.eval(&vals) as f64;
                    for &u in &probe[j..] {
                        vals[u] = 0.0;
                    }
                    b
                };
                if !can_compete(bound, threshold) {
                    alive = false;
                    break;
                }
                let l = &mut leaves[i];
                if l.doc() < doc {
                    l.scorer.seek(doc);
                }
                if l.doc() == doc {
                    vals[i] = l.scorer.score();
                    known += vals[i] as f64;
                }
                rest -= bounds[i] as f64;
            }
            // A flat tree's score is its leaves' double sum in leaf order, as `Tree::eval`
            // adds a sum's children (an absent term adding zero).
            let score = if !alive {
                f32::NEG_INFINITY
            } else if flat {
                vals.iter().map(|&v| v as f64).sum::<f64>() as f32
            } else {
                tree.eval(&vals)
            };
            for &i in required.iter().chain(essential).chain(probe) {
                vals[i] = 0.0;
            }
            if score > threshold && gate(doc) {
                let next = callback(doc, score);
                if next != threshold {
                    threshold = next;
                    upto = doc + 1;
                    continue 'windows;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::combine::{DisMaxQuery, SumQuery};

    use tantivy::schema::{Schema, STRING, TEXT};
    use tantivy::{doc, Index, Searcher};

    use crate::util::test_support::{exhaustive, Rng};

    /// Several segments of random text in two fields, some docs deleted.
    fn index(seed: u64) -> (Index, Searcher) {
        let mut sb = Schema::builder();
        let body = sb.add_text_field("body", TEXT);
        let title = sb.add_text_field("title", TEXT);
        let id = sb.add_text_field("id", STRING);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut rng = Rng(seed | 1);
        let mut n = 0;
        for _ in 0..3 {
            for _ in 0..(1500 + rng.below(1500)) {
                let text = |rng: &mut Rng, len: u64| {
                    (0..1 + rng.below(len))
                        .map(|_| format!("w{}", rng.skewed(40)))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let b = text(&mut rng, 40);
                let t = text(&mut rng, 6);
                w.add_document(doc!(body => b, title => t, id => n.to_string()))
                    .unwrap();
                n += 1;
            }
            w.commit().unwrap();
        }
        for _ in 0..200 {
            let d = rng.below(n);
            w.delete_term(Term::from_field_text(id, &d.to_string()));
        }
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        (index, searcher)
    }

    fn term(searcher: &Searcher, field: &str, word: &str) -> Box<dyn Query> {
        let f = searcher.schema().get_field(field).unwrap();
        Box::new(LuceneTermQuery::new(Term::from_field_text(f, word)))
    }

    /// The same through `for_each_pruning`, the threshold raised as a collector would once
    /// `limit` matches are counted and `k` are kept (ties with the k-th still reported).
    fn pruned(searcher: &Searcher, q: &dyn Query, k: usize, limit: u64) -> Vec<(f32, u32, u32)> {
        pruned_from(searcher, q, k, limit, f32::NEG_INFINITY)
    }

    /// [`pruned`] with every walk starting from `start` and never going below it (as a search
    /// starts them from the tree's primed threshold).
    fn pruned_from(
        searcher: &Searcher,
        q: &dyn Query,
        k: usize,
        limit: u64,
        start: f32,
    ) -> Vec<(f32, u32, u32)> {
        assert!(prunable(q));
        let w = q
            .weight(EnableScoring::enabled_from_searcher(searcher))
            .unwrap();
        let mut kept: Vec<(f32, u32, u32)> = Vec::new();
        let mut count = 0u64;
        for (s, r) in searcher.segment_readers().iter().enumerate() {
            w.for_each_pruning(start, r, &mut |d, score| {
                if r.alive_bitset().is_none_or(|a| a.is_alive(d)) {
                    count += 1;
                    kept.push((score, s as u32, d));
                    kept.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
                    kept.truncate(k);
                }
                if count > limit && kept.len() == k {
                    kept[k - 1].0.next_down().max(start)
                } else {
                    start
                }
            })
            .unwrap();
        }
        kept
    }

    fn check(searcher: &Searcher, q: &dyn Query) {
        let w = q
            .weight(EnableScoring::enabled_from_searcher(searcher))
            .unwrap();
        for r in searcher.segment_readers() {
            let mut alive = 0;
            w.for_each(r, &mut |d, _| {
                alive += r.alive_bitset().is_none_or(|a| a.is_alive(d)) as u32
            })
            .unwrap();
            assert_eq!(w.count(r).unwrap(), alive, "{q:?}");
            // Unscored (`_count`, `size: 0`), the tree counts the postings' bitset.
            let (unscored, node) =
                weight_and_node(q, EnableScoring::disabled_from_searcher(searcher)).unwrap();
            assert!(node.is_some(), "{q:?}");
            assert_eq!(unscored.count(r).unwrap(), alive, "{q:?}");
            // Never above the count, and reached where a term alone covers the matches.
            let floor = count_floor(r, &implied_terms(q)).unwrap();
            assert!(floor <= alive, "{q:?}: floor {floor} > {alive}");
        }
        let (_, node) = weight_and_node(q, EnableScoring::enabled_from_searcher(searcher)).unwrap();
        let node = node.expect("a pruning tree");
        for (k, limit) in [
            (1, 0),
            (10, 0),
            (10, 100),
            (57, 0),
            (57, 1000),
            (10, u64::MAX),
        ] {
            let want = exhaustive(searcher, q, k).0;
            assert!(!want.is_empty(), "{q:?} matches nothing");
            assert_eq!(
                pruned(searcher, q, k, limit),
                want,
                "{q:?} k {k} limit {limit}"
            );
            // Primed: below the k-th best score, and the same page from there.
            let prime = node.prime(searcher.segment_readers(), k).unwrap();
            if prime.is_finite() {
                assert!(prime < want[k - 1].0, "{q:?} k {k}: {prime} vs {want:?}");
            }
            assert_eq!(
                pruned_from(searcher, q, k, limit, prime),
                want,
                "{q:?} k {k} limit {limit} primed at {prime}"
            );
        }
    }

    #[test]
    fn primes_are_close_under_the_kth_score() {
        let (_index, s) = index(9);
        let q = term(&s, "body", "w2");
        let (_, node) =
            weight_and_node(q.as_ref(), EnableScoring::enabled_from_searcher(&s)).unwrap();
        let prime = node.unwrap().prime(s.segment_readers(), 10).unwrap();
        let kth = exhaustive(&s, q.as_ref(), 10).0[9].0;
        // One term's best docs are its blocks' best points: the prime is all but the k-th.
        assert!(prime < kth && prime > kth * 0.8, "{prime} vs {kth}");
        // More docs wanted than the blocks name: no prime.
        let rare = term(&s, "title", "w39");
        let (_, node) =
            weight_and_node(rare.as_ref(), EnableScoring::enabled_from_searcher(&s)).unwrap();
        let many = node.unwrap().prime(s.segment_readers(), 100_000).unwrap();
        assert_eq!(many, f32::NEG_INFINITY);
    }

    #[test]
    fn implied_terms_only_where_each_term_implies_a_match() {
        let (_index, s) = index(5);
        let (a, b) = (term(&s, "body", "w0"), term(&s, "body", "w1"));
        let any = SumQuery::new(vec![a.box_clone(), b.box_clone()]);
        assert_eq!(implied_terms(&any).len(), 2);
        let both = SumQuery::with_minimum(vec![a.box_clone(), b.box_clone()], 2);
        assert!(implied_terms(&both).is_empty());
        let boosted = BoostedQuery::new(Box::new(both), 2.0);
        let max = DisMaxQuery::new(vec![Box::new(boosted), a.box_clone()], 0.0);
        assert_eq!(implied_terms(&max).len(), 1);
    }

    #[test]
    fn pruned_top_k_equals_exhaustive() {
        for seed in [7, 1234, 99_991, 31_337, 2_024] {
            let (_index, searcher) = index(seed);
            let s = &searcher;
            let mut rng = Rng(seed * 31 + 5);
            for _ in 0..6 {
                let words: Vec<String> = (0..2 + rng.below(4))
                    .map(|_| format!("w{}", rng.skewed(40)))
                    .collect();
                check(s, term(s, "body", &words[0]).as_ref());
                check(s, &BoostedQuery::new(term(s, "title", &words[1]), 3.0));
                let sum = |field: &str| -> Box<dyn Query> {
                    Box::new(SumQuery::new(
                        words.iter().map(|w| term(s, field, w)).collect(),
                    ))
                };
                check(s, sum("body").as_ref());
                let boosted: Box<dyn Query> = Box::new(BoostedQuery::new(sum("title"), 2.5));
                let best_fields = DisMaxQuery::new(vec![sum("body"), boosted], 0.0);
                check(s, &BoostedQuery::new(Box::new(best_fields), 1.0));
                let tie = DisMaxQuery::new(vec![sum("body"), sum("title")], 0.3);
                check(s, &tie);
                let nested = SumQuery::new(vec![
                    sum("title"),
                    term(s, "body", &words[1]),
                    Box::new(BoostedQuery::new(term(s, "title", &words[0]), 0.5)),
                ]);
                check(s, &nested);
            }
        }
    }

    /// Few distinct texts over several segments, some docs deleted: most scores tie, and a
    /// page's last places go to the earliest docs of the tie, as the exhaustive pass orders them.
    #[test]
    fn ties_page_as_the_exhaustive_pass() {
        let mut sb = Schema::builder();
        let body = sb.add_text_field("body", TEXT);
        let title = sb.add_text_field("title", TEXT);
        let id = sb.add_text_field("id", STRING);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let texts = [
            "a b c", "a a b", "b c", "c", "a d", "d d d b", "a b c d", "e", "a e e",
        ];
        let mut rng = Rng(3);
        let mut n = 0;
        for _ in 0..4 {
            for _ in 0..(2000 + rng.below(3000)) {
                let b = texts[rng.below(texts.len() as u64) as usize];
                let t = texts[rng.below(3) as usize];
                w.add_document(doc!(body => b, title => t, id => n.to_string()))
                    .unwrap();
                n += 1;
            }
            w.commit().unwrap();
        }
        for _ in 0..300 {
            w.delete_term(Term::from_field_text(id, &rng.below(n).to_string()));
        }
        w.commit().unwrap();
        let s = &index.reader().unwrap().searcher();
        let sum = |field: &str, words: &[&str]| -> Box<dyn Query> {
            Box::new(SumQuery::new(
                words.iter().map(|w| term(s, field, w)).collect(),
            ))
        };
        check(s, sum("body", &["a", "b", "c"]).as_ref());
        check(s, sum("body", &["d", "e"]).as_ref());
        check(
            s,
            &DisMaxQuery::new(
                vec![
                    sum("body", &["a", "c"]),
                    Box::new(BoostedQuery::new(sum("title", &["a", "b"]), 2.0)),
                ],
                0.2,
            ),
        );
    }

    /// Many leaves leave a window few docs (a row of scores per doc): segments span several.
    #[test]
    fn wide_trees_walk_many_windows() {
        let (_index, searcher) = index(77);
        let s = &searcher;
        let words: Vec<String> = (0..super::MAX_LEAVES).map(|i| format!("w{i}")).collect();
        let leaves = |field: &str| -> Vec<Box<dyn Query>> {
            words.iter().map(|w| term(s, field, w)).collect()
        };
        check(s, &SumQuery::new(leaves("body")));
        check(s, &SumQuery::with_minimum(leaves("title"), 1));
        let half = super::MAX_LEAVES / 2;
        let mut mixed = leaves("body");
        mixed.truncate(half);
        mixed.extend(leaves("title").into_iter().take(half));
        check(s, &BoostedQuery::new(Box::new(SumQuery::new(mixed)), 0.7));
    }

    #[test]
    fn zero_scores_are_reported_until_the_page_fills() {
        let (_index, searcher) = index(11);
        let s = &searcher;
        check(s, &BoostedQuery::new(term(s, "body", "w3"), 0.0));
        let zero: Box<dyn Query> = Box::new(BoostedQuery::new(term(s, "title", "w1"), 0.0));
        check(s, &SumQuery::new(vec![zero, term(s, "body", "w30")]));
    }

    #[test]
    fn pruning_skips_docs() {
        let (_index, searcher) = index(5);
        let s = &searcher;
        let q = SumQuery::new(vec![term(s, "body", "w0"), term(s, "body", "w25")]);
        let w = q.weight(EnableScoring::enabled_from_searcher(s)).unwrap();
        let (mut matches, mut reported) = (0, 0);
        for r in s.segment_readers() {
            w.for_each(r, &mut |_, _| matches += 1).unwrap();
            let mut kept: Vec<f32> = Vec::new();
            w.for_each_pruning(f32::NEG_INFINITY, r, &mut |_, score| {
                reported += 1;
                kept.push(score);
                kept.sort_by(|a, b| b.total_cmp(a));
                kept.truncate(10);
                if kept.len() == 10 {
                    kept[9].next_down()
                } else {
                    f32::NEG_INFINITY
                }
            })
            .unwrap();
        }
        assert!(reported * 3 < matches, "{reported} of {matches} reported");
    }

    #[test]
    fn bounds_hold_for_every_block() {
        let (_index, searcher) = index(42);
        for (field, word) in [
            ("body", "w0"),
            ("body", "w3"),
            ("body", "w17"),
            ("body", "w39"),
            ("title", "w0"),
            ("title", "w5"),
            ("title", "w26"),
        ] {
            let f = searcher.schema().get_field(field).unwrap();
            let t = Term::from_field_text(f, word);
            let w = LuceneTermQuery::new(t.clone())
                .lucene_weight(EnableScoring::enabled_from_searcher(&searcher))
                .unwrap();
            for r in searcher.segment_readers() {
                let Some(scorer) = w.make_scorer(r, 1.0).unwrap() else {
                    continue;
                };
                let blocks = TermBlocks::get(r, &t).unwrap();
                let mut leaf = Leaf {
                    scorer,
                    block_bounds: vec![f32::NAN; blocks.last_docs.len()],
                    blocks,
                    block: 0,
                    bound: 0.0,
                };
                let mut max_seen = 0f32;
                while leaf.doc() != TERMINATED {
                    assert!(leaf.shallow_seek(leaf.doc()));
                    let bound = leaf.block_bound();
                    let score = leaf.scorer.score();
                    assert!(score <= bound, "{word}: {score} > {bound}");
                    max_seen = max_seen.max(score);
                    leaf.scorer.advance();
                }
                assert!(max_seen > 0.0);
            }
        }
    }
}
