//! `query_string` / `q=` and `simple_query_string` on one shard: the syntax tree of
//! `dsl::lucene_syntax` / `dsl::simple_syntax`, its fields resolved against the mapping and its
//! leaves built as OpenSearch's QueryStringQueryParser builds them (query-string-and-dates.md
//! A1.4, A2): `match` logic per field joined by `dis_max`, one analysed run flattened into the
//! enclosing clause list, syntax errors as `query_shard_exception`.

use super::lucene_term::LuceneTermQuery;
use super::multi_term::{self, FuzzyParams};
use super::{all, boosted, none, values, Context, Q};
use crate::dsl::fuzziness::Fuzziness;
use crate::dsl::lucene_syntax::{self, Leaf, Node, Occur as LOccur};
use crate::dsl::query_string::{QueryStringQuery, SimpleQueryStringQuery};
use crate::dsl::simple_syntax::SimpleParser;
use crate::dsl::{MinimumShouldMatch, MultiMatchType, Operator, RangeQuery};
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::FieldType;
use crate::metadata::target::glob_match;
use serde_json::Value;
use tantivy::query::{BooleanQuery, Occur};
use tantivy::Term;

/// Everything a leaf needs besides its text.
struct Opts<'a> {
    name: &'static str,
    fields: Vec<(String, f32)>,
    /// The default field set is every field (`*`).
    all_fields: bool,
    /// A term without a field still reads `>x`, `<=x` as one-sided ranges: OpenSearch's parser
    /// has a default field then (`default_field`, or every field), not a `fields` list.
    default_ranges: bool,
    lenient: bool,
    and: bool,
    analyzer: Option<&'a str>,
    quote_analyzer: Option<&'a str>,
    ty: MultiMatchType,
    tie: f32,
    /// Quoted phrases over several fields (simple_query_string builds them as a `phrase`
    /// multi_match, whose tie is 0).
    phrase_tie: f32,
    phrase_slop: u32,
    fuzziness: Fuzziness,
    fuzzy: (usize, usize, bool),
    /// `rewrite` when it scores: prefixes, wildcards and regexps score their terms.
    scoring: Option<multi_term::Rewrite>,
    allow_leading_wildcard: bool,
    time_zone: Option<&'a str>,
}

/// Field patterns → mapped fields with multiplied boosts, in the order of the `HashMap`
/// OpenSearch resolves them into (as `text::expand_fields`).
fn resolve(cx: &Context, patterns: &[(String, f32)]) -> Vec<(String, f32)> {
    let mut out: std::collections::BTreeMap<String, f32> = Default::default();
    for (pat, boost) in patterns {
        if pat.contains('*') {
            for leaf in cx.mapping.leaves() {
                if leaf.field.index && glob_match(pat, &leaf.path) {
                    *out.entry(leaf.path.clone()).or_insert(1.0) *= boost;
                }
            }
        } else {
            *out.entry(pat.clone()).or_insert(1.0) *= boost;
        }
    }
    let mut out: Vec<(String, f32)> = out.into_iter().collect();
    crate::util::java_hash::hash_order(&mut out);
    out
}

fn tokens(cx: &Context, analyzer: &str, text: &str) -> Result<Vec<(usize, String)>> {
    super::text::analyze(cx, analyzer, text)
}

