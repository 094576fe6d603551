//! Mapping → tantivy schema. Append-only: a field, once in the schema, keeps its id and options
//! for the life of the index (tantivy-napi.md §6.5); new mapped fields are appended.

use crate::analysis::tokenizer_name;
use crate::index::mapping::{FieldMapping, FieldType, Mapping};
use rustc_hash::FxHashMap;
use tantivy::schema::{
    DateOptions, DateTimePrecision, Field, IndexRecordOption, IpAddrOptions, NumericOptions,
    Schema, SchemaBuilder, TextFieldIndexing, TextOptions,
};

pub const ID: &str = "_id";
pub const SOURCE: &str = "_source";
pub const SEQ_NO: &str = "_seq_no";
pub const VERSION: &str = "_version";
pub const PRIMARY_TERM: &str = "_primary_term";
pub const ROUTING: &str = "_routing";

/// Names a document source may not use: they are request metadata in OpenSearch.
pub fn is_metadata_field(name: &str) -> bool {
    matches!(
        name,
        "_id"
            | "_index"
            | "_routing"
            | "_seq_no"
            | "_primary_term"
            | "_version"
            | "_source"
            | "_field_names"
            | "_ignored"
            | "_type"
            | "_data_stream_timestamp"
    )
}

/// The internal fields every shard has, in this order, before any mapped field.
pub fn base_schema() -> Schema {
    let mut b = Schema::builder();
    add_internal(&mut b);
    b.build()
}

fn add_internal(b: &mut SchemaBuilder) {
    let raw = TextFieldIndexing::default()
        .set_tokenizer("raw")
        .set_index_option(IndexRecordOption::Basic)
        .set_fieldnorms(false);
    b.add_text_field(
        ID,
        TextOptions::default()
            .set_indexing_options(raw.clone())
            .set_stored(),
    );
    // Stored as text, not bytes: tantivy reads a stored bytes value back one byte at a time,
    // a string with one copy, and every hit and `GET` reads `_source`. Indices created with a
    // bytes `_source` keep it (`stored_source` reads both).
    b.add_text_field(SOURCE, TextOptions::default().set_stored());
    // Not indexed: ranges on `_seq_no` run on its column (tantivy's `RangeQuery` prefers a fast
    // field), and a term per document (all distinct) was a dictionary and postings list that no
    // query read, paid on every write and merge. Indices created before keep theirs.
    b.add_i64_field(SEQ_NO, NumericOptions::default().set_fast().set_stored());
    b.add_i64_field(VERSION, NumericOptions::default().set_fast().set_stored());
    b.add_i64_field(
        PRIMARY_TERM,
        NumericOptions::default().set_fast().set_stored(),
    );
    b.add_text_field(
        ROUTING,
        TextOptions::default()
            .set_indexing_options(raw)
            .set_stored(),
    );
}

/// Whether a leaf needs a tantivy field at all (`index: false` + `doc_values: false` does not).
fn needs_field(f: &FieldMapping) -> bool {
    f.index || (f.doc_values && f.ty != FieldType::Text)
}

fn add_leaf(b: &mut SchemaBuilder, path: &str, f: &FieldMapping) {
    match f.ty {
        FieldType::Text => {
            let indexing = TextFieldIndexing::default()
                .set_tokenizer(tokenizer_name(&f.analyzer))
                .set_index_option(IndexRecordOption::WithFreqsAndPositions)
                .set_fieldnorms(f.norms);
            b.add_text_field(path, TextOptions::default().set_indexing_options(indexing));
        }
        FieldType::Keyword => {
            let mut opts = TextOptions::default();
            if f.index {
                // A normalized value arrives normalized (`Fields::normalizers`); the tokenizer
                // keeps it whole, and its name records the normalizer.
                let tokenizer = match &f.normalizer {
                    Some(n) => crate::analysis::keyword_tokenizer_name(n),
                    None => "raw".to_string(),
                };
                opts = opts.set_indexing_options(
                    TextFieldIndexing::default()
                        .set_tokenizer(&tokenizer)
                        .set_index_option(IndexRecordOption::Basic)
                        .set_fieldnorms(false),
                );
            }
            if f.doc_values {
                opts = opts.set_fast(Some("raw"));
            }
            b.add_text_field(path, opts);
        }
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
            b.add_i64_field(path, numeric(f));
        }
        FieldType::UnsignedLong => {
            b.add_u64_field(path, numeric(f));
        }
        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
            b.add_f64_field(path, numeric(f));
        }
        FieldType::Boolean => {
            b.add_bool_field(path, numeric(f));
        }
        FieldType::Date => {
            let mut o = DateOptions::default().set_precision(DateTimePrecision::Milliseconds);
            if f.index {
                o = o.set_indexed();
            }
            if f.doc_values || f.index {
                // Indexed dates are second-precision in tantivy; millisecond ranges use the column.
                o = o.set_fast();
            }
            b.add_date_field(path, o);
        }
        FieldType::Ip => {
            let mut o = IpAddrOptions::default();
            if f.index {
                o = o.set_indexed();
            }
            if f.doc_values {
                o = o.set_fast();
            }
            b.add_ip_addr_field(path, o);
        }
    }
}

fn numeric(f: &FieldMapping) -> NumericOptions {
    let mut o = NumericOptions::default();
    if f.index {
        o = o.set_indexed();
    }
    if f.doc_values {
        o = o.set_fast();
    }
    o
}

