//! A phrase leaf scored exactly as OpenSearch's: Lucene's `PhraseQuery` and `MultiPhraseQuery`
//! (several terms at one position, as stacked tokens and phrase prefixes make) over tantivy's
//! postings with positions (tantivy-napi.md §7.4 #2, #6, #11; §7.6).
//!
//! - Statistics are the field's `docCount` and `avgdl`, as for terms; the idf is the double sum of
//!   every query term's float idf (terms absent from the index left out, repeats counted).
//! - The phrase frequency follows Lucene's matchers. Slop 0 counts the lead term's positions at
//!   which every other term sits at its offset. Slop > 0 sums `1 / (1 + matchLength)` over the
//!   matches Lucene's sloppy matcher finds: it always advances the least-positioned term, so it
//!   does not find every valid combination, and repeated terms are kept on distinct positions.
//!   Reproducing its walk, not just its definition of a match, is what makes the scores equal.

use super::lucene_term::{collection_stats, idf, norm_cache, term_doc_freq};
use std::sync::Arc;
use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

const K1: f32 = 1.2;
const B: f32 = 0.75;

#[derive(Clone, Debug)]
pub struct LucenePhraseQuery {
    field: Field,
    /// Query positions and the terms at each, in query order.
    slots: Vec<(u32, Vec<Term>)>,
    slop: u32,
    boost: f32,
}

impl LucenePhraseQuery {
    /// `slots`: at least two positions, each with at least one term of `field`.
    pub fn new(field: Field, slots: Vec<(u32, Vec<Term>)>, slop: u32) -> Self {
        LucenePhraseQuery {
            field,
            slots,
            slop,
            boost: 1.0,
        }
    }

    pub fn with_boost(mut self, boost: f32) -> Self {
        self.boost = boost;
        self
    }

    pub(crate) fn field(&self) -> Field {
        self.field
    }

    pub(crate) fn boost(&self) -> f32 {
        self.boost
    }