/// `pattern` lower-cased except for escaped characters, which keep their backslash and case.
fn lowercase_unescaped(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(c);
            out.extend(chars.next());
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// `>x`, `>=x`, `<x`, `<=x` as OpenSearch's `QueryStringQueryParser.getFieldQuery` reads
/// them: the operator and the bound (`>=` alone is `>` with the bound `=`).
fn one_sided(t: &str) -> Option<(&'static str, &str)> {
    let b = t.as_bytes();
    if b.len() < 2 {
        return None;
    }
    let or_equal = b.len() > 2 && b[1] == b'=';
    match (b[0], or_equal) {
        (b'>', true) => Some((">=", &t[2..])),
        (b'>', false) => Some((">", &t[1..])),
        (b'<', true) => Some(("<=", &t[2..])),
        (b'<', false) => Some(("<", &t[1..])),
        _ => None,
    }
}

/// The edit distance of `term~text`, as OpenSearch's `handleBareFuzzy` builds it: `AUTO`
/// (`AUTO:low,high`) by the term's length, else the text upper-cased and read as a Java float,
/// truncated and capped at 2 (negative values are refused later, per field).
fn slop_edits(cx: &Context, text: &str, len: usize) -> Result<i32> {
    let upper = text.to_uppercase();
    if upper == "AUTO" || upper.starts_with("AUTO:") {
        let f = Fuzziness::parse(text).map_err(|e| cx.create_failure(e))?;
        return Ok(i32::from(f.edits(len)));
    }
    // `Float.parseFloat`: digits, a sign, a point, an exponent and a trailing `F` or `D`
    // (after upper-casing, `Infinity` and `NaN` no longer read as numbers).
    let number = upper.strip_suffix(['F', 'D']).unwrap_or(&upper);
    let numeric = !number.is_empty()
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'E'));
    match number.parse::<f32>() {
        Ok(f) if numeric => Ok((f as i32).min(2)),
        _ => {
            let nfe = Error::new(
                ErrorKind::NumberFormat,
                format!("For input string: \"{upper}\""),
            );
            Err(cx.create_failure(nfe))
        }
    }
}

