//! Date math in range bounds (JavaDateMathParser's grammar): `now` or `<date>||` followed by
//! `+N<unit>`, `-N<unit>` and `/<unit>` operations applied left to right in the bound's time
//! zone; `/unit` rounds down, or to the unit's last millisecond when the bound rounds up
//! (`gt`, `lte`). Calendar units (y, M, w, d) move the local date; h, m, s exact durations.

use crate::error::{Error, ErrorKind, Result};
use crate::util::time_zone::Zone;
use chrono::{Datelike, Duration, Months, NaiveDate, NaiveDateTime, Timelike};

fn parse_err(reason: String) -> Error {
    Error::new(ErrorKind::Parse, reason)
}

/// Whether a date text carries its own offset (which wins over `time_zone`).
pub fn has_offset(text: &str) -> bool {
    let Some(t) = text.find('T') else {
        return false;
    };
    let time = &text[t..];
    time.ends_with('Z') || time.contains('+') || time[1..].contains('-')
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

/// `n` units later in `zone`, as `ZonedDateTime.plus…` moves: calendar units on the local date
/// (keeping the offset where the result is ambiguous), clock units on the instant.
fn plus(zone: &Zone, ms: i64, n: i64, unit: char) -> Option<i64> {
    let clock = |unit_ms: i64| n.checked_mul(unit_ms).and_then(|d| ms.checked_add(d));
    match unit {
        'h' | 'H' => clock(3_600_000),
        'm' => clock(60_000),
        's' => clock(1_000),
        _ => {
            let local = add(zone.local(ms), n, unit)?;
            Some(zone.instant(local, Some(zone.offset_at(ms))))
        }
    }
}

/// Applies the operations after `now` or `||` to an instant (epoch ms), in `zone` (JavaDateMath
/// Parser on a `ZonedDateTime`).
pub fn apply(ms: i64, ops: &str, round_up: bool, zone: &Zone) -> Result<i64> {
    let mut ms = ms;
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
        let unsupported =
            || parse_err(format!("unit [{unit}] not supported for date math [{ops}]"));
        if op == '/' {
            let start = zone.instant(start_of(zone.local(ms), unit), Some(zone.offset_at(ms)));
            ms = if round_up {
                plus(zone, start, 1, unit).ok_or_else(unsupported)? - 1
            } else {
                start
            };
        } else {
            let n = if op == '-' { -n } else { n };
            ms = plus(zone, ms, n, unit).ok_or_else(unsupported)?;
        }
    }
    Ok(ms)
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
            iso(apply(T, "/d", false, &Zone::UTC).unwrap()),
            "2020-05-18T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "/d", true, &Zone::UTC).unwrap()),
            "2020-05-18T23:59:59.999Z"
        );
        assert_eq!(
            iso(apply(T, "-1d/d", false, &Zone::UTC).unwrap()),
            "2020-05-17T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "/M", true, &Zone::UTC).unwrap()),
            "2020-05-31T23:59:59.999Z"
        );
        assert_eq!(
            iso(apply(T, "/w", false, &Zone::UTC).unwrap()),
            "2020-05-18T00:00:00.000Z"
        );
        assert_eq!(
            iso(apply(T, "+1M-d", false, &Zone::UTC).unwrap()),
            "2020-06-17T15:04:05.123Z"
        );
        assert_eq!(
            iso(apply(T, "/d", false, &Zone::Fixed(3600)).unwrap()),
            "2020-05-17T23:00:00.000Z"
        );
        assert_eq!(
            apply(T, "-", false, &Zone::UTC).unwrap_err().reason,
            "truncated date math [-]"
        );
        assert_eq!(
            apply(T, "/2d", false, &Zone::UTC).unwrap_err().reason,
            "rounding `/` can only be used on single unit types [/2d]"
        );
        assert_eq!(
            apply(T, "+1q", false, &Zone::UTC).unwrap_err().reason,
            "unit [q] not supported for date math [+1q]"
        );
        assert_eq!(
            iso(apply(T, "-1000y/d", true, &Zone::UTC).unwrap()),
            "1020-05-18T23:59:59.999Z"
        );
        assert!(has_offset("2020-01-01T10:00:00Z") && !has_offset("2020-01-01"));
    }

    #[test]
    fn named_zones_follow_daylight_saving() {
        let paris = Zone::parse("Europe/Paris").unwrap();
        // 2021-03-27T12:00 Paris (+01:00) plus a day is noon again, now at +02:00...
        let noon = 1_616_842_800_000; // 2021-03-27T11:00:00Z
        assert_eq!(
            iso(apply(noon, "+1d", false, &paris).unwrap()),
            "2021-03-28T10:00:00.000Z"
        );
        // ...while 24 hours are 24 hours.
        assert_eq!(
            iso(apply(noon, "+24h", false, &paris).unwrap()),
            "2021-03-28T11:00:00.000Z"
        );
        // The 23-hour day of the switch, rounded both ways.
        let day = 1_616_920_200_000; // 2021-03-28T08:30:00Z
        assert_eq!(
            iso(apply(day, "/d", false, &paris).unwrap()),
            "2021-03-27T23:00:00.000Z"
        );
        assert_eq!(
            iso(apply(day, "/d", true, &paris).unwrap()),
            "2021-03-28T21:59:59.999Z"
        );
    }
}
