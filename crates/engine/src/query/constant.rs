//! Constant-score queries (`constant_score`, filters, the term-level leaves), and the match sets
//! that answer `exists` and `prefix` on keyword doc values without walking terms.
//!
//! [`ConstantQuery`] is tantivy's `ConstScoreQuery` (same scores, explanation and counting) whose
//! scorer is one concrete type, [`ConstantScorer`]: `search::top_k` recognises it on a weight's
//! scorer and then knows every match scores the same, so the page is the matches with the
//! smallest `_seq_no`, found without scoring or ranking each match.

use super::Q;
use tantivy::columnar::ColumnIndex;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, COLLECT_BLOCK_BUFFER_LEN, TERMINATED};

/// Every match of `inner`, scoring `score` (times the boost passed down).
#[derive(Debug)]
pub struct ConstantQuery {
    inner: Q,
    score: Score,
    described: Option<Described>,
}

/// How OpenSearch prints the Lucene query a constant-score query stands for, when an
/// explanation asks (`Context::describe`).
#[derive(Debug, Clone)]
pub enum Described {
    /// A term-level query: its `toString` where scores are wanted (`scored`, the top of an
    /// explanation) and where they are not (`unscored`: inside `constant_score`, a filter,
    /// `_validate`), which differ where OpenSearch pairs a points query with a doc-values one
    /// (`IndexOrDocValuesQuery`, which only an unscored search keeps whole).
    Leaf { scored: String, unscored: String },
    /// A `bool` filter clause beside others: Lucene's "match on required clause" node around
    /// the clause's unscored text.
    FilterClause(String),
}

impl Clone for ConstantQuery {
    fn clone(&self) -> Self {
        ConstantQuery {
            inner: self.inner.box_clone(),
            score: self.score,
            described: self.described.clone(),
        }
    }
}

impl ConstantQuery {
    pub fn new(inner: Q, score: Score) -> Self {
        ConstantQuery {
            inner,
            score,
            described: None,
        }
    }

    pub fn described(mut self, d: Described) -> Self {
        self.described = Some(d);
        self
    }

    pub fn description(&self) -> Option<&Described> {
        self.described.as_ref()
    }

    pub fn score(&self) -> Score {
        self.score
    }

    pub fn inner(&self) -> &dyn Query {
        self.inner.as_ref()
    }
}

impl Query for ConstantQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let inner = self.inner.weight(scoring)?;
        Ok(if scoring.is_scoring_enabled() {
            Box::new(ConstantWeight {
                inner,
                score: self.score,
                described: self.described.clone(),
            })
        } else {
            inner
        })
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct ConstantWeight {
    inner: Box<dyn Weight>,
    score: Score,
    described: Option<Described>,
}