    /// Whether `doc` holds a term of every position (Lucene's phrase approximation), which
    /// decides how a phrase's miss is explained.
    pub(crate) fn has_terms(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<bool> {
        let index = reader.inverted_index(self.field)?;
        for (_, terms) in &self.slots {
            let mut any = false;
            for t in terms {
                if let Some(mut p) = index.read_postings(t, IndexRecordOption::Basic)? {
                    any |= super::reaches(&mut p, doc);
                }
            }
            if !any {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Lucene's `toString` of the phrase: stacked terms in parentheses, gaps as `?`.
    pub(crate) fn describe(&self, field_name: &str) -> String {
        let mut s = format!("{field_name}:\"");
        let mut last: Option<u32> = None;
        for (pos, terms) in &self.slots {
            if let Some(l) = last {
                s.push(' ');
                for _ in 1..pos.saturating_sub(l) {
                    s.push_str("? ");
                }
            }
            let texts: Vec<String> = terms
                .iter()
                .filter_map(|t| t.value().as_str().map(str::to_string))
                .collect();
            if texts.len() > 1 {
                s.push('(');
                s.push_str(&texts.join(" "));
                s.push(')');
            } else {
                s.push_str(texts.first().map(String::as_str).unwrap_or(""));
            }
            last = Some(*pos);
        }
        s.push('"');
        if self.slop != 0 {
            s.push_str(&format!("~{}", self.slop));
        }
        s
    }
}

struct TermIdf {
    df: u64,
    idf: f32,
}

struct Stats {
    idf: f32,
    terms: Vec<TermIdf>,
    cache: Arc<[f32; 256]>,
    doc_count: u64,
    avgdl: f32,
}

impl Query for LucenePhraseQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let stats = match scoring {
            EnableScoring::Enabled { searcher, .. } => {
                let fs = collection_stats(searcher, self.field)?;
                let mut terms = Vec::new();
                let mut sum = 0f64;
                for (_, ts) in &self.slots {
                    for t in ts {
                        let df = term_doc_freq(searcher, t, searcher.doc_freq(t)?);
                        if df > 0 {
                            let i = idf(df, fs.doc_count);
                            sum += i as f64;
                            terms.push(TermIdf { df, idf: i });
                        }
                    }
                }
                let avgdl = if fs.doc_count == 0 {
                    1.0
                } else {
                    (fs.sum_ttf as f64 / fs.doc_count as f64) as f32
                };
                Some(Stats {
                    idf: sum as f32,
                    terms,
                    cache: norm_cache(avgdl),
                    doc_count: fs.doc_count,
                    avgdl,
                })
            }
            EnableScoring::Disabled { .. } => None,
        };
        // Repetition detection compares terms: give each distinct term an id, and each slot its
        // ids sorted by term bytes (Lucene sorts a position's terms).
        let mut distinct: Vec<&Term> = Vec::new();
        let slot_terms = self
            .slots
            .iter()
            .map(|(_, ts)| {
                let mut sorted: Vec<&Term> = ts.iter().collect();
                sorted.sort_by(|a, b| a.serialized_value_bytes().cmp(b.serialized_value_bytes()));
                sorted.dedup();
                sorted
                    .into_iter()
                    .map(|t| match distinct.iter().position(|d| *d == t) {
                        Some(i) => i as u32,
                        None => {
                            distinct.push(t);
                            (distinct.len() - 1) as u32
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(Box::new(PhraseWeight {
            query: self.clone(),
            slot_terms,
            stats,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (_, ts) in &self.slots {
            for t in ts {
                visitor(t, true);
            }
        }
    }
}

struct PhraseWeight {
    query: LucenePhraseQuery,
    slot_terms: Vec<Vec<u32>>,
    stats: Option<Stats>,
}

impl PhraseWeight {
    fn make_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Option<PhraseScorer>> {
        let q = &self.query;
        let inv = reader.inverted_index(q.field)?;
        let mut slots = Vec::with_capacity(q.slots.len());
        for (_, terms) in &q.slots {
            let mut subs = Vec::with_capacity(terms.len());
            for t in terms {
                if let Some(p) = inv.read_postings(t, IndexRecordOption::WithFreqsAndPositions)? {
                    subs.push(p);
                }
            }
            if subs.is_empty() {
                return Ok(None);
            }
            slots.push(SlotPostings { subs });
        }
        let norms = reader
            .fieldnorms_readers()
            .get_field(q.field)?
            .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
        let boost = boost * super::wrappers::explain_boost();
        let (weight, cache) = match &self.stats {
            Some(s) => (((boost * q.boost) * (1.0 + K1)) * s.idf, s.cache.clone()),
            None => (0.0, Arc::new([0f32; 256])),
        };
        // Rarest slot first: it drives the intersection.
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by_key(|&i| slots[i].size_hint());
        let offsets: Vec<i32> = q.slots.iter().map(|(p, _)| *p as i32).collect();
        let matcher = if q.slop == 0 {
            Matcher::Exact {
                lead: (0..offsets.len())
                    .min_by_key(|&i| (offsets[i], i))
                    .unwrap_or(0),
            }
        } else {
            Matcher::Sloppy(Box::new(Sloppy::new(
                &offsets,
                self.slot_terms.clone(),
                q.slop,
            )))
        };
        let mut s = PhraseScorer {
            positions: vec![Vec::new(); slots.len()],
            cursors: Vec::with_capacity(slots.len()),
            slots,
            order,
            offsets,
            matcher,
            doc: 0,
            freq: 0.0,
            norms,
            weight,
            cache,
            scoring: self.stats.is_some(),
        };
        s.doc = s.settle(0);
        Ok(Some(s))
    }
}

impl Weight for PhraseWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.make_scorer(reader, boost)? {
            Some(s) => Box::new(s),
            None => Box::new(EmptyScorer),
        })
    }

    /// Lucene's explanation of a phrase score (`phraseFreq`, the summed idf).
    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = super::positioned_on(self.make_scorer(reader, 1.0)?, doc)?;
        let score = s.score();
        let field = reader.schema().get_field_name(self.query.field).to_string();
        let mut top = Explanation::new_with_string(
            format!(
                "weight({} in {doc}) [PerFieldSimilarity], result of:",
                self.query.describe(&field)
            ),
            score,
        );
        let Some(st) = &self.stats else {
            return Ok(top);
        };
        let freq = s.freq;
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
            (super::wrappers::explain_boost() * self.query.boost) * (1.0 + K1),
        );
        let mut idf_e = Explanation::new("idf, sum of:", st.idf);
        for t in &st.terms {
            let mut e = Explanation::new(
                "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
                t.idf,
            );
            e.add_const("n, number of documents containing term", t.df as f32);
            e.add_const(
                "N, total number of documents with field",
                st.doc_count as f32,
            );
            idf_e.add_detail(e);
        }
        sc.add_detail(idf_e);
        let mut tf_e = Explanation::new(
            "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:",
            tf,
        );
        tf_e.add_detail(Explanation::new_with_string(
            format!("phraseFreq={freq:?}"),
            freq,
        ));
        tf_e.add_const("k1, term saturation parameter", K1);
        tf_e.add_const("b, length normalization parameter", B);
        tf_e.add_const(
            super::lucene_term::dl_description(s.norms.fieldnorm_id(doc)),
            dl,
        );
        tf_e.add_const("avgdl, average length of field", st.avgdl);
        sc.add_detail(tf_e);
        top.add_detail(sc);
        Ok(top)
    }
}

/// The postings of one query position: the union of its terms' (one term, mostly).
struct SlotPostings {
    subs: Vec<SegmentPostings>,
}

impl SlotPostings {
    fn doc(&self) -> DocId {
        self.subs
            .iter()
            .map(|p| p.doc())
            .min()
            .unwrap_or(TERMINATED)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if let [one] = self.subs.as_mut_slice() {
            return if one.doc() >= target {
                one.doc()
            } else {
                one.seek(target)
            };
        }
        for p in &mut self.subs {
            if p.doc() < target {
                p.seek(target);
            }
        }
        self.doc()
    }

    fn size_hint(&self) -> u32 {
        self.subs.iter().map(|p| p.size_hint()).sum()
    }

    /// The positions of `doc` (on it), merged and sorted, repeats kept (Lucene's union enum).
    fn positions(&mut self, doc: DocId, out: &mut Vec<u32>) {
        out.clear();
        for p in &mut self.subs {
            if p.doc() == doc {
                p.append_positions_with_offset(0, out);
            }
        }
        if self.subs.len() > 1 {
            out.sort_unstable();
        }
    }
}

enum Matcher {
    /// Lucene's `ExactPhraseMatcher`; `lead` is the slot at the smallest query position.
    Exact {
        lead: usize,
    },
    Sloppy(Box<Sloppy>),
}

struct PhraseScorer {
    slots: Vec<SlotPostings>,
    /// Slot indices, rarest first.
    order: Vec<usize>,
    offsets: Vec<i32>,
    positions: Vec<Vec<u32>>,
    /// The exact matcher's per-slot cursors, reused from doc to doc.
    cursors: Vec<usize>,
    matcher: Matcher,
    doc: DocId,
    freq: f32,
    norms: FieldNormReader,
    weight: f32,
    cache: Arc<[f32; 256]>,
    scoring: bool,
}

impl PhraseScorer {
    /// The first doc at or after `target` where every slot is present.
    fn candidate(&mut self, mut target: DocId) -> DocId {
        'restart: loop {
            for &i in &self.order {
                let d = self.slots[i].seek(target);
                if d == TERMINATED {
                    return TERMINATED;
                }
                if d > target {
                    target = d;
                    continue 'restart;
                }
            }
            return target;
        }
    }

    /// The first doc at or after `target` where the phrase matches (its frequency computed).
    fn settle(&mut self, mut target: DocId) -> DocId {
        loop {
            let d = self.candidate(target);
            if d == TERMINATED {
                return TERMINATED;
            }
            if let Some(freq) = self.phrase_freq(d) {
                self.freq = freq;
                return d;
            }
            target = d + 1;
        }
    }

    /// The phrase frequency in `doc` (every slot on it), `None` when the phrase does not match.
    /// Without scoring, the first match is enough.
    fn phrase_freq(&mut self, doc: DocId) -> Option<f32> {
        for (s, out) in self.slots.iter_mut().zip(self.positions.iter_mut()) {
            s.positions(doc, out);
        }
        let all = self.scoring;
        match &mut self.matcher {
            Matcher::Exact { lead } => {
                let n = exact_count(
                    &self.positions,
                    &self.offsets,
                    *lead,
                    all,
                    &mut self.cursors,
                );
                (n > 0).then_some(n as f32)
            }
            Matcher::Sloppy(m) => {
                m.reset(&self.positions);
                if !m.next_match(&self.positions) {
                    return None;
                }
                let mut freq = m.sloppy_weight();
                if all {
                    while m.next_match(&self.positions) {
                        freq += m.sloppy_weight();
                    }
                }
                Some(freq)
            }
        }
    }
}

/// Lucene's exact phrase count: the lead's positions (repeats included) at which every other
/// slot has its term at the same distance as in the query.
fn exact_count(
    positions: &[Vec<u32>],
    offsets: &[i32],
    lead: usize,
    all: bool,
    cursors: &mut Vec<usize>,
) -> u32 {
    cursors.clear();
    cursors.resize(positions.len(), 0);
    let mut count = 0;
    'lead: for &p in &positions[lead] {
        let phrase_pos = p as i64 - offsets[lead] as i64;
        for j in 0..positions.len() {
            if j == lead {
                continue;
            }
            let want = phrase_pos + offsets[j] as i64;
            let ps = &positions[j];
            let c = &mut cursors[j];
            while *c < ps.len() && (ps[*c] as i64) < want {
                *c += 1;
            }
            if *c == ps.len() {
                break 'lead;
            }
            if ps[*c] as i64 != want {
                continue 'lead;
            }
        }
        count += 1;
        if !all {
            break;
        }
    }
    count
}

impl DocSet for PhraseScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.doc = self.settle(self.doc + 1);
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if target <= self.doc {
            return self.doc;
        }
        self.doc = self.settle(target);
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.slots[self.order[0]].size_hint()
    }
}

impl Scorer for PhraseScorer {
    fn score(&mut self) -> Score {
        if !self.scoring || self.doc == TERMINATED {
            return 0.0;
        }
        let inv = self.cache[self.norms.fieldnorm_id(self.doc) as usize];
        self.weight - self.weight / (1f32 + self.freq * inv)
    }
}

/// One query position's cursor in the current doc (Lucene's `PhrasePositions`): `position` is
/// the doc position minus the query offset, so an exact match has all positions equal.
#[derive(Clone, Default)]
struct Pp {
    offset: i32,
    position: i32,
    remaining: usize,
    next: usize,
    group: Option<usize>,
    /// Index in its repetition group.
    rpt_ind: usize,
}

/// Lucene's `SloppyPhraseMatcher`, walk for walk. The queue is a small list searched for its
/// least entry by (position, offset, ordinal), a total order, so every pop returns what
/// Lucene's heap returns and entries moved while queued need no re-queuing.
struct Sloppy {
    slop: i32,
    pps: Vec<Pp>,
    /// Per query position, its term ids (sorted by term).
    terms: Vec<Vec<u32>>,
    queue: Vec<usize>,
    end: i32,
    checked_rpts: bool,
    has_rpts: bool,
    has_multi_term_rpts: bool,
    groups: Vec<Vec<usize>>,
    positioned: bool,
    match_length: i32,
}

impl Sloppy {
    fn new(offsets: &[i32], terms: Vec<Vec<u32>>, slop: u32) -> Self {
        Sloppy {
            slop: slop.min(i32::MAX as u32) as i32,
            pps: offsets
                .iter()
                .map(|&offset| Pp {
                    offset,
                    ..Pp::default()
                })
                .collect(),
            terms,
            queue: Vec::with_capacity(offsets.len()),
            end: i32::MIN,
            checked_rpts: false,
            has_rpts: false,
            has_multi_term_rpts: false,
            groups: Vec::new(),
            positioned: false,
            match_length: i32::MAX,
        }
    }