impl Opts<'_> {
    /// A prefix, wildcard or regexp (as tantivy's regex): a constant, or its terms scored under
    /// a scoring `rewrite`.
    fn pattern(&self, cx: &Context, f: tantivy::schema::Field, re: &str) -> Result<Q> {
        match self.scoring {
            Some(r) => multi_term::scoring_rewrite(cx, f, re, r),
            None => multi_term::regex_query(f, re, 1.0),
        }
    }

    fn occur(&self) -> Occur {
        if self.and {
            Occur::Must
        } else {
            Occur::Should
        }
    }

    /// One query per field, joined by `dis_max(tie)`; `None` when every field dropped it.
    fn per_field(
        &self,
        cx: &Context,
        field: &Option<String>,
        f: impl FnMut(&str) -> Result<Option<Q>>,
    ) -> Result<Option<Q>> {
        self.per_field_tie(cx, field, self.tie, f)
    }

    fn per_field_tie(
        &self,
        cx: &Context,
        field: &Option<String>,
        tie: f32,
        mut f: impl FnMut(&str) -> Result<Option<Q>>,
    ) -> Result<Option<Q>> {
        let fields = match field {
            Some(name) if name == "*" => resolve(cx, &[("*".to_string(), 1.0)]),
            Some(name) => resolve(cx, &[(name.clone(), 1.0)]),
            None => self.fields.clone(),
        };
        let mut qs: Vec<Q> = Vec::new();
        let mut matched_any = false;
        for (name, boost) in &fields {
            if name != "_id" && cx.mapping.field(name).is_none() {
                continue;
            }
            matched_any = true;
            match f(name) {
                Ok(Some(q)) => qs.push(boosted(q, *boost)),
                Ok(None) => {}
                Err(e) if self.lenient => qs.push(super::lenient_none(cx, name, &e)),
                Err(e) => return Err(cx.create_failure(e)),
            }
        }
        if !matched_any {
            return Ok(Some(none()));
        }
        Ok(match qs.len() {
            0 => None,
            1 => qs.pop(),
            _ => Some(super::dis_max(cx, qs, tie)?),
        })
    }

    /// Analysed text on one field: terms joined by the default operator, or a phrase with
    /// `phrase`'s slop; unquoted text of a `phrase_prefix` query expands its last term as
    /// `match_phrase_prefix` does (OpenSearch builds it through its multi_match for the type).
    fn text_on(
        &self,
        cx: &Context,
        name: &str,
        text: &str,
        phrase: Option<u32>,
        quoted: bool,
    ) -> Result<Option<Q>> {
        if name == "_id" {
            return Ok(Some(super::term(
                cx,
                "_id",
                &Value::from(text),
                1.0,
                false,
            )?));
        }
        let Some((f, fm)) = cx.field(name) else {
            return Ok(Some(none()));
        };
        match fm.ty {
            FieldType::Text => {
                let analyzer = if quoted {
                    self.quote_analyzer.or(self.analyzer)
                } else {
                    self.analyzer
                }
                .unwrap_or(&fm.search_analyzer);
                let toks = tokens(cx, analyzer, text)?;
                if let (Some(slop), false, MultiMatchType::PhrasePrefix) = (phrase, quoted, self.ty)
                {
                    // OpenSearch's default expansion limit for the type (its queries' 50).
                    return super::text::phrase_prefix_of(cx, f, &toks, slop, 50);
                }
                let mut leaves: Vec<(usize, Q)> = toks
                    .iter()
                    .map(|(p, t)| {
                        (
                            *p,
                            Box::new(LuceneTermQuery::new(Term::from_field_text(f, t))) as Q,
                        )
                    })
                    .collect();
                Ok(match leaves.len() {
                    0 => None,
                    1 => leaves.pop().map(|(_, q)| q),
                    _ => match phrase {
                        Some(slop) => super::text::phrase_of(f, &toks, slop),
                        // Or'ed terms are Lucene's disjunction, which its parent absorbs.
                        None if self.occur() == Occur::Should => {
                            Some(Box::new(super::combine::SumQuery::new(
                                leaves.into_iter().map(|(_, q)| q).collect(),
                            )))
                        }
                        None => Some(Box::new(BooleanQuery::new(
                            leaves.into_iter().map(|(_, q)| (self.occur(), q)).collect(),
                        ))),
                    },
                })
            }
            FieldType::Keyword => Ok(Some(Box::new(LuceneTermQuery::new(Term::from_field_text(
                f, text,
            ))))),
            FieldType::Boolean => Ok(Some(Box::new(LuceneTermQuery::new(Term::from_field_bool(
                f,
                values::boolean(cx, &Value::from(text))?,
            ))))),
            _ => Ok(Some(
                match values::exact_bounds(cx, f, fm, &Value::from(text), values::StringsAs::Text)?
                {
                    Some((lo, hi)) => {
                        let text = cx
                            .describe
                            .then(|| values::describe_points(cx, name, f, fm, &lo, &hi))
                            .flatten();
                        let q = super::constant(values::exact_query(lo, hi), 1.0);
                        super::describe(cx, q, || text)
                    }
                    None => none(),
                },
            )),
        }
    }

    /// The field and the term of a `kind` (`prefix`, `wildcard`, `fuzzy`) query on a text or
    /// keyword field; other types are refused in OpenSearch's words (only the fuzzy refusal
    /// comes wrapped as a failure to create the query).
    fn normalized(
        &self,
        cx: &Context,
        name: &str,
        text: &str,
        kind: &str,
    ) -> Result<(tantivy::schema::Field, String)> {
        let (f, fm) = cx
            .field(name)
            .ok_or_else(|| Error::illegal_argument(format!("unmapped field [{name}]")))?;
        match fm.ty {
            // A wildcard pattern keeps its escapes, and the escaped characters as written
            // (Lucene's `analyzeWildcard` normalizes only the runs between them).
            FieldType::Text if kind == "wildcard" => Ok((f, lowercase_unescaped(text))),
            FieldType::Text => Ok((f, text.to_lowercase())),
            FieldType::Keyword => Ok((f, text.to_string())),
            _ => {
                let refusal = super::terms_only(kind, name, fm.ty.name());
                Err(match kind {
                    "fuzzy" => cx.create_failure(Error::illegal_argument(refusal)),
                    _ => cx.shard_error(refusal),
                })
            }
        }
    }

    fn range_on(
        &self,
        cx: &Context,
        name: &str,
        lo: Option<String>,
        hi: Option<String>,
        il: bool,
        ih: bool,
    ) -> Result<Option<Q>> {
        // The parser normalizes a text field's bounds with its search analyzer (lower case),
        // where the `range` query takes them as they are.
        let text = cx
            .field(name)
            .is_some_and(|(_, fm)| fm.ty == FieldType::Text);
        let (lo, hi) = if text {
            (lo.map(|s| s.to_lowercase()), hi.map(|s| s.to_lowercase()))
        } else {
            (lo, hi)
        };
        let r = RangeQuery {
            field: name.to_string(),
            from: lo.map(Value::from),
            to: hi.map(Value::from),
            include_lower: il,
            include_upper: ih,
            format: None,
            time_zone: self.time_zone.map(String::from),
            boost: 1.0,
        };
        Ok(Some(values::range(cx, &r)?))
    }

    fn leaf(&self, cx: &Context, field: &Option<String>, leaf: &Leaf) -> Result<Option<Q>> {
        if field.as_deref() == Some("_exists_") {
            let text = match leaf {
                Leaf::Text(t) | Leaf::Run(t) | Leaf::Prefix(t) | Leaf::Wildcard(t) => t.clone(),
                _ => String::new(),
            };
            return Ok(Some(super::exists(cx, &text, 1.0)));
        }
        match leaf {
            Leaf::MatchAll => Ok(Some(all(1.0))),
            Leaf::Text(t) | Leaf::Run(t) => {
                // `field:>x` and friends: one-sided ranges, with an explicit or default field (a run
                // of words too: the parser hands it over whole, `> a` bounding at " a").
                let ranges = field.is_some() || self.default_ranges;
                if let (true, Some((op, v))) = (ranges, one_sided(t)) {
                    return self.per_field(cx, field, |name| match op {
                        ">=" => self.range_on(cx, name, Some(v.into()), None, true, true),
                        ">" => self.range_on(cx, name, Some(v.into()), None, false, true),
                        "<=" => self.range_on(cx, name, None, Some(v.into()), true, true),
                        _ => self.range_on(cx, name, None, Some(v.into()), true, false),
                    });
                }
                let phrase = match self.ty {
                    MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => Some(self.phrase_slop),
                    _ => None,
                };
                self.per_field(cx, field, |name| self.text_on(cx, name, t, phrase, false))
            }
            Leaf::Phrase { text, slop } => {
                let slop = slop.unwrap_or(self.phrase_slop);
                self.per_field_tie(cx, field, self.phrase_tie, |name| {
                    self.text_on(cx, name, text, Some(slop), true)
                })
            }
            Leaf::Fuzzy { text, fuzziness } => {
                let n = text.chars().count();
                let edits = match fuzziness {
                    None => i32::from(self.fuzziness.edits(n)),
                    Some(s) => slop_edits(cx, s, n)?,
                };
                self.per_field(cx, field, |name| {
                    let edits = u8::try_from(edits)
                        .ok()
                        .filter(|&e| e <= 2)
                        .ok_or_else(|| {
                            Error::illegal_argument(format!(
                                "Valid edit distances are [0, 1, 2] but was [{edits}]"
                            ))
                        })?;
                    let (f, t) = self.normalized(cx, name, text, "fuzzy")?;
                    Ok(Some(multi_term::fuzzy(
                        cx,
                        f,
                        &t,
                        &FuzzyParams {
                            edits,
                            prefix_length: self.fuzzy.0,
                            max_expansions: self.fuzzy.1,
                            transpositions: self.fuzzy.2,
                            // `fuzzy_rewrite` is checked, but OpenSearch builds these with the
                            // default rewrite.
                            rewrite: None,
                        },
                    )?))
                })
            }
            Leaf::Prefix(p) => self.per_field(cx, field, |name| {
                let (f, t) = self.normalized(cx, name, p, "prefix")?;
                let q = self.pattern(cx, f, &format!("(?s){}.*", super::regex_escape(&t)))?;
                Ok(Some(super::label(cx, q, || format!("{name}:{t}*"))))
            }),
            Leaf::Wildcard(w) => {
                if w == "*" {
                    let every = match field {
                        Some(f) => f == "*",
                        None => self.all_fields,
                    };
                    if every {
                        return Ok(Some(all(1.0)));
                    }
                    return self
                        .per_field(cx, field, |name| Ok(Some(super::exists(cx, name, 1.0))));
                }
                if !self.allow_leading_wildcard && (w.starts_with('*') || w.starts_with('?')) {
                    return Err(Error::new(
                        ErrorKind::LuceneParse,
                        "'*' or '?' not allowed as first character in WildcardQuery",
                    ));
                }
                self.per_field(cx, field, |name| {
                    let (f, t) = self.normalized(cx, name, w, "wildcard")?;
                    let q = self.pattern(cx, f, &multi_term::wildcard_regex(&t))?;
                    Ok(Some(super::label(cx, q, || format!("{name}:{t}"))))
                })
            }
            Leaf::Regexp(r) => self.per_field(cx, field, |name| {
                if cx
                    .field(name)
                    .is_some_and(|(_, fm)| !matches!(fm.ty, FieldType::Text | FieldType::Keyword))
                {
                    // Lucene's regexp over the field's terms: numbers, dates and the like index
                    // points, not terms, so nothing matches (OpenSearch refuses nothing here).
                    return Ok(Some(super::label(cx, none(), || format!("{name}:/{r}/"))));
                }
                let (f, t) = self.normalized(cx, name, r, "regexp")?;
                // A pattern Lucene cannot parse matches nothing here; one Quarry cannot run is
                // refused rather than matched wrongly.
                let q = match super::lucene_regexp::translate(&t, super::lucene_regexp::ALL) {
                    Ok(Some(re)) => self.pattern(cx, f, &re)?,
                    Ok(None) | Err(super::lucene_regexp::Refusal::Syntax(_)) => none(),
                    Err(refusal) => return Err(cx.create_failure(refusal.error())),
                };
                Ok(Some(super::label(cx, q, || format!("{name}:/{t}/"))))
            }),
            Leaf::Range {
                lo,
                hi,
                incl_lo,
                incl_hi,
            } => self.per_field(cx, field, |name| {
                self.range_on(cx, name, lo.clone(), hi.clone(), *incl_lo, *incl_hi)
            }),
        }
    }

    /// A node; `msm` applies when it is the top boolean.
    fn node(&self, cx: &Context, n: &Node, msm: Option<&MinimumShouldMatch>) -> Result<Option<Q>> {
        match n {
            Node::Boost(inner, b) => Ok(self.node(cx, inner, msm)?.map(|q| boosted(q, *b))),
            Node::Leaf { field, leaf } => {
                // A top-level run on one field is a boolean too: msm counts its terms.
                if let (Some(m), Leaf::Run(_)) = (msm, leaf) {
                    let flat = self.flatten(cx, field, leaf, self.occur())?;
                    return self.boolean(cx, flat, Some(m));
                }
                self.leaf(cx, field, leaf)
            }
            Node::Bool(clauses) => {
                let mut out: Vec<(Occur, Q)> = Vec::new();
                for (o, c) in clauses {
                    let occur = match o {
                        LOccur::Must => Occur::Must,
                        LOccur::Should => Occur::Should,
                        LOccur::MustNot => Occur::MustNot,
                        LOccur::Filter => {
                            if let Some(q) = self.node(cx, c, None)? {
                                out.push((Occur::Must, super::constant(q, 0.0)));
                            }
                            continue;
                        }
                    };
                    match c {
                        Node::Leaf {
                            field,
                            leaf: leaf @ Leaf::Run(_),
                        } => {
                            out.extend(self.flatten(cx, field, leaf, occur)?);
                        }
                        _ => {
                            if let Some(q) = self.node(cx, c, None)? {
                                out.push((occur, q));
                            }
                        }
                    }
                }
                self.boolean(cx, out, msm)
            }
        }
    }

    /// An analysed run on one text field is a boolean of terms whose clauses join the enclosing
    /// list (Lucene's `addMultiTermClauses`): the default occur each, the clause's own on the last.
    fn flatten(
        &self,
        cx: &Context,
        field: &Option<String>,
        leaf: &Leaf,
        occur: Occur,
    ) -> Result<Vec<(Occur, Q)>> {
        let Leaf::Run(text) = leaf else {
            unreachable!()
        };
        let single = match field {
            Some(f) if !f.contains('*') => Some((f.clone(), 1.0)),
            None if self.fields.len() == 1 => Some(self.fields[0].clone()),
            _ => None,
        };
        // A run reading `>x` is one range, not terms.
        let range = (field.is_some() || self.default_ranges) && one_sided(text).is_some();
        let phrase = matches!(
            self.ty,
            MultiMatchType::Phrase | MultiMatchType::PhrasePrefix
        ) || range;
        if let (Some((name, boost)), false) = (single, phrase) {
            if let Some((f, fm)) = cx.field(&name) {
                if fm.ty == FieldType::Text {
                    let analyzer = self.analyzer.unwrap_or(&fm.search_analyzer);
                    let toks = match tokens(cx, analyzer, text) {
                        Ok(t) => t,
                        Err(_) if self.lenient => return Ok(vec![(occur, none())]),
                        Err(e) => return Err(cx.create_failure(e)),
                    };
                    let n = toks.len();
                    return Ok(toks
                        .into_iter()
                        .enumerate()
                        .map(|(i, (_, t))| {
                            let q = boosted(
                                Box::new(LuceneTermQuery::new(Term::from_field_text(f, &t))),
                                boost,
                            );
                            (if i + 1 == n { occur } else { self.occur() }, q)
                        })
                        .collect());
                }
            }
        }
        Ok(self
            .leaf(cx, field, leaf)?
            .map(|q| (occur, q))
            .into_iter()
            .collect())
    }

    fn boolean(
        &self,
        cx: &Context,
        mut clauses: Vec<(Occur, Q)>,
        msm: Option<&MinimumShouldMatch>,
    ) -> Result<Option<Q>> {
        if clauses.is_empty() {
            return Ok(None);
        }
        let shoulds = clauses.iter().filter(|(o, _)| *o == Occur::Should).count();
        let required = clauses.iter().any(|(o, _)| *o == Occur::Must);
        let min = super::min_should(cx, msm, shoulds)?;
        if clauses.len() == 1 && min == 0 && clauses[0].0 != Occur::MustNot {
            return Ok(clauses.pop().map(|(_, q)| q));
        }
        if min > shoulds {
            return Ok(Some(none()));
        }
        if min <= 1 && shoulds == clauses.len() && !(min == 1 && cx.label) {
            // Optional clauses alone: Lucene's disjunction, flattened into its parent and its
            // equal terms merged as the boolean rewrite does.
            let qs = clauses.into_iter().map(|(_, q)| q).collect();
            return Ok(Some(Box::new(super::combine::SumQuery::new(qs))));
        }
        let mut q = if min > 0 {
            BooleanQuery::with_minimum_required_clauses(clauses, min)
        } else {
            BooleanQuery::new(clauses)
        };
        if min == 0 && required {
            q.set_minimum_number_should_match(0);
        }
        if min == 1 && !required && cx.label {
            let text = super::lucene_string::at_least_one(&q, cx.searcher.schema());
            return Ok(Some(super::label_boolean(cx, Box::new(q), || text)));
        }
        Ok(Some(Box::new(q)))
    }
}

