//! The stored fields of a hit, read without building a whole document. tantivy's
//! `TantivyDocument` deserializes every value and then copies it into its own compact storage;
//! a hit reads a few internal fields once, and its `_source` then moves into the response
//! without another copy.

use crate::index::schema;
use tantivy::schema::document::{DeserializeError, DocumentDeserialize, DocumentDeserializer};
use tantivy::schema::{Field, OwnedValue, Schema};

/// The internal stored fields a hit reads, looked up in the schema once per shard rather than
/// by name for every hit.
pub struct InternalFields {
    pub id: Field,
    pub source: Field,
    pub seq_no: Field,
    pub version: Field,
    pub primary_term: Field,
    pub routing: Field,
}

impl InternalFields {
    pub fn of(schema: &Schema) -> InternalFields {
        // `base_schema` adds them first, in this order: a name compared at its place is cheaper
        // than the schema's hashed lookup, which stays for a schema laid out otherwise.
        let field = |name: &str, at: u32| {
            let placed = Field::from_field_id(at);
            if (at as usize) < schema.num_fields() && schema.get_field_name(placed) == name {
                placed
            } else {
                schema.get_field(name).expect("internal field")
            }
        };
        InternalFields {
            id: field(schema::ID, 0),
            source: field(schema::SOURCE, 1),
            seq_no: field(schema::SEQ_NO, 2),
            version: field(schema::VERSION, 3),
            primary_term: field(schema::PRIMARY_TERM, 4),
            routing: field(schema::ROUTING, 5),
        }
    }
}

/// A stored document as its fields' values, in stored order.
pub struct StoredHit(Vec<(Field, OwnedValue)>);

impl DocumentDeserialize for StoredHit {
    fn deserialize<'de, D>(mut deserializer: D) -> Result<Self, DeserializeError>
    where
        D: DocumentDeserializer<'de>,
    {
        let mut values = Vec::with_capacity(deserializer.size_hint());
        while let Some(field_value) = deserializer.next_field::<OwnedValue>()? {
            values.push(field_value);
        }
        Ok(StoredHit(values))
    }
}

impl StoredHit {
    fn first(&self, field: Field) -> Option<&OwnedValue> {
        self.0.iter().find(|(f, _)| *f == field).map(|(_, v)| v)
    }

    pub fn str(&self, field: Field) -> Option<&str> {
        match self.first(field)? {
            OwnedValue::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn i64(&self, field: Field) -> Option<i64> {
        match self.first(field)? {
            OwnedValue::I64(n) => Some(*n),
            _ => None,
        }
    }

    /// The `_source` bytes, taken out: stored as text, or as bytes in indices created before.
    pub fn take_source(&mut self, field: Field) -> Option<Vec<u8>> {
        let at = self.0.iter().position(|(f, _)| *f == field)?;
        match std::mem::replace(&mut self.0[at].1, OwnedValue::Null) {
            OwnedValue::Str(s) => Some(s.into_bytes()),
            OwnedValue::Bytes(b) => Some(b),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::schema::{self, Fields};
    use tantivy::{Index, TantivyDocument};

    #[test]
    fn reads_the_internal_fields_and_takes_the_source() {
        let index = Index::create_in_ram(schema::base_schema());
        let f = Fields::new(&index.schema());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut d = TantivyDocument::default();
        d.add_text(f.id, "a1");
        d.add_text(f.source, r#"{"x":"é"}"#);
        d.add_i64(f.seq_no, 7);
        d.add_i64(f.version, 2);
        d.add_i64(f.primary_term, 1);
        w.add_document(d).unwrap();
        w.commit().unwrap();
        let internal = InternalFields::of(&index.schema());
        assert_eq!(
            [
                internal.id,
                internal.source,
                internal.seq_no,
                internal.version,
                internal.primary_term,
                internal.routing
            ],
            [
                f.id,
                f.source,
                f.seq_no,
                f.version,
                f.primary_term,
                f.routing
            ]
        );
        let searcher = index.reader().unwrap().searcher();
        let mut hit: StoredHit = searcher.doc(tantivy::DocAddress::new(0, 0)).unwrap();
        assert_eq!(hit.str(f.id), Some("a1"));
        assert_eq!(
            (
                hit.i64(f.seq_no),
                hit.i64(f.version),
                hit.i64(f.primary_term)
            ),
            (Some(7), Some(2), Some(1))
        );
        assert_eq!(hit.str(f.routing), None);
        assert_eq!(
            hit.take_source(f.source),
            Some(r#"{"x":"é"}"#.as_bytes().to_vec())
        );
        assert_eq!(hit.take_source(f.source), None);
    }

    #[test]
    fn finds_the_internal_fields_wherever_a_schema_puts_them() {
        let mut b = tantivy::schema::Schema::builder();
        b.add_text_field("title", tantivy::schema::TEXT);
        let names = [
            schema::ROUTING,
            schema::PRIMARY_TERM,
            schema::VERSION,
            schema::SEQ_NO,
            schema::SOURCE,
            schema::ID,
        ];
        for name in names {
            b.add_text_field(name, tantivy::schema::STORED);
        }
        let s = b.build();
        let f = InternalFields::of(&s);
        let got = [
            f.routing,
            f.primary_term,
            f.version,
            f.seq_no,
            f.source,
            f.id,
        ];
        for (field, name) in got.into_iter().zip(names) {
            assert_eq!(s.get_field_name(field), name);
        }
    }
}
