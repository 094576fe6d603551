//! Multi-term leaves: `wildcard`, `regexp` (Lucene's syntaxes translated to tantivy's regex
//! automaton; constant score, as the default `constant_score` rewrite, or their terms scored
//! under the rewrites that score, `scoring_rewrite`) and `fuzzy`, scored as
//! Lucene's `TopTermsBlendedFreqScoringRewrite`: the top `max_expansions` terms by similarity,
//! each a BM25 term leaf boosted by `1 - edits / min(len)` with the largest doc freq of them all.

use super::lucene_string;
use super::lucene_term::LuceneTermQuery;
use super::{constant, none, Context, Q};
use crate::error::{Error, Result};
use tantivy::query::RegexQuery;
use tantivy::schema::Field;
use tantivy::Term;

/// `c` as a literal of tantivy's regex syntax.
pub(crate) fn push_literal(out: &mut String, c: char) {
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// A Lucene wildcard (`*`, `?`, `\` escapes) as an anchored regex.
pub fn wildcard_regex(pattern: &str) -> String {
    let mut out = String::from("(?s)");
    let mut it = pattern.chars();
    while let Some(c) = it.next() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '\\' => {
                if let Some(n) = it.next() {
                    push_literal(&mut out, n);
                }
            }
            c => push_literal(&mut out, c),
        }
    }
    out
}

pub fn regex_query(f: Field, regex: &str, boost: f32) -> Result<Q> {
    let q = RegexQuery::from_pattern(regex, f)
        .map_err(|e| Error::illegal_argument(format!("invalid regular expression: {e}")))?;
    Ok(constant(Box::new(q), boost))
}