    fn sloppy_weight(&self) -> f32 {
        1f32 / (1f32 + self.match_length as f32)
    }

    fn next_position(&mut self, i: usize, pos: &[Vec<u32>]) -> bool {
        let pp = &mut self.pps[i];
        if pp.remaining == 0 {
            return false;
        }
        pp.remaining -= 1;
        pp.position = pos[i][pp.next] as i32 - pp.offset;
        pp.next += 1;
        true
    }

    fn first_position(&mut self, i: usize, pos: &[Vec<u32>]) {
        self.pps[i].remaining = pos[i].len();
        self.pps[i].next = 0;
        self.next_position(i, pos);
    }

    /// Advances and keeps `end` the largest position.
    fn advance_pp(&mut self, i: usize, pos: &[Vec<u32>]) -> bool {
        if !self.next_position(i, pos) {
            return false;
        }
        self.end = self.end.max(self.pps[i].position);
        true
    }

    fn key(&self, i: usize) -> (i32, i32, usize) {
        (self.pps[i].position, self.pps[i].offset, i)
    }

    fn top_index(&self) -> usize {
        let mut best = 0;
        for k in 1..self.queue.len() {
            if self.key(self.queue[k]) < self.key(self.queue[best]) {
                best = k;
            }
        }
        best
    }