impl Weight for ConstantWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        // Inside an explanation, the boosts of the queries above (1 otherwise).
        let boost = boost * super::wrappers::explain_boost();
        Ok(Box::new(ConstantScorer {
            docs: self.inner.scorer(reader, boost)?,
            score: boost * self.score,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        super::positioned_on(Some(self.scorer(reader, 1.0)?), doc)?;
        Ok(match &self.described {
            // Lucene's ConstantScoreWeight: the query's text, its boost when not 1 (with the
            // boosts passed down from above).
            Some(Described::Leaf { scored, .. }) => {
                let score = super::wrappers::explain_boost() * self.score;
                let text = if score == 1.0 {
                    scored.clone()
                } else {
                    format!("{scored}^{}", super::function_score::java_float(score))
                };
                Explanation::new_with_string(text, score)
            }
            Some(Described::FilterClause(text)) => {
                let mut e = Explanation::new("match on required clause, product of:", 0.0);
                e.add_const("# clause", 0.0);
                e.add_detail(Explanation::new_with_string(text.clone(), 1.0));
                e
            }
            None => {
                let mut e = Explanation::new("Const", self.score);
                e.add_detail(self.inner.explain(reader, doc)?);
                e
            }
        })
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        self.inner.count(reader)
    }
}

/// The scorer of every constant-score weight: the inner matches, one score.
pub struct ConstantScorer {
    docs: Box<dyn Scorer>,
    score: Score,
}

impl ConstantScorer {
    /// `docs`, every one scoring `score`.
    pub(crate) fn new(docs: Box<dyn Scorer>, score: Score) -> Self {
        ConstantScorer { docs, score }
    }

    pub fn score_of_all(&self) -> Score {
        self.score
    }
}

impl DocSet for ConstantScorer {
    fn advance(&mut self) -> DocId {
        self.docs.advance()
    }
    fn seek(&mut self, target: DocId) -> DocId {
        self.docs.seek(target)
    }
    fn fill_buffer(&mut self, buffer: &mut [DocId; COLLECT_BLOCK_BUFFER_LEN]) -> usize {
        self.docs.fill_buffer(buffer)
    }
    fn doc(&self) -> DocId {
        self.docs.doc()
    }
    fn size_hint(&self) -> u32 {
        self.docs.size_hint()
    }
    fn cost(&self) -> u64 {
        self.docs.cost()
    }
}

impl Scorer for ConstantScorer {
    #[inline]
    fn score(&mut self) -> Score {
        self.score
    }
}

/// A segment's match set as a bitset: built in one pass over a column or postings, then
/// iterated and counted word by word.
pub(crate) struct BitDocs {
    words: Vec<u64>,
    /// The current doc, or `TERMINATED`.
    doc: DocId,
    /// The word holding `doc`, with the bits at and before it cleared.
    rest: u64,
    len: u32,
}

impl BitDocs {
    pub(crate) fn empty(max_doc: DocId) -> Vec<u64> {
        vec![0u64; (max_doc as usize).div_ceil(64)]
    }

    /// Marks `doc` in bitset words.
    #[inline]
    pub(crate) fn insert(words: &mut [u64], doc: DocId) {
        words[(doc / 64) as usize] |= 1 << (doc % 64);
    }

    /// Whether `doc` is marked in bitset words.
    #[inline]
    pub(crate) fn contains(words: &[u64], doc: DocId) -> bool {
        words[(doc / 64) as usize] & (1 << (doc % 64)) != 0
    }

    /// The docs (deleted ones too) holding any of `terms`, as bitset words: their postings
    /// read a block at a time, no scorer built.
    pub(crate) fn of_postings<'a>(
        reader: &SegmentReader,
        terms: impl IntoIterator<Item = &'a Term>,
    ) -> tantivy::Result<Vec<u64>> {
        let mut words = BitDocs::empty(reader.max_doc());
        for term in terms {
            let inverted = reader.inverted_index(term.field())?;
            if let Some(block) =
                inverted.read_block_postings(term, tantivy::schema::IndexRecordOption::Basic)?
            {
                BitDocs::insert_postings(&mut words, block);
            }
        }
        Ok(words)
    }

    /// Marks every doc of `block`'s postings in bitset words.
    pub(crate) fn insert_postings(
        words: &mut [u64],
        mut block: tantivy::postings::BlockSegmentPostings,
    ) {
        let total = block.doc_freq() as usize;
        let mut seen = 0;
        while seen < total {
            let docs = block.docs();
            if docs.is_empty() {
                break;
            }
            for &d in docs {
                BitDocs::insert(words, d);
            }
            seen += docs.len();
            block.advance();
        }
    }

    /// How many of the docs marked in `words` are alive in `reader`'s segment.
    pub(crate) fn count_alive_in(words: &[u64], reader: &SegmentReader) -> u32 {
        match reader.alive_bitset() {
            None => words.iter().map(|w| w.count_ones()).sum(),
            Some(alive) => count_alive(words, alive),
        }
    }

    pub(crate) fn new(words: Vec<u64>) -> BitDocs {
        let len = words.iter().map(|w| w.count_ones()).sum();
        let mut s = BitDocs {
            words,
            doc: 0,
            rest: 0,
            len,
        };
        s.rest = s.words.first().copied().unwrap_or(0);
        s.doc = 0;
        s.settle(0);
        s
    }

    /// Moves to the first set bit at or after word `w`'s remaining bits (`rest`).
    fn settle(&mut self, mut w: usize) {
        loop {
            if self.rest != 0 {
                self.doc = (w as u32) * 64 + self.rest.trailing_zeros();
                self.rest &= self.rest - 1;
                return;
            }
            w += 1;
            if w >= self.words.len() {
                self.doc = TERMINATED;
                return;
            }
            self.rest = self.words[w];
        }
    }
}

impl DocSet for BitDocs {
    fn advance(&mut self) -> DocId {
        if self.doc != TERMINATED {
            self.settle((self.doc / 64) as usize);
        }
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let w = (target / 64) as usize;
        if w >= self.words.len() {
            self.doc = TERMINATED;
            return TERMINATED;
        }
        let cur = (self.doc / 64) as usize;
        let word = if w == cur { self.rest } else { self.words[w] };
        self.rest = word & (u64::MAX << (target % 64));
        self.settle(w);
        self.doc
    }

    fn fill_buffer(&mut self, buffer: &mut [DocId; COLLECT_BLOCK_BUFFER_LEN]) -> usize {
        let mut n = 0;
        while n < buffer.len() && self.doc != TERMINATED {
            buffer[n] = self.doc;
            n += 1;
            self.settle((self.doc / 64) as usize);
        }
        n
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.len
    }
}

impl Scorer for BitDocs {
    fn score(&mut self) -> Score {
        1.0
    }
}

