//! OpenSearch's time values (`1s`, `500ms`, `-1`) and byte sizes, with its parse errors.

use crate::error::{Error, Result};
use std::time::Duration;

/// A time value; `None` means `-1` (disabled), as in `refresh_interval: -1`.
pub fn parse_time_value(value: &str, setting: &str) -> Result<Option<Duration>> {
    let v = value.trim();
    if v == "-1" {
        return Ok(None);
    }
    if v == "0" {
        return Ok(Some(Duration::ZERO));
    }
    let lower = v.to_ascii_lowercase();
    let (num, mul_nanos): (&str, f64) = if let Some(n) = lower.strip_suffix("nanos") {
        (n, 1.0)
    } else if let Some(n) = lower.strip_suffix("micros") {
        (n, 1e3)
    } else if let Some(n) = lower.strip_suffix("ms") {
        (n, 1e6)
    } else if let Some(n) = lower.strip_suffix('s') {
        (n, 1e9)
    } else if let Some(n) = lower.strip_suffix('m') {
        (n, 60e9)
    } else if let Some(n) = lower.strip_suffix('h') {
        (n, 3600e9)
    } else if let Some(n) = lower.strip_suffix('d') {
        (n, 86400e9)
    } else {
        return Err(Error::new(
            crate::error::ErrorKind::IllegalArgument,
            format!(
                "failed to parse setting [{setting}] with value [{value}] as a time value: unit is missing or unrecognized"
            ),
        ));
    };
    let n: f64 = num.trim().parse().map_err(|_| {
        Error::new(
            crate::error::ErrorKind::Parse,
            format!("failed to parse [{value}]"),
        )
    })?;
    if n < 0.0 {
        return Err(Error::illegal_argument(format!(
            "failed to parse setting [{setting}] with value [{value}] as a time value: negative durations are not supported"
        )));
    }
    Ok(Some(Duration::from_nanos((n * mul_nanos) as u64)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(
            parse_time_value("1s", "x").unwrap(),
            Some(Duration::from_secs(1))
        );
        assert_eq!(
            parse_time_value("500ms", "x").unwrap(),
            Some(Duration::from_millis(500))
        );
        assert_eq!(parse_time_value("-1", "x").unwrap(), None);
        assert_eq!(
            parse_time_value("2m", "x").unwrap(),
            Some(Duration::from_secs(120))
        );
        assert!(parse_time_value("5", "x").is_err());
    }
}