fn default_fields(
    cx: &Context,
    default_field: Option<&str>,
    fields: &[(String, f32)],
) -> (Vec<(String, f32)>, bool) {
    if let Some(df) = default_field {
        if df == "*" {
            return (resolve(cx, &[("*".into(), 1.0)]), true);
        }
        return (resolve(cx, &[(df.to_string(), 1.0)]), false);
    }
    if !fields.is_empty() {
        let star = fields.iter().any(|(f, _)| f == "*");
        return (resolve(cx, fields), star);
    }
    (resolve(cx, &[("*".into(), 1.0)]), true)
}

fn syntax_failure(cx: &Context, query: &str, e: lucene_syntax::SyntaxError) -> Error {
    // The lexer's failures are Lucene's `TokenMgrError`, the grammar's its `ParseException`.
    let kind = if e.lexical {
        ErrorKind::TokenMgr
    } else {
        ErrorKind::LuceneParse
    };
    let inner = Error::new(kind, e.message.clone());
    cx.shard_error(format!("Failed to parse query [{query}]"))
        .caused_by(
            Error::new(
                ErrorKind::LuceneParse,
                format!("Cannot parse '{query}': {}", e.message),
            )
            .caused_by(inner),
        )
}

fn escape_all(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    for c in q.chars() {
        if "\\+-!():^[]\"{}~*?|&/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

pub fn query_string(cx: &Context, q: &QueryStringQuery) -> Result<Q> {
    let (fields, star) = default_fields(cx, q.default_field.as_deref(), &q.fields);
    let opts = Opts {
        name: "query_string",
        default_ranges: q.default_field.is_some() || q.fields.is_empty(),
        all_fields: star,
        lenient: q.lenient.unwrap_or(star),
        fields,
        and: q.default_operator == Operator::And,
        analyzer: q.analyzer.as_deref(),
        quote_analyzer: q.quote_analyzer.as_deref(),
        ty: q.ty,
        tie: q.tie_breaker.unwrap_or(q.ty.default_tie()),
        phrase_tie: q.tie_breaker.unwrap_or(q.ty.default_tie()),
        phrase_slop: q.phrase_slop,
        fuzziness: q.fuzziness,
        fuzzy: (
            q.fuzzy_prefix_length as usize,
            q.fuzzy_max_expansions as usize,
            q.fuzzy_transpositions,
        ),
        scoring: multi_term::scoring(multi_term::check_rewrite(
            cx,
            q.rewrite.as_deref(),
            multi_term::runs_rewrite,
        )?),
        allow_leading_wildcard: q.allow_leading_wildcard,
        time_zone: q.time_zone.as_deref(),
    };
    // Checked, as the shard parses it, but the fuzzy terms of a query string are built with
    // the default rewrite whatever it says (OpenSearch 2.19: `roam~` scores and expands the
    // same under `constant_score` and `top_terms_blended_freqs_1`).
    multi_term::check_rewrite(cx, q.fuzzy_rewrite.as_deref(), |_| true)?;
    for name in [opts.analyzer, opts.quote_analyzer].into_iter().flatten() {
        if cx
            .searcher
            .index()
            .tokenizers()
            .get(crate::analysis::tokenizer_name(name))
            .is_none()
        {
            let which = if Some(name) == opts.analyzer {
                "analyzer"
            } else {
                "quote_analyzer"
            };
            return Err(cx.shard_error(format!("[{}] {which} [{name}] not found", opts.name)));
        }
    }
    let text = if q.escape {
        escape_all(&q.query)
    } else {
        q.query.clone()
    };
    if text.trim().is_empty() {
        return Ok(none());
    }
    let tree =
        lucene_syntax::parse(&text, opts.and).map_err(|e| syntax_failure(cx, &q.query, e))?;
    let Some(tree) = tree else { return Ok(none()) };
    let built = opts
        .node(cx, &tree, q.minimum_should_match.as_ref())
        .map_err(|e| {
            if e.kind == ErrorKind::LuceneParse {
                syntax_failure(
                    cx,
                    &q.query,
                    lucene_syntax::SyntaxError {
                        message: e.reason.clone(),
                        lexical: false,
                    },
                )
            } else {
                cx.create_failure(e)
            }
        })?;
    Ok(boosted(built.unwrap_or_else(none), q.boost))
}

pub fn simple_query_string(cx: &Context, q: &SimpleQueryStringQuery) -> Result<Q> {
    let (fields, star) = default_fields(cx, None, &q.fields);
    let opts = Opts {
        name: "simple_query_string",
        default_ranges: false,
        all_fields: star,
        lenient: q.lenient.unwrap_or(star),
        fields,
        and: q.default_operator == Operator::And,
        analyzer: q.analyzer.as_deref(),
        quote_analyzer: None,
        ty: MultiMatchType::MostFields,
        tie: 1.0,
        phrase_tie: 0.0,
        phrase_slop: 0,
        fuzziness: Fuzziness::AUTO,
        fuzzy: (
            q.fuzzy_prefix_length as usize,
            q.fuzzy_max_expansions as usize,
            q.fuzzy_transpositions,
        ),
        scoring: None,
        allow_leading_wildcard: true,
        time_zone: None,
    };
    if let Some(name) = opts.analyzer {
        if cx
            .searcher
            .index()
            .tokenizers()
            .get(crate::analysis::tokenizer_name(name))
            .is_none()
        {
            return Err(cx.shard_error(format!("[{}] analyzer [{name}] not found", opts.name)));
        }
    }
    if q.query.trim() == "*" {
        return Ok(boosted(all(1.0), q.boost));
    }
    let parser = SimpleParser {
        flags: q.flags,
        and_default: opts.and,
    };
    let tree = parser
        .parse(&q.query)
        .map_err(|at| syntax_failure(cx, &q.query, lucene_syntax::too_deep(at)))?;
    let Some(tree) = tree else {
        return Ok(none());
    };
    // simple_query_string leaves are never flattened runs: each token is its own leaf.
    let built = opts
        .node(cx, &tree, q.minimum_should_match.as_ref())
        .map_err(|e| cx.create_failure(e))?;
    Ok(boosted(built.unwrap_or_else(none), q.boost))
}