/// `exists` on a field with doc values: the docs its columns hold a value for, read from the
/// columns' indexes (which list exactly those docs) rather than asked doc by doc.
#[derive(Clone, Debug)]
pub struct ColumnExistsQuery {
    field: String,
}

impl ColumnExistsQuery {
    pub fn new(field: String) -> Self {
        ColumnExistsQuery { field }
    }
}

impl Query for ColumnExistsQuery {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(ColumnExistsWeight {
            field: self.field.clone(),
        }))
    }
}

struct ColumnExistsWeight {
    field: String,
}

impl ColumnExistsWeight {
    fn docs(&self, reader: &SegmentReader) -> tantivy::Result<BitDocs> {
        let mut words = BitDocs::empty(reader.max_doc());
        let mut set = |d: DocId| BitDocs::insert(&mut words, d);
        for handle in reader.fast_fields().dynamic_column_handles(&self.field)? {
            let column = handle.open()?;
            match column.column_index() {
                ColumnIndex::Empty { .. } => {}
                ColumnIndex::Full => (0..reader.max_doc()).for_each(&mut set),
                ColumnIndex::Optional(o) => o.iter_non_null_docs().for_each(&mut set),
                ColumnIndex::Multivalued(m) => m.iter_non_null_docs().for_each(&mut set),
            }
        }
        Ok(BitDocs::new(words))
    }
}

impl Weight for ColumnExistsWeight {
    fn scorer(&self, reader: &SegmentReader, _boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut indexes = Vec::new();
        for handle in reader.fast_fields().dynamic_column_handles(&self.field)? {
            let column = handle.open()?;
            if !matches!(column.column_index(), ColumnIndex::Empty { .. }) {
                indexes.push(column.column_index().clone());
            }
        }
        Ok(match indexes.len() {
            0 => Box::new(tantivy::query::EmptyScorer),
            // One column: asked doc by doc, so a caller that skips ahead reads only what it
            // visits (the constant-score top-k visits a few runs of most segments).
            1 => Box::new(ExistsDocs::new(
                indexes.pop().expect("one"),
                reader.max_doc(),
            )),
            _ => Box::new(self.docs(reader)?),
        })
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        super::positioned_on(Some(self.docs(reader)?), doc)?;
        Ok(Explanation::new("ExistsQuery", 1.0))
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if reader.alive_bitset().is_none() {
            let mut indexes = Vec::new();
            for handle in reader.fast_fields().dynamic_column_handles(&self.field)? {
                let column = handle.open()?;
                if !matches!(column.column_index(), ColumnIndex::Empty { .. }) {
                    indexes.push(column.column_index().clone());
                }
            }
            // One column's index knows how many docs it holds values for.
            match indexes.as_slice() {
                [] => return Ok(0),
                [ColumnIndex::Full] => return Ok(reader.max_doc()),
                [ColumnIndex::Optional(o)] => return Ok(o.num_non_nulls()),
                [ColumnIndex::Multivalued(m)] => {
                    // The current layout keeps one start offset per doc with values (plus
                    // the end); the first kept one per doc. Told apart by the counts
                    // differing; when they agree either way, the docs are walked.
                    let with_values = m.get_start_index_column().num_vals().saturating_sub(1);
                    if with_values != m.num_docs() {
                        return Ok(with_values);
                    }
                }
                _ => {}
            }
        }
        let docs = self.docs(reader)?;
        Ok(match reader.alive_bitset() {
            None => docs.len,
            Some(alive) => count_alive(&docs.words, alive),
        })
    }
}

/// The docs one column index holds a value for, found doc by doc.
struct ExistsDocs {
    index: ColumnIndex,
    max_doc: DocId,
    doc: DocId,
}

impl ExistsDocs {
    fn new(index: ColumnIndex, max_doc: DocId) -> Self {
        let mut s = ExistsDocs {
            index,
            max_doc,
            doc: 0,
        };
        s.find(0);
        s
    }

    fn find(&mut self, mut from: DocId) -> DocId {
        while from < self.max_doc {
            if self.index.has_value(from) {
                self.doc = from;
                return from;
            }
            from += 1;
        }
        self.doc = TERMINATED;
        TERMINATED
    }
}

impl DocSet for ExistsDocs {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.find(self.doc + 1)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if target <= self.doc {
            return self.doc;
        }
        self.find(target)
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.max_doc
    }
}

impl Scorer for ExistsDocs {
    fn score(&mut self) -> Score {
        1.0
    }
}

pub(crate) fn count_alive(words: &[u64], alive: &tantivy::fastfield::AliveBitSet) -> u32 {
    let mut n = 0;
    for (i, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            n += alive.is_alive(i as u32 * 64 + w.trailing_zeros()) as u32;
            w &= w - 1;
        }
    }
    n
}

