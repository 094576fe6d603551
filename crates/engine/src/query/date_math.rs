//! Date math in range bounds (JavaDateMathParser's grammar): `now` or `<date>||` followed by
//! `+N<unit>`, `-N<unit>` and `/<unit>` operations applied left to right in the bound's time
//! zone; `/unit` rounds down, or to the unit's last millisecond when the bound rounds up
//! (`gt`, `lte`). Calendar units (y, M, w, d) move the local date; h, m, s exact durations.

use crate::error::{Error, ErrorKind, Result};
use chrono::{Datelike, Duration, Months, NaiveDate, NaiveDateTime, Timelike};

fn parse_err(reason: String) -> Error {
    Error::new(ErrorKind::Parse, reason)
}

/// A `time_zone` as seconds east of UTC: `Z`, `UTC`, `GMT`, `+01:00`, `-0530`, `UTC+2`.
pub fn parse_offset(tz: &str) -> Result<i32> {
    let bad = || Error::illegal_argument(format!("Unknown time-zone ID: {tz}"));
    let t = tz.trim();
    if matches!(t, "Z" | "UTC" | "GMT" | "UT" | "Etc/UTC" | "Etc/GMT") {
        return Ok(0);
    }
    let rest = t
        .strip_prefix("UTC")
        .or_else(|| t.strip_prefix("GMT"))
        .unwrap_or(t);
    let (sign, digits) = match rest.as_bytes().first() {
        Some(b'+') => (1, &rest[1..]),
        Some(b'-') => (-1, &rest[1..]),
        _ => return Err(bad()),
    };
    let parts: Vec<&str> = if digits.contains(':') {
        digits.split(':').collect()
    } else if digits.len() > 2 {
        vec![&digits[..digits.len() - 2], &digits[digits.len() - 2..]]
    } else {
        vec![digits]
    };
    let mut secs = 0i32;
    for (i, p) in parts.iter().enumerate() {
        let n: i32 = p.parse().map_err(|_| bad())?;
        secs += n * [3600, 60, 1].get(i).copied().ok_or_else(bad)?;
    }
    if secs > 18 * 3600 {
        return Err(bad());
    }
    Ok(sign * secs)
}

/// Whether a date text carries its own offset (which wins over `time_zone`).
pub fn has_offset(text: &str) -> bool {
    let Some(t) = text.find('T') else {
        return false;
    };
    let time = &text[t..];
    time.ends_with('Z') || time.contains('+') || time[1..].contains('-')
}

fn local(ms: i64, offset: i32) -> NaiveDateTime {
    chrono::DateTime::from_timestamp_millis(ms + offset as i64 * 1000)
        .unwrap_or_default()
        .naive_utc()
}

fn utc_ms(dt: NaiveDateTime, offset: i32) -> i64 {
    dt.and_utc().timestamp_millis() - offset as i64 * 1000
}

fn start_of(dt: NaiveDateTime, unit: char) -> NaiveDateTime {
    let d = dt.date();
    let midnight = |d: NaiveDate| d.and_hms_opt(0, 0, 0).expect("midnight");
    match unit {
        'y' => midnight(NaiveDate::from_ymd_opt(d.year(), 1, 1).expect("jan 1")),
        'M' => midnight(d.with_day(1).expect("day 1")),
        'w' => midnight(d - Duration::days(d.weekday().num_days_from_monday() as i64)),
        'd' => midnight(d),
        'h' | 'H' => d.and_hms_opt(dt.hour(), 0, 0).expect("hour"),
        'm' => d.and_hms_opt(dt.hour(), dt.minute(), 0).expect("minute"),
        _ => d
            .and_hms_opt(dt.hour(), dt.minute(), dt.second())
            .expect("second"),
    }
}

