//! `range`: bounds on one field (numbers, dates with the field's or the query's `format`,
//! keywords). Bounds stay JSON values here; the query builder converts them per field type.

use super::json::{Node, J};
use super::{
    boolean, float, parsing, single_non_null_field, string, unsupported, Query, DEFAULT_BOOST,
};
use crate::error::Result;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct RangeQuery {
    pub field: String,
    pub from: Option<Value>,
    pub to: Option<Value>,
    pub include_lower: bool,
    pub include_upper: bool,
    pub format: Option<String>,
    pub time_zone: Option<String>,
    pub boost: f32,
}

pub fn parse(body: &Node) -> Result<Query> {
    // A value beside the field is an unknown parameter to OpenSearch's range parser, and
    // an object a second field, whichever comes first.
    let entries: Vec<_> = body
        .as_obj()
        .unwrap_or_default()
        .iter()
        .filter(|(_, _, x)| !matches!(x.v, J::Null))
        .collect();
    let mut fields = 0;
    for (k, _, x) in &entries {
        if matches!(x.v, J::Obj(_) | J::Arr(_)) {
            if fields == 1 {
                break;
            }
            fields += 1;
        } else if entries.len() > 1 {
            return Err(parsing(
                format!("[range] query does not support [{k}]"),
                x.pos,
            ));
        }
    }
    let (field, v) = single_non_null_field("range", body)?;
    let mut q = RangeQuery {
        field,
        from: None,
        to: None,
        include_lower: true,
        include_upper: true,
        format: None,
        time_zone: None,
        boost: DEFAULT_BOOST,
    };
    let J::Obj(entries) = &v.v else {
        return Err(parsing(
            format!("[range] query does not support [{}]", q.field),
            v.pos,
        ));
    };
    let bound = |x: &Node| match x.v {
        J::Null => None,
        _ => Some(x.to_value()),
    };
    for (i, (k, _, x)) in entries.iter().enumerate() {
        if let (true, J::Obj(inner)) = (
            matches!(k.as_str(), "from" | "to" | "gt" | "gte" | "lt" | "lte"),
            &x.v,
        ) {
            // Jackson reads an object bound's keys as the range's own options (OpenSearch then
            // refuses the first it finds there, or the key after the object).
            let found = inner
                .first()
                .or_else(|| entries.get(i + 1))
                .map(|(fk, _, fx)| unsupported("range", fk, fx.pos));
            return Err(found.unwrap_or_else(|| {
                parsing(
                    format!("[range] unknown token [START_OBJECT] after [{k}]"),
                    x.pos,
                )
            }));
        }
        match k.as_str() {
            "from" => q.from = bound(x),
            "to" => q.to = bound(x),
            "include_lower" => q.include_lower = boolean("range", k, x)?,
            "include_upper" => q.include_upper = boolean("range", k, x)?,
            "gt" => {
                q.from = bound(x);
                q.include_lower = false;
            }
            "gte" => {
                q.from = bound(x);
                q.include_lower = true;
            }
            "lt" => {
                q.to = bound(x);
                q.include_upper = false;
            }
            "lte" => {
                q.to = bound(x);
                q.include_upper = true;
            }
            "format" => q.format = Some(string("range", k, x)?),
            "time_zone" => {
                // Checked while parsing, as OpenSearch resolves the ZoneId in the builder.
                let id = string("range", k, x)?;
                crate::util::time_zone::Zone::parse(&id)?;
                q.time_zone = Some(id);
            }
            "boost" => q.boost = float("range", k, x)?,
            "relation" => {
                let r = string("range", k, x)?;
                if !matches!(
                    r.to_ascii_lowercase().as_str(),
                    "intersects" | "within" | "contains"
                ) {
                    return Err(parsing(
                        format!("[range] query does not support relation [{r}]"),
                        x.pos,
                    ));
                }
            }
            "_name" => {}
            _ => return Err(unsupported("range", k, x.pos)),
        }
    }
    super::negative_boost::checked(Query::Range(q))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};
    use serde_json::json;

    #[test]
    fn bounds() {
        let Query::Range(r) = parse_str(r#"{"range":{"n":{"gt":1,"lte":"5"}}}"#).unwrap() else {
            panic!()
        };
        assert_eq!(r.from, Some(json!(1)));
        assert!(!r.include_lower);
        assert_eq!(r.to, Some(json!("5")));
        assert!(r.include_upper);
        let e = parse_str(r#"{"range":{"n":{"gt":1,"zz":2}}}"#).unwrap_err();
        assert_eq!(e.reason, "[range] query does not support [zz]");
    }
}