/// The smallest byte string above every string starting with `prefix` (`None`: there is none).
fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// `prefix` on a keyword field that is indexed and has doc values (both hold the same
/// values): a prefix covering many terms is the doc-values ordinals in the prefix's range, one
/// pass over the ordinal column; one covering few terms is `fallback`, the term-walking query
/// (same matches), whose explanation both print.
#[derive(Clone, Debug)]
pub struct KeywordPrefixQuery {
    name: String,
    prefix: String,
    field: tantivy::schema::Field,
    /// The term-walking regex of the same matches, compiled only where it is used: compiling
    /// it was most of npm `@types/`'s 0.33 ms.
    pattern: String,
}

impl KeywordPrefixQuery {
    pub fn new(name: &str, prefix: &str, field: tantivy::schema::Field, pattern: String) -> Self {
        KeywordPrefixQuery {
            name: name.to_string(),
            prefix: prefix.to_string(),
            field,
            pattern,
        }
    }
}

impl Query for KeywordPrefixQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(KeywordPrefixWeight {
            name: self.name.clone(),
            prefix: self.prefix.clone(),
            field: self.field,
            pattern: self.pattern.clone(),
            fallback: std::sync::OnceLock::new(),
            last: parking_lot::Mutex::new(None),
        }))
    }
}

struct KeywordPrefixWeight {
    name: String,
    prefix: String,
    field: tantivy::schema::Field,
    pattern: String,
    fallback: std::sync::OnceLock<Box<dyn Weight>>,
    /// The last segment's column match set: top-k counts a segment, then walks it.
    last: parking_lot::Mutex<Option<(tantivy::index::SegmentId, Option<Vec<u64>>)>>,
}

/// A term's postings cost about this many ordinal reads of the column scan.
const POSTINGS_PER_TERM: u64 = 200;

impl KeywordPrefixWeight {
    /// The regex query's weight (it scores nothing, so it needs no statistics).
    fn fallback(&self, reader: &SegmentReader) -> tantivy::Result<&dyn Weight> {
        if let Some(w) = self.fallback.get() {
            return Ok(w.as_ref());
        }
        let w = tantivy::query::RegexQuery::from_pattern(&self.pattern, self.field)?
            .weight(EnableScoring::disabled_from_schema(reader.schema()))?;
        Ok(self.fallback.get_or_init(|| w).as_ref())
    }

    /// The docs whose ordinals fall in the prefix's range, when that range is wide enough for
    /// the column scan to beat the terms' postings.
    fn by_column(&self, reader: &SegmentReader) -> tantivy::Result<Option<BitDocs>> {
        if let Some((id, words)) = self.last.lock().as_ref() {
            if *id == reader.segment_id() {
                return Ok(words.clone().map(BitDocs::new));
            }
        }
        let words = self.column_words(reader)?;
        *self.last.lock() = Some((reader.segment_id(), words.clone()));
        Ok(words.map(BitDocs::new))
    }

    fn column_words(&self, reader: &SegmentReader) -> tantivy::Result<Option<Vec<u64>>> {
        let Some(col) = crate::search::open_columns::keyword(reader, &self.name)? else {
            return Ok(Some(Vec::new()));
        };
        let dict = col.dictionary();
        let terms =
            crate::search::term_strings::term_strings(reader.segment_id(), &self.name, &col);
        let ord = |key: &[u8]| -> tantivy::Result<u64> {
            Ok(
                match crate::search::term_strings::ord_or_next(terms.as_deref(), &col, key)? {
                    tantivy::columnar::TermOrdHit::Exact(o)
                    | tantivy::columnar::TermOrdHit::Next(o) => o,
                },
            )
        };
        let lo = ord(self.prefix.as_bytes())?;
        let hi = match prefix_end(self.prefix.as_bytes()) {
            Some(end) => ord(&end)?,
            None => dict.num_terms() as u64,
        };
        if lo >= hi {
            return Ok(Some(Vec::new()));
        }
        if (hi - lo) * POSTINGS_PER_TERM < reader.max_doc() as u64 {
            return Ok(None);
        }
        let mut words = BitDocs::empty(reader.max_doc());
        let ords = col.ords();
        if !ords.get_cardinality().is_multivalue() {
            // The docs in ordinal order (`search::column_order`, cached per segment): the
            // prefix's docs are one slice of it, found by two binary searches, so only the
            // matches are read (npm `@types/` on 227k names: a scan of the whole ordinal
            // column cost ~1 ms).
            let order = crate::search::column_order::value_order(
                reader,
                &self.name,
                tantivy::columnar::ColumnType::Str,
                ords,
            );
            let (from, to) = (order.rank(ords, lo, false), order.rank(ords, hi, false));
            for i in from..to {
                BitDocs::insert(&mut words, order.doc(i));
            }
            return Ok(Some(words));
        }
        let mut ids = Vec::new();
        // Within the column's bounds (a range past them can wrap in the codecs).
        let (lo, hi) = (lo.max(ords.min_value()), (hi - 1).min(ords.max_value()));
        if lo <= hi {
            ords.get_docids_for_value_range(lo..=hi, 0..reader.max_doc(), &mut ids);
        }
        for d in ids {
            BitDocs::insert(&mut words, d);
        }
        Ok(Some(words))
    }
}

