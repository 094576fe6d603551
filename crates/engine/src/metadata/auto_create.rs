//! `action.auto_create_index`: `true`, `false`, or a comma-separated list of index patterns,
//! each optionally prefixed with `+` (allow) or `-` (forbid). The first pattern that matches
//! decides; with a list and no match, the index is not created. Refusals are OpenSearch's.

use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::glob_match;

const KEY: &str = "action.auto_create_index";

/// `Ok` when a write may create `name`; otherwise OpenSearch's `index_not_found_exception`.
pub fn check(setting: &str, name: &str) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::new(
            ErrorKind::IndexNotFound,
            format!("no such index [{name}] and {why}"),
        )
        .with("index", name)
        .with("index_uuid", "_na_"))
    };
    match setting.trim() {
        "true" | "" => Ok(()),
        "false" => refuse(format!("[{KEY}] is [false]")),
        list => {
            for pat in list.split(',').map(str::trim) {
                if let Some(p) = pat.strip_prefix('-') {
                    if glob_match(p, name) {
                        return refuse(format!(
                            "[{KEY}] contains [-{p}] which forbids automatic creation of the index"
                        ));
                    }
                } else if glob_match(pat.strip_prefix('+').unwrap_or(pat), name) {
                    return Ok(());
                }
            }
            refuse(format!("[{KEY}] ([{list}]) doesn't match"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn true_and_false() {
        assert!(check("true", "anything").is_ok());
        let e = check("false", "x").unwrap_err();
        assert_eq!(
            e.reason,
            "no such index [x] and [action.auto_create_index] is [false]"
        );
    }

    #[test]
    fn first_matching_pattern_decides() {
        let s = "+logs-keep*,-logs-*,metrics-*";
        assert!(check(s, "logs-keep-1").is_ok());
        assert!(check(s, "logs-2024").is_err());
        assert!(check(s, "metrics-cpu").is_ok());
        assert!(check(s, "other").is_err());
    }

    #[test]
    fn words_refusals_as_opensearch_does() {
        let s = "-logs-*,metrics-*";
        let e = check(s, "logs-1").unwrap_err();
        assert_eq!(e.status(), 404);
        assert_eq!(e.type_name(), "index_not_found_exception");
        assert_eq!(
            e.reason,
            "no such index [logs-1] and [action.auto_create_index] contains [-logs-*] which forbids automatic creation of the index"
        );
        assert_eq!(e.to_json()["index_uuid"], "_na_");
        assert_eq!(
            check(s, "zzz").unwrap_err().reason,
            "no such index [zzz] and [action.auto_create_index] ([-logs-*,metrics-*]) doesn't match"
        );
    }
}