    fn pop(&mut self) -> usize {
        let k = self.top_index();
        self.queue.swap_remove(k)
    }

    fn top(&self) -> usize {
        self.queue[self.top_index()]
    }

    fn tp_pos(&self, i: usize) -> i32 {
        self.pps[i].position + self.pps[i].offset
    }

    fn reset(&mut self, pos: &[Vec<u32>]) {
        self.positioned = self.init(pos);
        self.match_length = i32::MAX;
    }

    fn init(&mut self, pos: &[Vec<u32>]) -> bool {
        self.end = i32::MIN;
        if !self.checked_rpts {
            return self.init_first_time(pos);
        }
        if !self.has_rpts {
            self.queue.clear();
            for i in 0..self.pps.len() {
                self.first_position(i, pos);
                self.end = self.end.max(self.pps[i].position);
                self.queue.push(i);
            }
            return true;
        }
        for i in 0..self.pps.len() {
            self.first_position(i, pos);
        }
        if !self.advance_repeat_groups(pos) {
            return false;
        }
        self.fill_queue();
        true
    }

    fn fill_queue(&mut self) {
        self.queue.clear();
        for i in 0..self.pps.len() {
            self.end = self.end.max(self.pps[i].position);
            self.queue.push(i);
        }
    }

    /// Repetitions are found on the first candidate doc: terms that occur at more than one query
    /// position, grouped (by their first doc position, or with stacked terms by shared terms).
    fn init_first_time(&mut self, pos: &[Vec<u32>]) -> bool {
        self.checked_rpts = true;
        for i in 0..self.pps.len() {
            self.first_position(i, pos);
        }
        let rpt_terms = self.repeating_terms();
        self.has_rpts = !rpt_terms.is_empty();
        if self.has_rpts {
            self.gather_groups(&rpt_terms);
            if !self.advance_repeat_groups(pos) {
                return false;
            }
        }
        self.fill_queue();
        true
    }