impl Weight for KeywordPrefixWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        match self.by_column(reader)? {
            Some(docs) => Ok(Box::new(docs)),
            None => self.fallback(reader)?.scorer(reader, boost),
        }
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.fallback(reader)?.explain(reader, doc)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        match self.by_column(reader)? {
            Some(docs) => Ok(BitDocs::count_alive_in(&docs.words, reader)),
            None => self.fallback(reader)?.count(reader),
        }
    }
}

/// `range` on a numeric field with doc values: the docs whose column values fall in the raw
/// (order-preserving `u64`) bounds, as tantivy's fast-field range finds them, but read so that
/// a doc asked about alone costs one column read (`ColumnRangeDocs`). Matches and explanation
/// are those of `fallback`, tantivy's range query over the same bounds.
#[derive(Debug)]
pub struct ColumnRangeQuery {
    field: String,
    range: std::ops::RangeInclusive<u64>,
    fallback: Q,
}

impl Clone for ColumnRangeQuery {
    fn clone(&self) -> Self {
        ColumnRangeQuery {
            field: self.field.clone(),
            range: self.range.clone(),
            fallback: self.fallback.box_clone(),
        }
    }
}

impl ColumnRangeQuery {
    /// `None` when the bounds hold no value.
    pub fn new(
        field: &str,
        lo: std::ops::Bound<u64>,
        hi: std::ops::Bound<u64>,
        fallback: Q,
    ) -> Option<Self> {
        use std::ops::Bound::*;
        let lo = match lo {
            Included(x) => x,
            Excluded(x) => x.checked_add(1)?,
            Unbounded => 0,
        };
        let hi = match hi {
            Included(x) => x,
            Excluded(x) => x.checked_sub(1)?,
            Unbounded => u64::MAX,
        };
        (lo <= hi).then(|| ColumnRangeQuery {
            field: field.to_string(),
            range: lo..=hi,
            fallback,
        })
    }
}

impl Query for ColumnRangeQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(ColumnRangeWeight {
            field: self.field.clone(),
            range: self.range.clone(),
            fallback: self.fallback.weight(scoring)?,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.fallback.query_terms(visitor);
    }
}

struct ColumnRangeWeight {
    field: String,
    range: std::ops::RangeInclusive<u64>,
    fallback: Box<dyn Weight>,
}

impl ColumnRangeWeight {
    /// The field's numeric or date column, as order-preserving u64s.
    fn column(
        &self,
        reader: &SegmentReader,
    ) -> tantivy::Result<
        Option<(
            tantivy::columnar::Column<u64>,
            tantivy::columnar::ColumnType,
        )>,
    > {
        use tantivy::columnar::ColumnType;
        crate::search::open_columns::numeric(
            reader,
            &self.field,
            &[
                ColumnType::U64,
                ColumnType::I64,
                ColumnType::F64,
                ColumnType::DateTime,
            ],
        )
    }
}

impl Weight for ColumnRangeWeight {
    fn scorer(&self, reader: &SegmentReader, _boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let col = self.column(reader)?;
        let Some((col, _)) = col else {
            return Ok(Box::new(tantivy::query::EmptyScorer));
        };
        // Within the column's own bounds, as tantivy clamps it: some codecs read a range
        // reaching past them wrongly.
        let lo = (*self.range.start()).max(col.min_value());
        let hi = (*self.range.end()).min(col.max_value());
        if lo > hi {
            return Ok(Box::new(tantivy::query::EmptyScorer));
        }
        Ok(Box::new(ColumnRangeDocs::new(
            col,
            lo..=hi,
            reader.max_doc(),
        )))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.fallback.explain(reader, doc)
    }

    /// A single-valued column counts from its value order (`search::column_order`, built once
    /// per segment and shared with sorts): two binary searches, then an alive check per match
    /// where the segment has deletions. Counting a range on npm's `downloads_a_month` (15k of
    /// 227k docs) by scanning the column cost 0.9 ms per request.
    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let col = self.column(reader)?;
        let Some((col, ty)) = col else {
            return Ok(0);
        };
        if col.get_cardinality().is_multivalue() {
            return count_scored(self, reader);
        }
        let order = crate::search::column_order::value_order(reader, &self.field, ty, &col);
        let from = order.rank(&col, *self.range.start(), false);
        let to = order.rank(&col, *self.range.end(), true);
        if from >= to {
            return Ok(0);
        }
        Ok(match reader.alive_bitset() {
            None => (to - from) as u32,
            Some(alive) => (from..to).filter(|&i| alive.is_alive(order.doc(i))).count() as u32,
        })
    }
}

