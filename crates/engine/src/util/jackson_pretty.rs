//! JSON as Jackson's default pretty printer writes it, which OpenSearch uses for a query
//! builder's `toString()` (quoted in some of its error messages): two-space indents, `" : "`
//! between a key and its value, every array item on its own line, `{ }` and `[ ]` when empty.

use serde_json::Value;

pub fn pretty(v: &Value) -> String {
    let mut out = String::new();
    write(v, 0, &mut out);
    out
}

fn write(v: &Value, indent: usize, out: &mut String) {
    let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
    match v {
        Value::Object(m) if m.is_empty() => out.push_str("{ }"),
        Value::Array(a) if a.is_empty() => out.push_str("[ ]"),
        Value::Object(m) => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                pad(out, indent + 2);
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push_str(" : ");
                write(x, indent + 2, out);
            }
            out.push('\n');
            pad(out, indent);
            out.push('}');
        }
        Value::Array(a) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                pad(out, indent + 2);
                write(x, indent + 2, out);
            }
            out.push('\n');
            pad(out, indent);
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_as_jackson_does() {
        assert_eq!(
            pretty(&json!({"terms": {"k": [1, true, "x"], "boost": 1.0}, "e": [], "o": {}})),
            "{\n  \"terms\" : {\n    \"k\" : [\n      1,\n      true,\n      \"x\"\n    ],\n    \"boost\" : 1.0\n  },\n  \"e\" : [ ],\n  \"o\" : { }\n}"
        );
    }
}