/// Optimal string alignment distance (Damerau with adjacent transpositions) or Levenshtein,
/// in code points, `None` when above `max`.
pub fn edit_distance(a: &[char], b: &[char], transpositions: bool, max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    let mut prev2 = vec![0usize; w];
    let mut prev: Vec<usize> = (0..w).collect();
    let mut cur = vec![0usize; w];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

pub struct FuzzyParams {
    pub edits: u8,
    pub prefix_length: usize,
    pub max_expansions: usize,
    pub transpositions: bool,
    /// `None`: Lucene's default for fuzzy queries, the blended top `max_expansions` terms.
    pub rewrite: Option<Rewrite>,
}

impl FuzzyParams {
    /// How many of the best expansions the rewrite keeps.
    fn limit(&self) -> usize {
        match self.rewrite {
            None => self.max_expansions,
            Some(
                Rewrite::TopTerms(n) | Rewrite::TopTermsBoost(n) | Rewrite::TopTermsBlendedFreqs(n),
            ) => n.max(0) as usize,
            Some(_) => usize::MAX,
        }
    }

    /// Whether the expansions score with their largest doc freq (the blended rewrite).
    pub fn blended(&self) -> bool {
        matches!(self.rewrite, None | Some(Rewrite::TopTermsBlendedFreqs(_)))
    }

    /// Whether the whole query scores as a constant (`constant_score`, `constant_score_boolean`).
    pub fn constant(&self) -> bool {
        self.rewrite.is_some_and(constant_rewrite)
    }
}

/// Lucene's fuzzy query on a text or keyword field.
pub fn fuzzy(cx: &Context, f: Field, text: &str, p: &FuzzyParams) -> Result<Q> {
    let q = expand_fuzzy(cx, f, text, p)?;
    // Rewritten (an explanation's text), a fuzzy query is its expansions.
    if !cx.parsed {
        return Ok(q);
    }
    Ok(super::label(cx, q, || {
        let field = cx.searcher.schema().get_field_name(f);
        format!("{field}:{text}~{}", p.edits)
    }))
}

/// One term a fuzzy query expands to, with its similarity boost and the doc freq it scores
/// with (the expansions' largest, Lucene's blended rewrite; `None` for a plain term).
pub struct Expansion {
    pub term: Term,
    pub boost: f32,
    pub doc_freq: Option<u64>,
}

impl Expansion {
    /// The term query scoring this expansion, its boost inside the weight as Lucene's rewrite
    /// puts it.
    pub fn query(&self) -> LuceneTermQuery {
        let q = LuceneTermQuery::new(self.term.clone()).with_boost(self.boost);
        match self.doc_freq {
            Some(df) => q.with_doc_freq(df),
            None => q,
        }
    }

    /// The clause `rewrite` makes of this expansion: its term query, or under
    /// `top_terms_boost_N` a constant of its boost (Lucene's boosted `ConstantScoreQuery`).
    pub fn clause(&self, rewrite: Option<Rewrite>) -> Q {
        match rewrite {
            Some(Rewrite::TopTermsBoost(_)) => constant(
                Box::new(LuceneTermQuery::new(self.term.clone())),
                self.boost,
            ),
            _ => Box::new(self.query()),
        }
    }
}

/// The terms within the edit distance, each a term query boosted by its similarity (under a
/// constant rewrite, their union scoring 1).
fn expand_fuzzy(cx: &Context, f: Field, text: &str, p: &FuzzyParams) -> Result<Q> {
    let expansions = fuzzy_expansions(cx, f, text, p)?;
    let mut clauses: Vec<Q> = expansions.iter().map(|e| e.clause(p.rewrite)).collect();
    // One term is that term's query, as Lucene's rewrite of a one-clause boolean.
    let q = match clauses.len() {
        0 => return Ok(none()),
        1 => clauses.remove(0),
        // Summed in double, as Lucene's disjunction scorers sum.
        _ => Box::new(super::combine::SumQuery::new(clauses)),
    };
    Ok(if p.constant() { constant(q, 1.0) } else { q })
}

/// `indices.query.bool.max_clause_count`'s default: the most terms a scoring rewrite may
/// turn into clauses (Lucene's `IndexSearcher.getMaxClauseCount`).
const MAX_CLAUSE_COUNT: usize = 1024;

/// The terms of `f` that `regex` matches in any segment, in term order, as a multi-term query
/// enumerates the shard's terms for its rewrite.
fn matching_terms(cx: &Context, f: Field, regex: &str) -> Result<Vec<Term>> {
    let automaton = tantivy_fst::Regex::new(regex)
        .map_err(|e| Error::illegal_argument(format!("invalid regular expression: {e}")))?;
    let mut found: std::collections::BTreeSet<Vec<u8>> = Default::default();
    for reader in cx.searcher.segment_readers() {
        let inverted = reader.inverted_index(f)?;
        let mut stream = inverted.terms().search(&automaton).into_stream()?;
        while stream.advance() {
            found.insert(stream.key().to_vec());
        }
    }
    Ok(found
        .into_iter()
        .filter_map(|k| String::from_utf8(k).ok())
        .map(|t| Term::from_field_text(f, &t))
        .collect())
}

/// A prefix, wildcard or regexp (as tantivy's regex) under a rewrite that scores: Lucene's
/// `SCORING_BOOLEAN_REWRITE` (every term a BM25 term clause, refused past the clause limit) and
/// its `TopTermsRewrite` family, which keep the best N terms. Each term of these queries has
/// the same boost, 1, so the best are the N first in term order; `top_terms_N` scores them as
/// BM25 term clauses, `top_terms_boost_N` as constants of 1, and `top_terms_blended_freqs_N`
/// as BM25 term clauses sharing their largest doc freq. A sum, as Lucene's boolean of SHOULD
/// clauses scores; one term is that term's clause, as Lucene's boolean of one rewrites.
pub fn scoring_rewrite(cx: &Context, f: Field, regex: &str, rewrite: Rewrite) -> Result<Q> {
    let mut terms = matching_terms(cx, f, regex)?;
    match rewrite {
        Rewrite::ScoringBoolean if terms.len() > MAX_CLAUSE_COUNT => {
            // Thrown as the shard rewrites, not as it builds the query: a bare shard failure.
            return Err(Error::new(
                crate::error::ErrorKind::TooManyClauses,
                format!("maxClauseCount is set to {MAX_CLAUSE_COUNT}"),
            ));
        }
        Rewrite::TopTerms(n) | Rewrite::TopTermsBoost(n) | Rewrite::TopTermsBlendedFreqs(n) => {
            terms.truncate((n.max(0) as usize).min(MAX_CLAUSE_COUNT))
        }
        _ => {}
    }
    let blended = match rewrite {
        Rewrite::TopTermsBlendedFreqs(_) => {
            let mut max_df = 0;
            for t in &terms {
                max_df = max_df.max(cx.searcher.doc_freq(t)?);
            }
            Some(max_df)
        }
        _ => None,
    };
    let clause = |t: Term| -> Q {
        let q = LuceneTermQuery::new(t);
        match (rewrite, blended) {
            // Lucene's `ConstantScoreQuery` of the term, which prints as one.
            (Rewrite::TopTermsBoost(_), _) => {
                let term = lucene_string::term_string(cx.searcher.schema(), q.term());
                super::describe(cx, constant(Box::new(q), 1.0), || {
                    Some(lucene_string::plain(format!("ConstantScore({term})")))
                })
            }
            (_, Some(df)) => Box::new(q.with_doc_freq(df)),
            _ => Box::new(q),
        }
    };
    let mut clauses: Vec<Q> = terms.into_iter().map(clause).collect();
    Ok(match clauses.len() {
        0 => none(),
        1 => clauses.remove(0),
        _ => Box::new(super::combine::SumQuery::new(clauses)),
    })
}

/// A multi-term query's `rewrite`, as OpenSearch's `QueryParsers.parseRewriteMethod` reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rewrite {
    ConstantScore,
    ConstantScoreBoolean,
    ScoringBoolean,
    TopTerms(i32),
    TopTermsBoost(i32),
    TopTermsBlendedFreqs(i32),
}