/// What `Weight::count` does by default: every match of the scorer, alive ones only.
fn count_scored(weight: &dyn Weight, reader: &SegmentReader) -> tantivy::Result<u32> {
    let mut scorer = weight.scorer(reader, 1.0)?;
    Ok(match reader.alive_bitset() {
        Some(alive) => scorer.count(alive),
        None => scorer.count_including_deleted(),
    })
}

/// Fewest docs read at a time after a doc asked about alone, and most.
const MIN_HORIZON: u32 = 16;
const MAX_HORIZON: u32 = 4096;

/// The docs of a column with a value in `range`, read in windows that double while the docs
/// are walked in order; a doc sought past the read window is first checked alone.
pub(crate) struct ColumnRangeDocs {
    col: tantivy::columnar::Column<u64>,
    range: std::ops::RangeInclusive<u64>,
    single: bool,
    max_doc: DocId,
    /// The matches among the docs below `next` not yet passed.
    buf: Vec<DocId>,
    pos: usize,
    next: DocId,
    horizon: u32,
    doc: DocId,
}

impl ColumnRangeDocs {
    fn new(
        col: tantivy::columnar::Column<u64>,
        range: std::ops::RangeInclusive<u64>,
        max_doc: DocId,
    ) -> Self {
        let mut s = ColumnRangeDocs {
            single: !col.get_cardinality().is_multivalue(),
            col,
            range,
            max_doc,
            buf: Vec::new(),
            pos: 0,
            next: 0,
            horizon: MIN_HORIZON,
            doc: 0,
        };
        s.load(0);
        s
    }

    /// Whether `doc` has a value in the range (one column read).
    pub(crate) fn contains(&self, doc: DocId) -> bool {
        if self.single {
            self.col.first(doc).is_some_and(|v| self.range.contains(&v))
        } else {
            self.col
                .values_for_doc(doc)
                .any(|v| self.range.contains(&v))
        }
    }

    /// Moves to the first match at or after `from`.
    fn load(&mut self, mut from: DocId) -> DocId {
        loop {
            if from >= self.max_doc {
                self.buf.clear();
                self.pos = 0;
                self.next = self.max_doc;
                self.doc = TERMINATED;
                return TERMINATED;
            }
            let end = from.saturating_add(self.horizon).min(self.max_doc);
            self.buf.clear();
            self.col
                .get_docids_for_value_range(self.range.clone(), from..end, &mut self.buf);
            if !self.single {
                self.buf.dedup();
            }
            self.next = end;
            self.horizon = (self.horizon * 2).min(MAX_HORIZON);
            from = end;
            if let Some(&d) = self.buf.first() {
                self.pos = 0;
                self.doc = d;
                return d;
            }
        }
    }
}

impl DocSet for ColumnRangeDocs {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        if self.pos + 1 < self.buf.len() {
            self.pos += 1;
            self.doc = self.buf[self.pos];
            return self.doc;
        }
        self.load(self.next)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if target <= self.doc {
            return self.doc;
        }
        if target < self.next {
            self.pos += self.buf[self.pos..].partition_point(|&d| d < target);
            if let Some(&d) = self.buf.get(self.pos) {
                self.doc = d;
                return d;
            }
            return self.load(self.next);
        }
        self.horizon = MIN_HORIZON;
        if target < self.max_doc && self.contains(target) {
            self.buf.clear();
            self.buf.push(target);
            self.pos = 0;
            self.next = target + 1;
            self.doc = target;
            return target;
        }
        self.load(target + 1)
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.max_doc
    }
}

impl Scorer for ColumnRangeDocs {
    fn score(&mut self) -> Score {
        1.0
    }
}

/// The innermost docs under constant-score wrappers: a filter is asked about docs, never
/// scores.
pub(crate) fn unwrap_constant(mut s: Box<dyn Scorer>) -> Box<dyn Scorer> {
    loop {
        match s.downcast::<ConstantScorer>() {
            Ok(c) => s = c.docs,
            Err(other) => return other,
        }
    }
}

/// Whether every match of `q` scores the same: a constant-score query, or a term on a field
/// whose every posting scores alike (`LuceneTermQuery::scores_uniformly`), boosted or not.
pub fn is_constant(q: &dyn Query, schema: &tantivy::schema::Schema) -> bool {
    if q.downcast_ref::<ConstantQuery>().is_some() {
        return true;
    }
    if let Some(t) = q.downcast_ref::<super::lucene_term::LuceneTermQuery>() {
        return t.scores_uniformly(schema);
    }
    q.downcast_ref::<super::wrappers::BoostedQuery>()
        .is_some_and(|b| is_constant(b.inner(), schema))
}