fn add(dt: NaiveDateTime, n: i64, unit: char) -> Option<NaiveDateTime> {
    let months = |m: i64| {
        if m >= 0 {
            dt.checked_add_months(Months::new(m as u32))
        } else {
            dt.checked_sub_months(Months::new((-m) as u32))
        }
    };
    match unit {
        'y' => months(n * 12),
        'M' => months(n),
        'w' => dt.checked_add_signed(Duration::weeks(n)),
        'd' => dt.checked_add_signed(Duration::days(n)),
        'h' | 'H' => dt.checked_add_signed(Duration::hours(n)),
        'm' => dt.checked_add_signed(Duration::minutes(n)),
        's' => dt.checked_add_signed(Duration::seconds(n)),
        _ => None,
    }
}

/// Applies the operations after `now` or `||` to an instant (epoch ms).
pub fn apply(ms: i64, ops: &str, round_up: bool, offset: i32) -> Result<i64> {
    let mut dt = local(ms, offset);
    let b = ops.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let op = b[i] as char;
        i += 1;
        if !matches!(op, '+' | '-' | '/') {
            return Err(parse_err(format!(
                "operator not supported for date math [{ops}]"
            )));
        }
        if i >= b.len() {
            return Err(parse_err(format!("truncated date math [{ops}]")));
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let n: i64 = if i == start {
            1
        } else {
            ops[start..i].parse().unwrap_or(1)
        };
        if op == '/' && n != 1 {
            return Err(parse_err(format!(
                "rounding `/` can only be used on single unit types [{ops}]"
            )));
        }
        if i >= b.len() {
            return Err(parse_err(format!("truncated date math [{ops}]")));
        }
        let unit = b[i] as char;
        i += 1;
        if !"yMwdhHms".contains(unit) {
            return Err(parse_err(format!(
                "unit [{unit}] not supported for date math [{ops}]"
            )));
        }
        if op == '/' {
            let s = start_of(dt, unit);
            dt = if round_up {
                add(s, 1, unit).unwrap_or(s) - Duration::milliseconds(1)
            } else {
                s
            };
        } else {
            let n = if op == '-' { -n } else { n };
            dt = add(dt, n, unit).ok_or_else(|| {
                parse_err(format!("unit [{unit}] not supported for date math [{ops}]"))
            })?;
        }
    }
    Ok(utc_ms(dt, offset))
}

pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: i64 = 1_589_814_245_123; // 2020-05-18T15:04:05.123Z (a Monday)

    fn iso(ms: i64) -> String {
        crate::index::date_format::format_iso_millis(ms)
    }

    #[test]
    fn operations_and_rounding() {
        assert_eq!(
            iso(apply(T, "/d", false, 0).unwrap()),
            "2020-05-18T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "/d", true, 0).unwrap()),
            "2020-05-18T23:59:59.999Z"
        );
        assert_eq!(
            iso(apply(T, "-1d/d", false, 0).unwrap()),
            "2020-05-17T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "/M", true, 0).unwrap()),
            "2020-05-31T23:59:59.999Z"
        );
        assert_eq!(
            iso(apply(T, "/w", false, 0).unwrap()),
            "2020-05-18T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "+1M-d", false, 0).unwrap()),
            "2020-06-17T15:04:05.123Z"
        );
        assert_eq!(
            iso(apply(T, "/d", false, 3600).unwrap()),
            "2020-05-17T23:00:00.000Z"
        );
        assert_eq!(
            apply(T, "-", false, 0).unwrap_err().reason,
            "truncated date math [-]"
        );
        assert_eq!(
            apply(T, "/2d", false, 0).unwrap_err().reason,
            "rounding `/` can only be used on single unit types [/2d]"
        );
        assert_eq!(
            apply(T, "+1q", false, 0).unwrap_err().reason,
            "unit [q] not supported for date math [+1q]"
        );
        assert_eq!(
            iso(apply(T, "-1000y/d", true, 0).unwrap()),
            "1020-05-18T23:59:59.999Z"
        );
        assert_eq!(parse_offset("+01:00").unwrap(), 3600);
        assert_eq!(parse_offset("-0530").unwrap(), -19800);
        assert!(has_offset("2020-01-01T10:00:00Z") && !has_offset("2020-01-01"));
    }
}
