//! Time zones as OpenSearch takes them (`time_zone` in range and query_string): Java's
//! `ZoneId.of` grammar — `Z`, offsets (`+1`, `+01:00`, `-0530`), `UTC`/`GMT`/`UT` with or without
//! an offset, and tz database region IDs (`Europe/Paris`), case-sensitive. Local date-times
//! resolve as `ZonedDateTime.ofLocal` does: a time in a DST gap moves forward by the gap, a time
//! in an overlap takes the earlier offset unless a preferred offset (the one before a date-math
//! step) is valid there.

use crate::error::{Error, ErrorKind, Result};
use chrono::{NaiveDateTime, Offset, TimeZone};
use chrono_tz::Tz;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Zone {
    /// Seconds east of UTC.
    Fixed(i32),
    Region(Tz),
}

/// Region IDs the tz database has but Java refuses: it keeps them as short aliases only.
const NOT_JAVA_REGIONS: &[&str] = &["EST", "MST", "HST"];

const MAX_OFFSET_SECS: i32 = 18 * 3600;

fn java_error(class: &str, kind: ErrorKind, reason: String) -> Error {
    Error::illegal_argument(format!("java.time.{class}: {reason}"))
        .caused_by(Error::new(kind, reason))
}

fn offset_error(id: &str) -> Error {
    java_error(
        "DateTimeException",
        ErrorKind::DateTime,
        format!("Invalid ID for ZoneOffset, invalid format: {id}"),
    )
}

/// `ZoneOffset.of`: `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (and `-`).
fn parse_offset(id: &str) -> Result<i32> {
    let bad = || offset_error(id);
    let sign = match id.as_bytes().first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return Err(bad()),
    };
    let d = &id[1..];
    let num = |s: &str| -> Result<i32> {
        if s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit()) {
            Ok(s.parse().expect("two digits"))
        } else {
            Err(bad())
        }
    };
    let (h, m, s) = match d.len() {
        1 if d.as_bytes()[0].is_ascii_digit() => (d.parse().expect("digit"), 0, 0),
        2 => (num(d)?, 0, 0),
        4 => (num(&d[..2])?, num(&d[2..])?, 0),
        5 if &d[2..3] == ":" => (num(&d[..2])?, num(&d[3..])?, 0),
        6 => (num(&d[..2])?, num(&d[2..4])?, num(&d[4..])?),
        8 if &d[2..3] == ":" && &d[5..6] == ":" => (num(&d[..2])?, num(&d[3..5])?, num(&d[6..])?),
        _ => return Err(bad()),
    };
    let range = |name: &str, v: i32, max: i32| {
        if v > max {
            Err(java_error(
                "DateTimeException",
                ErrorKind::DateTime,
                format!("Zone offset {name} not in valid range: value {v} is not in the range -{max} to {max}"),
            ))
        } else {
            Ok(())
        }
    };
    range("hours", h, 18)?;
    range("minutes", m, 59)?;
    range("seconds", s, 59)?;
    let secs = h * 3600 + m * 60 + s;
    if secs > MAX_OFFSET_SECS {
        return Err(java_error(
            "DateTimeException",
            ErrorKind::DateTime,
            "Zone offset not in valid range: -18:00 to +18:00".into(),
        ));
    }
    Ok(sign * secs)
}

fn valid_region_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"~/._+-".contains(c))
}

impl Zone {
    pub const UTC: Zone = Zone::Fixed(0);

    /// `ZoneId.of(id)` with Java's errors, as OpenSearch wraps them.
    pub fn parse(id: &str) -> Result<Zone> {
        if id.len() <= 1 || id.starts_with('+') || id.starts_with('-') {
            if id == "Z" {
                return Ok(Zone::UTC);
            }
            return parse_offset(id).map(Zone::Fixed);
        }
        for prefix in ["UTC", "GMT", "UT"] {
            if let Some(rest) = id.strip_prefix(prefix) {
                if rest.is_empty() {
                    return Ok(Zone::UTC);
                }
                if rest.starts_with('+') || rest.starts_with('-') {
                    return parse_offset(rest).map(Zone::Fixed);
                }
            }
        }
        if !valid_region_id(id) {
            return Err(java_error(
                "DateTimeException",
                ErrorKind::DateTime,
                format!("Invalid ID for region-based ZoneId, invalid format: {id}"),
            ));
        }
        match id.parse::<Tz>() {
            Ok(tz) if !NOT_JAVA_REGIONS.contains(&id) => Ok(Zone::Region(tz)),
            _ => Err(java_error(
                "zone.ZoneRulesException",
                ErrorKind::ZoneRules,
                format!("Unknown time-zone ID: {id}"),
            )),
        }
    }

    pub fn is_utc(&self) -> bool {
        matches!(self, Zone::Fixed(0)) || matches!(self, Zone::Region(Tz::UTC | Tz::Etc__UTC))
    }

