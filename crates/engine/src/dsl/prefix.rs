//! `prefix`: terms starting with a string (constant score, as the default rewrite).

use super::json::{Node, J};
use super::{boolean, float, single_field, unsupported, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};

pub fn parse(body: &Node) -> Result<Query> {
    let (field, v) = single_field("prefix", body)?;
    let mut boost = DEFAULT_BOOST;
    let mut case_insensitive = false;
    let mut rewrite = None;
    let value = match &v.v {
        J::Obj(entries) => {
            let mut value = None;
            for (k, _, x) in entries {
                match k.as_str() {
                    "value" | "prefix" => value = Some(super::text_value("prefix", k, x)?),
                    "boost" => boost = float("prefix", k, x)?,
                    "case_insensitive" => case_insensitive = boolean("prefix", k, x)?,
                    "rewrite" => rewrite = x.text(),
                    "_name" => {}
                    _ => return Err(unsupported("prefix", k, x.pos)),
                }
            }
            // The builder's constructor refuses a missing value.
            value.ok_or_else(|| Error::illegal_argument("value cannot be null"))?
        }
        _ => super::text_value("prefix", &field, v)?,
    };
    super::negative_boost::checked(Query::Prefix {
        field,
        value,
        boost,
        case_insensitive,
        rewrite,
    })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        assert_eq!(
            parse_str(r#"{"prefix":{"k":{"value":"ab","case_insensitive":true,"rewrite":"x"}}}"#)
                .unwrap(),
            Query::Prefix {
                field: "k".into(),
                value: "ab".into(),
                boost: 1.0,
                case_insensitive: true,
                rewrite: Some("x".into()),
            }
        );
    }
}
