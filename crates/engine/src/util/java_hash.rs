//! Java's string hashing and `HashMap` iteration order, where OpenSearch's output follows them
//! (`matched_queries`, a hit's `highlight` fields, `random_score` seeds).

/// Java's `String.hashCode` (over UTF-16 code units).
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32))
}

/// Orders keyed items as a default-sized Java `HashMap<String, _>` filled in this order
/// iterates them: by bucket (the spread hash masked by the table size, which doubles past
/// three quarters full), then in insertion order within a bucket.
pub fn hash_order<T>(items: &mut [(String, T)]) {
    let mut cap = 16usize;
    while items.len() > cap * 3 / 4 {
        cap *= 2;
    }
    let bucket = |s: &str| {
        let h = string_hash(s) as u32;
        ((h ^ (h >> 16)) as usize) & (cap - 1)
    };
    items.sort_by_key(|(k, _)| bucket(k));
}

/// A JSON value as a Java parser's `map()` holds it: every object a `HashMap`, so its keys
/// iterate (and print) in [`hash_order`]; arrays keep their order.
pub fn hash_ordered(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m
                .iter()
                .map(|(k, v)| (k.clone(), hash_ordered(v)))
                .collect();
            hash_order(&mut entries);
            Value::Object(entries.into_iter().collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(hash_ordered).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_objects_at_every_depth() {
        let v = serde_json::json!({"bool": {"should": [{"term": {"n": {"value": 1, "boost": 2}}}],
            "must": [], "filter": []}});
        assert_eq!(
            serde_json::to_string(&hash_ordered(&v)).unwrap(),
            r#"{"bool":{"filter":[],"should":[{"term":{"n":{"boost":2,"value":1}}}],"must":[]}}"#
        );
    }

    #[test]
    fn hashes_as_java() {
        assert_eq!(string_hash("abc"), 96354);
        assert_eq!(string_hash(""), 0);
    }

    #[test]
    fn iterates_as_a_hash_map() {
        let mut v = vec![("t_quick".to_string(), 0), ("tag_animals".to_string(), 0)];
        hash_order(&mut v);
        assert_eq!(v[0].0, "tag_animals");
        let mut v = vec![("t_quick".to_string(), 0), ("big".to_string(), 0)];
        hash_order(&mut v);
        assert_eq!(v[0].0, "big");
        // As OpenSearch 2.19 lists a hit's highlighted fields.
        let mut v: Vec<(String, ())> = [
            "description",
            "description_short",
            "package",
            "section",
            "size",
        ]
        .iter()
        .map(|k| (k.to_string(), ()))
        .collect();
        hash_order(&mut v);
        let keys: Vec<&str> = v.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "description_short",
                "package",
                "size",
                "description",
                "section"
            ]
        );
    }
}