    /// Terms seen at a second query position, numbered in the order that happens.
    fn repeating_terms(&self) -> Vec<u32> {
        let mut seen: Vec<(u32, u32)> = Vec::new();
        let mut out = Vec::new();
        for ts in &self.terms {
            for &t in ts {
                match seen.iter_mut().find(|(id, _)| *id == t) {
                    Some((_, n)) => {
                        *n += 1;
                        if *n == 2 {
                            out.push(t);
                        }
                    }
                    None => seen.push((t, 1)),
                }
            }
        }
        out
    }

    fn gather_groups(&mut self, rpt_terms: &[u32]) {
        let rpp: Vec<usize> = (0..self.pps.len())
            .filter(|&i| self.terms[i].iter().any(|t| rpt_terms.contains(t)))
            .collect();
        self.has_multi_term_rpts = rpp.iter().any(|&i| self.terms[i].len() > 1);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        if !self.has_multi_term_rpts {
            for a in 0..rpp.len() {
                let i = rpp[a];
                if self.pps[i].group.is_some() {
                    continue;
                }
                let tp = self.tp_pos(i);
                for &j in &rpp[a + 1..] {
                    if self.pps[j].group.is_some()
                        || self.pps[j].offset == self.pps[i].offset
                        || self.tp_pos(j) != tp
                    {
                        continue;
                    }
                    let g = match self.pps[i].group {
                        Some(g) => g,
                        None => {
                            groups.push(vec![i]);
                            self.pps[i].group = Some(groups.len() - 1);
                            groups.len() - 1
                        }
                    };
                    self.pps[j].group = Some(g);
                    groups[g].push(j);
                }
            }
        } else {
            // Connected components of "shares a repeating term".
            let mut sets: Vec<Vec<u32>> = rpp
                .iter()
                .map(|&i| {
                    self.terms[i]
                        .iter()
                        .copied()
                        .filter(|t| rpt_terms.contains(t))
                        .collect()
                })
                .collect();
            let mut i = 0;
            while i + 1 < sets.len() {
                let mut merged = false;
                let mut j = i + 1;
                while j < sets.len() {
                    if sets[i].iter().any(|t| sets[j].contains(t)) {
                        let other = sets.remove(j);
                        for t in other {
                            if !sets[i].contains(&t) {
                                sets[i].push(t);
                            }
                        }
                        merged = true;
                    } else {
                        j += 1;
                    }
                }
                if !merged {
                    i += 1;
                }
            }
            groups = vec![Vec::new(); sets.len()];
            for &p in &rpp {
                for t in &self.terms[p] {
                    if let Some(g) = sets.iter().position(|s| s.contains(t)) {
                        if !groups[g].contains(&p) {
                            groups[g].push(p);
                        }
                        self.pps[p].group = Some(g);
                    }
                }
            }
        }
        // Each group by query offset: the start condition (no collisions) comes from it.
        for g in &mut groups {
            g.sort_by_key(|&i| (self.pps[i].offset, i));
        }
        for g in &groups {
            for (k, &i) in g.iter().enumerate() {
                self.pps[i].rpt_ind = k;
            }
        }
        self.groups = groups;
    }

