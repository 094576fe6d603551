//! OpenSearch's rules for index and alias names, with its exact messages.

use crate::error::{Error, ErrorKind, Result};

const INVALID_CHARS: &[char] = &['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];
const INVALID_CHARS_TEXT: &str = "[ , \", *, \\, <, |, ,, >, /, ?]";

fn check(name: &str, kind: ErrorKind) -> Result<()> {
    let fail = |why: &str| {
        let label = if kind == ErrorKind::InvalidAliasName {
            "alias"
        } else {
            "index"
        };
        // OpenSearch words alias names with a colon, index names with a comma.
        let sep = if kind == ErrorKind::InvalidAliasName {
            ":"
        } else {
            ","
        };
        let e = Error::new(kind, format!("Invalid {label} name [{name}]{sep} {why}"));
        Err(if kind == ErrorKind::InvalidAliasName {
            e
        } else {
            e.with("index", name).with("index_uuid", "_na_")
        })
    };
    if name.contains(INVALID_CHARS) {
        return fail(&format!(
            "must not contain the following characters {INVALID_CHARS_TEXT}"
        ));
    }
    if name.contains('#') {
        return fail("must not contain '#'");
    }
    if name.contains(':') {
        return fail("must not contain ':'");
    }
    if name.starts_with(['_', '-', '+']) {
        return fail("must not start with '_', '-', or '+'");
    }
    if name.len() > 255 {
        return fail(&format!("index name is too long, ({} > 255)", name.len()));
    }
    if name == "." || name == ".." {
        return fail("must not be '.' or '..'");
    }
    Ok(())
}

pub fn validate_index_name(name: &str) -> Result<()> {
    check(name, ErrorKind::InvalidIndexName)?;
    if name.to_lowercase() != name {
        return Err(Error::new(
            ErrorKind::InvalidIndexName,
            format!("Invalid index name [{name}], must be lowercase"),
        )
        .with("index", name)
        .with("index_uuid", "_na_"));
    }
    Ok(())
}

pub fn validate_alias_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::illegal_argument("alias name is required"));
    }
    check(name, ErrorKind::InvalidAliasName)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        assert!(validate_index_name("logs-2024.01").is_ok());
        assert!(validate_index_name(".hidden").is_ok());
        let e = validate_index_name("Logs").unwrap_err();
        assert_eq!(e.reason, "Invalid index name [Logs], must be lowercase");
        assert!(validate_index_name("_x")
            .unwrap_err()
            .reason
            .contains("must not start with"));
        assert!(validate_index_name("a#b")
            .unwrap_err()
            .reason
            .contains("'#'"));
        assert!(validate_index_name("a b")
            .unwrap_err()
            .reason
            .contains("following characters"));
        assert!(validate_index_name(&"a".repeat(256))
            .unwrap_err()
            .reason
            .contains("too long, (256 > 255)"));
        assert!(validate_index_name("..").is_err());
    }
}