/// Parses `rewrite` as the shard does when it builds the query: a named method, or a
/// `top_terms` family name followed by its size (an int from the first digit on). `supported`
/// says which methods Quarry runs as asked for this query; the others are refused rather than
/// scored another way.
pub fn check_rewrite(
    cx: &Context,
    rewrite: Option<&str>,
    supported: impl Fn(Rewrite) -> bool,
) -> Result<Option<Rewrite>> {
    let Some(method) = rewrite else {
        return Ok(None);
    };
    let parsed = match method {
        "constant_score" => Some(Rewrite::ConstantScore),
        "scoring_boolean" => Some(Rewrite::ScoringBoolean),
        "constant_score_boolean" => Some(Rewrite::ConstantScoreBoolean),
        _ => match method.find(|c: char| c.is_ascii_digit()) {
            None => None,
            Some(digit) => {
                let (name, size) = method.split_at(digit);
                let Ok(n) = size.parse::<i32>() else {
                    return Err(cx.create_failure(crate::error::Error::new(
                        crate::error::ErrorKind::NumberFormat,
                        format!("For input string: \"{size}\""),
                    )));
                };
                match name {
                    "top_terms_" => Some(Rewrite::TopTerms(n)),
                    "top_terms_boost_" => Some(Rewrite::TopTermsBoost(n)),
                    "top_terms_blended_freqs_" => Some(Rewrite::TopTermsBlendedFreqs(n)),
                    _ => None,
                }
            }
        },
    };
    let Some(r) = parsed else {
        return Err(
            cx.create_failure(crate::error::Error::illegal_argument(format!(
                "Failed to parse rewrite_method [{method}]"
            ))),
        );
    };
    if !supported(r) {
        return Err(
            cx.create_failure(crate::error::Error::illegal_argument(format!(
                "rewrite method [{method}] is not supported yet"
            ))),
        );
    }
    Ok(Some(r))
}

/// The rewrites that score a prefix, wildcard, regexp or fuzzy query as a constant.
pub fn constant_rewrite(r: Rewrite) -> bool {
    matches!(r, Rewrite::ConstantScore | Rewrite::ConstantScoreBoolean)
}

