//! `terms`: any of several exact values on one field (constant score).

use super::json::{Node, J};
use super::{float, parsing, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};

/// A `terms` query's values read from a document (OpenSearch's `TermsLookup`): the values at
/// `path` in the `_source` of `index`/`id`, fetched before the query runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TermsLookup {
    pub index: String,
    pub id: String,
    pub path: String,
    pub routing: Option<String>,
}

impl TermsLookup {
    /// As OpenSearch's builder renders it.
    pub fn to_json(&self) -> serde_json::Value {
        let mut o = serde_json::json!({"index": self.index, "id": self.id, "path": self.path});
        if let Some(r) = &self.routing {
            o["routing"] = r.clone().into();
        }
        o
    }
}

/// `TermsLookup`'s object parser: strings only, `index`, `id` and `path` required.
fn lookup(body: &Node) -> Result<TermsLookup> {
    let (mut index, mut id, mut path, mut routing) = (None, None, None, None);
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        let slot = match k.as_str() {
            "index" => &mut index,
            "id" => &mut id,
            "path" => &mut path,
            "routing" => &mut routing,
            // Read, and of no use to a lookup from `_source`.
            "store" => continue,
            _ => {
                return Err(super::x_content(
                    format!("[terms_lookup] unknown field [{k}]"),
                    *kpos,
                ))
            }
        };
        match &v.v {
            J::Str(s) => *slot = Some(s.clone()),
            _ => {
                return Err(super::x_content(
                    format!(
                        "[terms_lookup] {k} doesn't support values of type: {}",
                        v.token()
                    ),
                    v.pos,
                ))
            }
        }
    }
    let missing: Vec<&str> = [("index", &index), ("id", &id), ("path", &path)]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
    if !missing.is_empty() {
        return Err(Error::illegal_argument(format!(
            "Required [{}]",
            missing.join(", ")
        )));
    }
    Ok(TermsLookup {
        index: index.unwrap_or_default(),
        id: id.unwrap_or_default(),
        path: path.unwrap_or_default(),
        routing,
    })
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut found: Option<(String, Vec<serde_json::Value>, Option<TermsLookup>)> = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match (&v.v, k.as_str()) {
            (J::Arr(_), _) if found.is_some() => {
                return Err(parsing(
                    "[terms] query does not support multiple fields",
                    v.pos,
                ));
            }
            (J::Obj(_), _) if k != "boost" && k != "_name" => {
                if let Some((first, ..)) = &found {
                    return Err(parsing(
                        format!(
                            "[terms] query does not support more than one field. Already got: [{first}] but also found [{k}]"
                        ),
                        v.pos,
                    ));
                }
                found = Some((k.clone(), Vec::new(), Some(lookup(v)?)));
            }
            (J::Arr(items), _) => found = Some((k.clone(), values(k, v, items)?, None)),
            (_, "boost") => boost = float("terms", k, v)?,
            (_, "_name") => {}
            _ => {
                return Err(parsing(
                    format!("[terms] query does not support [{k}]"),
                    v.pos,
                ))
            }
        }
    }
    let Some((field, values, lookup)) = found else {
        return Err(parsing(
            "[terms] query requires a field with a list of values",
            body.end,
        ));
    };
    super::negative_boost::checked(Query::Terms {
        field,
        values,
        lookup: lookup.map(Box::new),
        boost,
    })
}

/// The values as `TermsQueryBuilder.parseValues` reads them off Jackson's tokens: a null is
/// refused; a nested array's opening passes for a value, its elements too, and its closing
/// ends the list, so what follows in the outer array is read as the query's own fields.
fn values(field: &str, list: &Node, items: &[Node]) -> Result<Vec<serde_json::Value>> {
    let no_value = |n: &Node| parsing("No value specified for terms query", n.pos);
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        match &it.v {
            J::Null => return Err(no_value(it)),
            J::Arr(inner) => {
                if let Some(n) = inner
                    .iter()
                    .take_while(|n| !matches!(n.v, J::Arr(_)))
                    .find(|n| matches!(n.v, J::Null))
                {
                    return Err(no_value(n));
                }
                return Err(match items.get(i + 1) {
                    None => parsing(
                        format!("[terms] unknown token [END_ARRAY] after [{field}]"),
                        list.end,
                    ),
                    Some(n) if matches!(n.v, J::Arr(_)) => {
                        parsing("[terms] query does not support multiple fields", n.pos)
                    }
                    Some(n) => parsing(format!("[terms] query does not support [{field}]"), n.pos),
                });
            }
            _ => out.push(it.to_value()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        let q = parse_str(r#"{"terms":{"k":["a","b"],"boost":3}}"#).unwrap();
        assert!(
            matches!(q, Query::Terms { boost, ref values, .. } if boost == 3.0 && values.len() == 2)
        );
        assert!(parse_str(r#"{"terms":{"k":"a"}}"#).is_err());
    }

    #[test]
    fn lookups_parse_as_terms_lookup_does() {
        let q = parse_str(r#"{"terms":{"k":{"index":"i","id":"1","path":"p.q","routing":"r"}}}"#)
            .unwrap();
        let Query::Terms {
            lookup: Some(l),
            values,
            ..
        } = q
        else {
            panic!("a lookup");
        };
        assert!(values.is_empty());
        assert_eq!(
            (l.index.as_str(), l.id.as_str(), l.path.as_str()),
            ("i", "1", "p.q")
        );
        assert_eq!(l.routing.as_deref(), Some("r"));
        let reason = |s: &str| parse_str(s).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"terms":{"k":{}}}"#),
            "Required [index, id, path]"
        );
        assert_eq!(
            reason(r#"{"terms":{"k":{"id":"1","path":"p"}}}"#),
            "Required [index]"
        );
        assert_eq!(
            reason(r#"{"terms":{"k":{"index":"i","id":1,"path":"p"}}}"#),
            "[1:33] [terms_lookup] id doesn't support values of type: VALUE_NUMBER"
        );
        assert_eq!(
            reason(r#"{"terms":{"k":["a"],"j":{"index":"i","id":"1","path":"p"}}}"#),
            "[terms] query does not support more than one field. Already got: [k] but also found [j]"
        );
    }

    #[test]
    fn nulls_and_nested_arrays_as_opensearch_reads_them() {
        let reason = |s: &str| parse_str(s).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"terms":{"f":["a",null]}}"#),
            "No value specified for terms query"
        );
        assert_eq!(
            reason(r#"{"terms":{"f":[["a"]]}}"#),
            "[terms] unknown token [END_ARRAY] after [f]"
        );
        assert_eq!(
            reason(r#"{"terms":{"f":["x",["a"],"b"]}}"#),
            "[terms] query does not support [f]"
        );
    }
}