    /// The group index of a repeater sitting on the same doc position as `i`.
    fn collide(&self, i: usize) -> Option<usize> {
        let g = self.pps[i].group?;
        let tp = self.tp_pos(i);
        self.groups[g]
            .iter()
            .find(|&&j| j != i && self.tp_pos(j) == tp)
            .map(|&j| self.pps[j].rpt_ind)
    }

    /// Of two colliding repeaters, the one with the smaller position (the larger offset).
    fn lesser(&self, a: usize, b: usize) -> usize {
        let (pa, pb) = (&self.pps[a], &self.pps[b]);
        if pa.position < pb.position || (pa.position == pb.position && pa.offset < pb.offset) {
            a
        } else {
            b
        }
    }

    fn advance_repeat_groups(&mut self, pos: &[Vec<u32>]) -> bool {
        for g in 0..self.groups.len() {
            if self.has_multi_term_rpts {
                let mut i = 0;
                while i < self.groups[g].len() {
                    let mut incr = 1;
                    let pp = self.groups[g][i];
                    while let Some(k) = self.collide(pp) {
                        let pp2 = self.lesser(pp, self.groups[g][k]);
                        if !self.advance_pp(pp2, pos) {
                            return false;
                        }
                        if self.pps[pp2].rpt_ind < i {
                            incr = 0;
                            break;
                        }
                    }
                    i += incr;
                }
            } else {
                for j in 1..self.groups[g].len() {
                    let pp = self.groups[g][j];
                    for _ in 0..j {
                        if !self.next_position(pp, pos) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// After `i` moved: while it shares a doc position with a repeater, advance the lesser of
    /// the two.
    fn advance_rpts(&mut self, i: usize, pos: &[Vec<u32>]) -> bool {
        let Some(g) = self.pps[i].group else {
            return true;
        };
        let mut cur = i;
        while let Some(k) = self.collide(cur) {
            cur = self.lesser(cur, self.groups[g][k]);
            if !self.advance_pp(cur, pos) {
                return false;
            }
        }
        true
    }

    fn next_match(&mut self, pos: &[Vec<u32>]) -> bool {
        if !self.positioned {
            return false;
        }
        let mut pp = self.pop();
        self.match_length = self.end - self.pps[pp].position;
        let mut next = self.pps[self.top()].position;
        while self.advance_pp(pp, pos) {
            if self.has_rpts && !self.advance_rpts(pp, pos) {
                break;
            }
            if self.pps[pp].position > next {
                self.queue.push(pp);
                if self.match_length <= self.slop {
                    return true;
                }
                pp = self.pop();
                next = self.pps[self.top()].position;
                self.match_length = self.end - self.pps[pp].position;
            } else {
                self.match_length = self.match_length.min(self.end - self.pps[pp].position);
            }
        }
        self.positioned = false;
        self.match_length <= self.slop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sloppy frequency of a phrase (query offsets, term ids) over one doc's positions.
    fn sloppy(offsets: &[i32], terms: &[u32], doc: &[u32], slop: u32) -> Option<f32> {
        let mut positions: Vec<Vec<u32>> = vec![Vec::new(); offsets.len()];
        for (i, t) in terms.iter().enumerate() {
            for (p, d) in doc.iter().enumerate() {
                if d == t {
                    positions[i].push(p as u32);
                }
            }
        }
        let mut m = Sloppy::new(offsets, terms.iter().map(|&t| vec![t]).collect(), slop);
        m.reset(&positions);
        if !m.next_match(&positions) {
            return None;
        }
        let mut f = m.sloppy_weight();
        while m.next_match(&positions) {
            f += m.sloppy_weight();
        }
        Some(f)
    }

    #[test]
    fn sloppy_frequencies() {
        // "quick fox"~1 on "quick brown fox": one match at distance 1.
        assert_eq!(sloppy(&[0, 1], &[0, 1], &[0, 2, 1], 1), Some(0.5));
        assert_eq!(sloppy(&[0, 1], &[0, 1], &[0, 2, 1], 0), None);
        // Lucene's javadoc: "a b"~2 on "x a b a y" matches "a b" (0) and "b a" (2).
        assert_eq!(
            sloppy(&[0, 1], &[0, 1], &[9, 0, 1, 0, 8], 2),
            Some(1.0 + 1.0 / 3.0)
        );
        // Reversed order costs 2: "fox quick"~2 on "quick fox".
        assert_eq!(sloppy(&[0, 1], &[0, 1], &[1, 0], 2), Some(1.0 / 3.0));
        assert_eq!(sloppy(&[0, 1], &[0, 1], &[1, 0], 1), None);
    }

    #[test]
    fn repeated_terms() {
        // "a a"~1: the two query positions never share a doc position.
        assert_eq!(sloppy(&[0, 1], &[0, 0], &[0], 1), None);
        assert_eq!(sloppy(&[0, 1], &[0, 0], &[0, 0], 1), Some(1.0));
        assert_eq!(sloppy(&[0, 1], &[0, 0], &[0, 5, 0], 1), Some(0.5));
    }

    #[test]
    fn exact_counts() {
        let pos = vec![vec![0, 1, 2], vec![0, 1, 2]];
        // "a a" on "a a a": starts 0 and 1.
        let mut c = Vec::new();
        assert_eq!(exact_count(&pos, &[0, 1], 0, true, &mut c), 2);
        let pos = vec![vec![0, 4], vec![1, 3]];
        assert_eq!(exact_count(&pos, &[0, 1], 0, true, &mut c), 1);
        assert_eq!(exact_count(&pos, &[0, 2], 0, true, &mut c), 0);
    }
}