/// The rewrite when it scores the terms (`scoring_rewrite`); `None` for a constant one.
pub fn scoring(r: Option<Rewrite>) -> Option<Rewrite> {
    r.filter(|r| !constant_rewrite(*r))
}

/// The rewrites Quarry runs on a prefix, wildcard or regexp: all but a top-terms size below 1
/// (OpenSearch fails those with a null pointer exception).
pub fn runs_rewrite(r: Rewrite) -> bool {
    !matches!(r, Rewrite::TopTerms(n) | Rewrite::TopTermsBoost(n) | Rewrite::TopTermsBlendedFreqs(n) if n < 1)
}

/// What a fuzzy query on `text` rewrites to: the best `max_expansions` terms of the
/// dictionary within the edit distance (the text itself when no edit is allowed).
pub fn fuzzy_expansions(
    cx: &Context,
    f: Field,
    text: &str,
    p: &FuzzyParams,
) -> Result<Vec<Expansion>> {
    let query: Vec<char> = text.chars().collect();
    let max = p.edits as usize;
    if max == 0 {
        return Ok(vec![Expansion {
            term: Term::from_field_text(f, text),
            boost: 1.0,
            doc_freq: None,
        }]);
    }
    let prefix: String = query.iter().take(p.prefix_length).collect();
    // term → boost, over every segment's dictionary.
    let mut found: std::collections::BTreeMap<String, f32> = Default::default();
    for reader in cx.searcher.segment_readers() {
        let inv = reader.inverted_index(f)?;
        let mut stream = inv.terms().range().ge(prefix.as_bytes()).into_stream()?;
        while stream.advance() {
            let key = stream.key();
            if !key.starts_with(prefix.as_bytes()) {
                break;
            }
            let Ok(term) = std::str::from_utf8(key) else {
                continue;
            };
            if found.contains_key(term) {
                continue;
            }
            let cand: Vec<char> = term.chars().collect();
            if let Some(ed) = edit_distance(&query, &cand, p.transpositions, max) {
                let boost = if ed == 0 {
                    1.0
                } else {
                    // Below 0 for a term shorter than its edits: it ranks below the others, and
                    // scores 0 if it makes the cut (Lucene's rewrite clamps the boost).
                    1.0 - ed as f32 / query.len().min(cand.len()) as f32
                };
                found.insert(term.to_string(), boost);
            }
        }
    }
    // The best by boost, ties to the smaller term.
    let mut terms: Vec<(String, f32)> = found.into_iter().collect();
    terms.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    terms.truncate(p.limit().max(1));
    if p.rewrite == Some(Rewrite::ScoringBoolean) && terms.len() > MAX_CLAUSE_COUNT {
        return Err(Error::new(
            crate::error::ErrorKind::TooManyClauses,
            format!("maxClauseCount is set to {MAX_CLAUSE_COUNT}"),
        ));
    }
    // Lucene's top-terms rewrite builds its boolean in term order.
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    let mut max_df = None;
    if p.blended() {
        let mut most = 0;
        for (t, _) in &terms {
            most = most.max(cx.searcher.doc_freq(&Term::from_field_text(f, t))?);
        }
        max_df = Some(most);
    }
    Ok(terms
        .into_iter()
        .map(|(t, boost)| Expansion {
            term: Term::from_field_text(f, &t),
            boost: boost.max(0.0),
            doc_freq: max_df,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ed(a: &str, b: &str, t: bool) -> Option<usize> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        edit_distance(&a, &b, t, 2)
    }

    #[test]
    fn distances() {
        assert_eq!(ed("quick", "quikc", true), Some(1));
        assert_eq!(ed("quick", "quikc", false), Some(2));
        assert_eq!(ed("game", "games", true), Some(1));
        assert_eq!(ed("abc", "xyzw", true), None);
    }

    #[test]
    fn regexes() {
        assert_eq!(wildcard_regex("qu?ck*"), "(?s)qu.ck.*");
        assert_eq!(wildcard_regex("a\\*b."), "(?s)a\\*b\\.");
    }
}