    /// Seconds east of UTC at an instant.
    pub fn offset_at(&self, ms: i64) -> i32 {
        match self {
            Zone::Fixed(s) => *s,
            Zone::Region(tz) => chrono::DateTime::from_timestamp_millis(ms)
                .map(|t| {
                    tz.offset_from_utc_datetime(&t.naive_utc())
                        .fix()
                        .local_minus_utc()
                })
                .unwrap_or(0),
        }
    }

    /// The wall-clock date-time at an instant.
    pub fn local(&self, ms: i64) -> NaiveDateTime {
        let local_ms = ms + self.offset_at(ms) as i64 * 1000;
        chrono::DateTime::from_timestamp_millis(local_ms)
            .unwrap_or_default()
            .naive_utc()
    }

    /// The instant of a wall-clock date-time: in a gap, moved forward by the gap's length; in an
    /// overlap, `preferred` (seconds east) if it is one of the two offsets, else the earlier.
    pub fn instant(&self, local: NaiveDateTime, preferred: Option<i32>) -> i64 {
        let naive_ms = local.and_utc().timestamp_millis();
        match self {
            Zone::Fixed(s) => naive_ms - *s as i64 * 1000,
            Zone::Region(tz) => {
                use chrono::LocalResult::*;
                match tz.offset_from_local_datetime(&local) {
                    Single(o) => naive_ms - o.fix().local_minus_utc() as i64 * 1000,
                    Ambiguous(a, b) => {
                        let (a, b) = (a.fix().local_minus_utc(), b.fix().local_minus_utc());
                        let earlier = a.max(b);
                        let off = match preferred {
                            Some(p) if p == a || p == b => p,
                            _ => earlier,
                        };
                        naive_ms - off as i64 * 1000
                    }
                    None => {
                        // The offset before the gap, applied to the local time: the result
                        // lands past the gap by the gap's length, as Java shifts it.
                        let before = self.offset_at(naive_ms - 86_400_000);
                        let probe = naive_ms - before as i64 * 1000;
                        let after = self.offset_at(probe);
                        naive_ms - before.min(after) as i64 * 1000
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::date_format::format_iso_millis as iso;
    use chrono::NaiveDate;

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_opt(h, mi, 0)
            .unwrap()
    }

    #[test]
    fn java_grammar() {
        assert_eq!(Zone::parse("Z").unwrap(), Zone::UTC);
        assert_eq!(Zone::parse("+1").unwrap(), Zone::Fixed(3600));
        assert_eq!(Zone::parse("-05:30").unwrap(), Zone::Fixed(-19800));
        assert_eq!(Zone::parse("+0530").unwrap(), Zone::Fixed(19800));
        assert_eq!(Zone::parse("UTC+01:00").unwrap(), Zone::Fixed(3600));
        assert_eq!(Zone::parse("GMT+1").unwrap(), Zone::Fixed(3600));
        assert!(Zone::parse("UTC").unwrap().is_utc());
        assert!(matches!(
            Zone::parse("Europe/Paris").unwrap(),
            Zone::Region(_)
        ));
        assert!(matches!(Zone::parse("CET").unwrap(), Zone::Region(_)));
        let e = Zone::parse("europe/paris").unwrap_err();
        assert_eq!(
            e.reason,
            "java.time.zone.ZoneRulesException: Unknown time-zone ID: europe/paris"
        );
        assert_eq!(e.to_json()["caused_by"]["type"], "zone_rules_exception");
        assert_eq!(
            Zone::parse("EST").unwrap_err().reason,
            "java.time.zone.ZoneRulesException: Unknown time-zone ID: EST"
        );
        assert_eq!(
            Zone::parse("").unwrap_err().reason,
            "java.time.DateTimeException: Invalid ID for ZoneOffset, invalid format: "
        );
        assert_eq!(
            Zone::parse("+19").unwrap_err().reason,
            "java.time.DateTimeException: Zone offset hours not in valid range: value 19 is not in the range -18 to 18"
        );
    }

    #[test]
    fn gaps_and_overlaps_resolve_as_java() {
        let paris = Zone::parse("Europe/Paris").unwrap();
        // 02:30 on 2021-03-28 does not exist in Paris: Java moves it to 03:30+02:00.
        assert_eq!(
            iso(paris.instant(at(2021, 3, 28, 2, 30), None)),
            "2021-03-28T01:30:00.000Z"
        );
        // 02:30 on 2021-10-31 happens twice: the earlier offset (+02:00) wins...
        assert_eq!(
            iso(paris.instant(at(2021, 10, 31, 2, 30), None)),
            "2021-10-31T00:30:00.000Z"
        );
        // ...unless the later one is preferred.
        assert_eq!(
            iso(paris.instant(at(2021, 10, 31, 2, 30), Some(3600))),
            "2021-10-31T01:30:00.000Z"
        );
        assert_eq!(
            paris.local(1_616_895_000_000),
            at(2021, 3, 28, 3, 30),
            "01:30Z is 03:30 in summer time"
        );
    }
}