#[cfg(test)]
mod tests {
    use super::*;

    use tantivy::query::{ExistsQuery, RegexQuery};
    use tantivy::schema::{Schema, FAST, STRING};
    use tantivy::{Index, Searcher, TantivyDocument};

    use crate::util::test_support::Rng;

    /// Segments of docs with 0–3 keyword values (`multi`), 0–1 (`single`) and a sometimes
    /// missing number, some docs deleted.
    fn index(seed: u64) -> Searcher {
        index_with(seed, 300)
    }

    fn index_with(seed: u64, deletes: u64) -> Searcher {
        let mut sb = Schema::builder();
        let id = sb.add_text_field("id", STRING);
        let multi = sb.add_text_field("multi", STRING | FAST);
        let single = sb.add_text_field("single", STRING | FAST);
        let num = sb.add_i64_field("num", FAST);
        let when = sb.add_date_field(
            "when",
            tantivy::schema::DateOptions::default()
                .set_fast()
                .set_indexed()
                .set_precision(tantivy::schema::DateTimePrecision::Milliseconds),
        );
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut rng = Rng(seed | 1);
        let word = |rng: &mut Rng| {
            let p = ["py", "python3-", "python3-a", "lib", "x"][rng.below(5) as usize];
            format!("{p}{}", rng.below(3000))
        };
        let mut n = 0;
        for _ in 0..4 {
            for _ in 0..(800 + rng.below(1500)) {
                let mut d = TantivyDocument::default();
                d.add_text(id, n.to_string());
                for _ in 0..rng.below(4) {
                    d.add_text(multi, word(&mut rng));
                }
                if rng.below(3) > 0 {
                    d.add_text(single, word(&mut rng));
                }
                if rng.below(2) > 0 {
                    d.add_i64(num, rng.below(100) as i64);
                }
                if rng.below(3) > 0 {
                    let ms = rng.below(200) as i64 * 1000 - 100_000;
                    d.add_date(when, tantivy::DateTime::from_timestamp_millis(ms));
                }
                w.add_document(d).unwrap();
                n += 1;
            }
            w.commit().unwrap();
        }
        for _ in 0..deletes {
            w.delete_term(Term::from_field_text(id, &rng.below(n).to_string()));
        }
        w.commit().unwrap();
        index.reader().unwrap().searcher()
    }

    fn docs(searcher: &Searcher, q: &dyn Query) -> Vec<(usize, DocId)> {
        let w = q
            .weight(EnableScoring::enabled_from_searcher(searcher))
            .unwrap();
        let mut out = Vec::new();
        for (s, r) in searcher.segment_readers().iter().enumerate() {
            let mut scorer = w.scorer(r, 1.0).unwrap();
            while scorer.doc() != TERMINATED {
                out.push((s, scorer.doc()));
                scorer.advance();
            }
            let alive = out
                .iter()
                .filter(|(seg, d)| *seg == s && r.alive_bitset().is_none_or(|a| a.is_alive(*d)))
                .count();
            assert_eq!(w.count(r).unwrap() as usize, alive, "{q:?}");
        }
        out
    }

    #[test]
    fn column_exists_matches_exists_query() {
        for (seed, deletes) in [(3, 300), (77, 0), (4242, 300), (5, 0)] {
            let s = index_with(seed, deletes);
            for field in ["multi", "single", "num"] {
                let want = docs(&s, &ExistsQuery::new(field.to_string(), false));
                let got = docs(&s, &ColumnExistsQuery::new(field.to_string()));
                assert_eq!(got, want, "{field}");
                assert!(!got.is_empty());
            }
        }
    }

    #[test]
    fn keyword_prefix_matches_the_terms_walk() {
        for seed in [5, 123, 9001] {
            let s = index(seed);
            for field in ["multi", "single"] {
                let f = s.schema().get_field(field).unwrap();
                // Thousands of terms (the column scan), a few, one, none, every term.
                for prefix in ["py", "python3-a", "python3-a12", "lib1234", "zz", ""] {
                    let re = format!("{}.*", super::super::regex_escape(prefix));
                    let regex = || -> Q { Box::new(RegexQuery::from_pattern(&re, f).unwrap()) };
                    let want = docs(&s, regex().as_ref());
                    let got = docs(&s, &KeywordPrefixQuery::new(field, prefix, f, re.clone()));
                    assert_eq!(got, want, "{field} {prefix:?}");
                }
            }
        }
    }

