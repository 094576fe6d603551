//! Field values → the tantivy document a shard indexes. Built by the writing request's own
//! thread before it takes the shard's writer lock, so concurrent bulks build their documents in
//! parallel and the lock covers only versioning, the translog and the hand-off to tantivy.

use crate::index::document_parser::FieldValue;
use crate::index::schema::Fields;
use std::sync::Arc;
use tantivy::schema::Field;
use tantivy::tokenizer::TokenizerManager;
use tantivy::{DateTime, TantivyDocument};

/// The schema's fields and the index's analyzers, as one opening of a shard's tantivy index has
/// them. A document built from an older builder stays valid after a schema extension: fields are
/// only ever appended (tantivy-napi.md §6.5), so every field it names keeps its id and options.
#[derive(Clone)]
pub struct DocBuilder {
    pub fields: Arc<Fields>,
    tokenizers: TokenizerManager,
}

/// Text values per field, with the mapping's gap if any: a field with several values is indexed
/// as one pre-tokenized value, `position_increment_gap` positions between values.
type TextValues<'a> = Vec<(Field, Option<u32>, Vec<&'a str>)>;

fn text_entry(texts: &mut TextValues, f: Field) -> usize {
    match texts.iter().position(|t| t.0 == f) {
        Some(i) => i,
        None => {
            texts.push((f, None, Vec::new()));
            texts.len() - 1
        }
    }
}

impl DocBuilder {
    pub fn new(fields: Fields, tokenizers: TokenizerManager) -> DocBuilder {
        DocBuilder {
            fields: Arc::new(fields),
            tokenizers,
        }
    }

    /// The document without its sequence number, version and primary term, which only the
    /// shard can give it (`stamp`, under the writer lock).
    pub fn build(
        &self,
        id: &str,
        routing: Option<&str>,
        source: &[u8],
        values: &[(std::borrow::Cow<'_, str>, FieldValue<'_>)],
    ) -> TantivyDocument {
        let fields = &*self.fields;
        // The values are copied into one buffer: sized once instead of grown value by value.
        let text_bytes: usize = values
            .iter()
            .map(|(_, v)| match v {
                FieldValue::Str(s) => s.len() + 8,
                _ => 16,
            })
            .sum();
        let mut doc = TantivyDocument::with_capacity(source.len() + id.len() + text_bytes + 96);
        doc.add_text(fields.id, id);
        if fields.source_is_text {
            // A source is JSON the parser accepted, so UTF-8: the lossy path never replaces.
            doc.add_text(fields.source, String::from_utf8_lossy(source));
        } else {
            doc.add_bytes(fields.source, source);
        }
        if let Some(r) = routing {
            doc.add_text(fields.routing, r);
        }
        let mut texts: TextValues = Vec::new();
        for (path, value) in values {
            let Some(&f) = fields.by_path.get(path.as_ref()) else {
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
                    Some(key) => {
                        doc.add_text(f, crate::analysis::normalize(&self.tokenizers, key, s))
                    }
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
            match crate::analysis::multi_valued(&self.tokenizers, &fields.text[&f], &vals, gap) {
                Some(pre) => doc.add_pre_tokenized_text(f, pre),
                None => vals.iter().for_each(|v| doc.add_text(f, v)),
            }
        }
        doc
    }
}

/// Gives a built document the numbers the shard assigned it.
pub fn stamp(fields: &Fields, doc: &mut TantivyDocument, seq_no: i64, version: i64, term: i64) {
    doc.add_i64(fields.seq_no, seq_no);
    doc.add_i64(fields.version, version);
    doc.add_i64(fields.primary_term, term);
}