/// The outcome of extending a schema for a mapping.
pub struct Extension {
    pub schema: Schema,
    /// Some appended field records fieldnorms: segments written before can no longer be merged
    /// by stock tantivy (tantivy-napi.md §6.4), so the shard freezes them.
    pub adds_fieldnorms: bool,
}

/// `None` when every leaf of `mapping` already has its field.
pub fn extend(existing: &Schema, mapping: &Mapping) -> Option<Extension> {
    let missing: Vec<_> = mapping
        .leaves()
        .into_iter()
        .filter(|l| needs_field(l.field) && existing.get_field(&l.path).is_err())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut b = Schema::builder();
    for (_, entry) in existing.fields() {
        b.add_field(entry.clone());
    }
    for leaf in &missing {
        add_leaf(&mut b, &leaf.path, leaf.field);
    }
    let schema = b.build();
    let adds_fieldnorms = missing.iter().any(|l| {
        schema
            .get_field_entry(schema.get_field(&l.path).expect("just added"))
            .has_fieldnorms()
    });
    Some(Extension {
        schema,
        adds_fieldnorms,
    })
}

/// A stored document's `_source` bytes, whether the index stores it as text or as bytes.
pub fn stored_source(doc: &tantivy::TantivyDocument, source: Field) -> Option<&[u8]> {
    use tantivy::schema::Value;
    let v = doc.get_first(source)?;
    v.as_str().map(str::as_bytes).or_else(|| v.as_bytes())
}

/// Whether the schema stores `_source` as text (bytes in indices created before).
fn source_is_text(schema: &Schema) -> bool {
    schema.get_field(SOURCE).is_ok_and(|f| {
        schema.get_field_entry(f).field_type().value_type() == tantivy::schema::Type::Str
    })
}

/// Fields resolved once per schema, so documents are built without name lookups.
#[derive(Debug, Clone)]
pub struct Fields {
    pub id: Field,
    pub source: Field,
    /// `_source` is a text field (bytes in indices created before).
    pub source_is_text: bool,
    pub seq_no: Field,
    pub version: Field,
    pub primary_term: Field,
    pub routing: Field,
    pub by_path: FxHashMap<String, Field>,
    /// Text fields with positions → their tokenizer (multi-valued ones are pre-tokenized with
    /// the position increment gap).
    pub text: FxHashMap<Field, String>,
    /// Normalized keyword fields → the normalizer's tokenizer-manager key.
    pub normalizers: FxHashMap<Field, String>,
}

impl Fields {
    pub fn new(schema: &Schema) -> Fields {
        let f = |n: &str| schema.get_field(n).expect("internal field");
        Fields {
            id: f(ID),
            source: f(SOURCE),
            source_is_text: source_is_text(schema),
            seq_no: f(SEQ_NO),
            version: f(VERSION),
            primary_term: f(PRIMARY_TERM),
            routing: f(ROUTING),
            by_path: schema
                .fields()
                .filter(|(_, e)| !e.name().starts_with('_'))
                .map(|(field, e)| (e.name().to_string(), field))
                .collect(),
            text: text_fields(schema, |tokenizer, positions| {
                positions.then(|| tokenizer.to_string())
            }),
            normalizers: text_fields(schema, |tokenizer, _| {
                crate::analysis::normalizer_of_tokenizer(tokenizer)
            }),
        }
    }
}

/// Mapped text-typed fields by what `pick` makes of their tokenizer and whether they index
/// positions.
fn text_fields(
    schema: &Schema,
    pick: impl Fn(&str, bool) -> Option<String>,
) -> FxHashMap<Field, String> {
    schema
        .fields()
        .filter(|(_, e)| !e.name().starts_with('_'))
        .filter_map(|(field, e)| {
            let tantivy::schema::FieldType::Str(opts) = e.field_type() else {
                return None;
            };
            let idx = opts.get_indexing_options()?;
            pick(idx.tokenizer(), idx.index_option().has_positions()).map(|t| (field, t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stored_source_reads_text_and_the_older_bytes() {
        use tantivy::schema::BytesOptions;
        let src = "{\"a\":\"été\",\"b\":[1,2]}".as_bytes();
        let mut legacy = Schema::builder();
        let bytes = legacy.add_bytes_field(SOURCE, BytesOptions::default().set_stored());
        let legacy = legacy.build();
        let current = base_schema();
        assert!(source_is_text(&current));
        assert!(!source_is_text(&legacy));
        let mut doc = tantivy::TantivyDocument::default();
        doc.add_bytes(bytes, src);
        assert_eq!(stored_source(&doc, bytes), Some(src));
        let text = current.get_field(SOURCE).unwrap();
        let mut doc = tantivy::TantivyDocument::default();
        doc.add_text(text, std::str::from_utf8(src).unwrap());
        assert_eq!(stored_source(&doc, text), Some(src));
    }

    #[test]
    fn append_only() {
        let base = base_schema();
        let m1 = Mapping::parse(&json!({"properties": {"a": {"type": "keyword"}}})).unwrap();
        let e1 = extend(&base, &m1).unwrap();
        assert!(!e1.adds_fieldnorms);
        assert!(extend(&e1.schema, &m1).is_none());
        let m2 = m1
            .merged(&Mapping::parse(&json!({"properties": {"b": {"type": "text"}}})).unwrap())
            .unwrap();
        let e2 = extend(&e1.schema, &m2).unwrap();
        assert!(e2.adds_fieldnorms);
        for (field, entry) in e1.schema.fields() {
            assert_eq!(e2.schema.get_field_entry(field), entry);
        }
    }
}