    #[test]
    fn column_range_matches_the_range_query() {
        use std::ops::Bound::*;
        use tantivy::query::RangeQuery;
        // With deletions, and without (the count from the value order alone).
        for (seed, deletes) in [(21, 300), (4711, 300), (8, 0)] {
            let s = index_with(seed, deletes);
            let f = s.schema().get_field("num").unwrap();
            let t = |v: i64| Term::from_field_i64(f, v);
            let raw = |v: i64| tantivy::i64_to_u64(v);
            for (lo, hi) in [(10, 40), (0, 99), (50, 51), (-5, 3), (98, 200)] {
                let bounds = || (Included(t(lo)), Excluded(t(hi)));
                let want = docs(&s, &RangeQuery::new(bounds().0, bounds().1));
                let q = ColumnRangeQuery::new(
                    "num",
                    Included(raw(lo)),
                    Excluded(raw(hi)),
                    Box::new(RangeQuery::new(bounds().0, bounds().1)),
                )
                .unwrap();
                assert_eq!(docs(&s, &q), want, "{lo}..{hi}");
                // Open ends reach far past the column's values.
                for (a, b, ra, rb) in [
                    (Unbounded, Excluded(t(hi)), Unbounded, Excluded(raw(hi))),
                    (Included(t(lo)), Unbounded, Included(raw(lo)), Unbounded),
                ] {
                    let open = || -> Q { Box::new(RangeQuery::new(a.clone(), b.clone())) };
                    let q = ColumnRangeQuery::new("num", ra, rb, open()).unwrap();
                    assert_eq!(docs(&s, &q), docs(&s, open().as_ref()), "{lo}..{hi} open");
                }
                // Seeks in increasing order, near and far, answer as the range query's docs.
                let w = q.weight(EnableScoring::enabled_from_searcher(&s)).unwrap();
                let mut rng = Rng(seed.wrapping_add(lo as u64));
                for (seg, r) in s.segment_readers().iter().enumerate() {
                    let mut scorer = w.scorer(r, 1.0).unwrap();
                    let mut target = 0;
                    while target < r.max_doc() {
                        let far = rng.below(2) == 0;
                        target += 1 + rng.below(if far { 200 } else { 3 }) as u32;
                        let got = scorer.seek(target);
                        let expect = want
                            .iter()
                            .find(|&&(sg, d)| sg == seg && d >= target)
                            .map_or(TERMINATED, |&(_, d)| d);
                        assert_eq!(got, expect, "{lo}..{hi} seek {target}");
                    }
                }
            }
        }
    }

    #[test]
    fn column_range_on_dates_matches_the_range_query() {
        use std::ops::Bound::*;
        use tantivy::query::RangeQuery;
        for (seed, deletes) in [(31, 300), (6, 0)] {
            let s = index_with(seed, deletes);
            let f = s.schema().get_field("when").unwrap();
            let t =
                |ms: i64| Term::from_field_date(f, tantivy::DateTime::from_timestamp_millis(ms));
            let raw = |ms: i64| {
                tantivy::i64_to_u64(
                    tantivy::DateTime::from_timestamp_millis(ms).into_timestamp_nanos(),
                )
            };
            for (lo, hi) in [
                (-100_000, 0),
                (-3_500, 42_000),
                (7_000, 7_000),
                (99_000, 500_000),
            ] {
                let range = || RangeQuery::new(Included(t(lo)), Included(t(hi)));
                let q = ColumnRangeQuery::new(
                    "when",
                    Included(raw(lo)),
                    Included(raw(hi)),
                    Box::new(range()),
                )
                .unwrap();
                let got = docs(&s, &q);
                assert_eq!(got, docs(&s, &range()), "{lo}..={hi}");
                assert!(lo > 50_000 || !got.is_empty());
            }
        }
    }

    #[test]
    fn bit_docs_seek_and_fill() {
        let mut words = BitDocs::empty(300);
        for d in [0u32, 1, 63, 64, 130, 299] {
            BitDocs::insert(&mut words, d);
        }
        let mut b = BitDocs::new(words.clone());
        assert_eq!(b.doc(), 0);
        assert_eq!(b.seek(2), 63);
        assert_eq!(b.seek(63), 63);
        assert_eq!(b.advance(), 64);
        assert_eq!(b.seek(129), 130);
        assert_eq!(b.advance(), 299);
        assert_eq!(b.advance(), TERMINATED);
        let mut b = BitDocs::new(words);
        let mut buf = [0; COLLECT_BLOCK_BUFFER_LEN];
        assert_eq!(b.fill_buffer(&mut buf), 6);
        assert_eq!(&buf[..6], &[0, 1, 63, 64, 130, 299]);
        assert_eq!(BitDocs::new(BitDocs::empty(10)).doc(), TERMINATED);
    }
}
