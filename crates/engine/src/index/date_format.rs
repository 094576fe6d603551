//! Date formats as OpenSearch's `date` fields parse them: `||`-separated alternatives tried in
//! order, the first that consumes the whole input winning. Built-in names cover the formats users
//! actually map; anything else is read as a java.time pattern.

use crate::error::{Error, ErrorKind, Result};
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

pub const DEFAULT_FORMAT: &str = "strict_date_optional_time||epoch_millis";

#[derive(Debug, Clone, PartialEq)]
enum Parser {
    EpochMillis,
    EpochSecond,
    /// ISO-8601 `yyyy[-MM[-dd]][THH[:mm[:ss[.S]]][zone]]`.
    OptionalTime {
        strict: bool,
    },
    Pattern(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Year(usize),
    Month(usize),
    MonthName,
    Day(usize),
    DayOfYear,
    Hour(usize),
    Minute(usize),
    Second(usize),
    Fraction(usize),
    DayName,
    Offset,
    Literal(String),
}

#[derive(Debug, Clone)]
pub struct DateFormat {
    pub source: String,
    parsers: Vec<Parser>,
}

impl DateFormat {
    pub fn parse_format(source: &str) -> Result<DateFormat> {
        let mut parsers = Vec::new();
        let src = source.strip_prefix('8').unwrap_or(source);
        for element in src.split("||") {
            let el = element.trim();
            if el.is_empty() {
                return Err(Error::illegal_argument(format!(
                    "Cannot have empty element in multi date format pattern: {source}"
                )));
            }
            parsers.push(named(el).map_or_else(|| pattern(el), Ok)?);
        }
        Ok(DateFormat {
            source: source.to_string(),
            parsers,
        })
    }

    pub fn default_format() -> DateFormat {
        DateFormat::parse_format(DEFAULT_FORMAT).expect("default date format parses")
    }

    /// Milliseconds since the epoch, UTC, or OpenSearch's failure.
    pub fn parse_millis(&self, input: &str) -> Result<i64> {
        for p in &self.parsers {
            if let Some(ms) = parse_with(p, input) {
                return Ok(ms);
            }
        }
        Err(Error::illegal_argument(format!(
            "failed to parse date field [{input}] with format [{}]",
            self.source
        ))
        .caused_by(Error::new(
            ErrorKind::DateTimeParse,
            "Failed to parse with all enclosed parsers",
        )))
    }
}

fn named(name: &str) -> Option<Parser> {
    let p = |s: &str| pattern(s).ok();
    Some(match name {
        "epoch_millis" => Parser::EpochMillis,
        "epoch_second" => Parser::EpochSecond,
        "strict_date_optional_time" | "iso8601" | "strict_date_optional_time_nanos" => {
            Parser::OptionalTime { strict: true }
        }
        "date_optional_time" | "dateOptionalTime" => Parser::OptionalTime { strict: false },
        "strict_date" | "date" | "strict_year_month_day" | "year_month_day" => p("yyyy-MM-dd")?,
        "strict_year_month" | "year_month" => p("yyyy-MM")?,
        "strict_year" | "year" => p("yyyy")?,
        "basic_date" => p("yyyyMMdd")?,
        "basic_date_time" => p("yyyyMMdd'T'HHmmss.SSSZ")?,
        "basic_date_time_no_millis" => p("yyyyMMdd'T'HHmmssZ")?,
        "strict_date_time" | "date_time" => p("yyyy-MM-dd'T'HH:mm:ss.SSSZ")?,
        "strict_date_time_no_millis" | "date_time_no_millis" => p("yyyy-MM-dd'T'HH:mm:ssZ")?,
        "strict_date_hour" | "date_hour" => p("yyyy-MM-dd'T'HH")?,
        "strict_date_hour_minute" | "date_hour_minute" => p("yyyy-MM-dd'T'HH:mm")?,
        "strict_date_hour_minute_second" | "date_hour_minute_second" => p("yyyy-MM-dd'T'HH:mm:ss")?,
        "strict_date_hour_minute_second_millis"
        | "date_hour_minute_second_millis"
        | "strict_date_hour_minute_second_fraction"
        | "date_hour_minute_second_fraction" => p("yyyy-MM-dd'T'HH:mm:ss.SSS")?,
        "strict_hour_minute_second" | "hour_minute_second" => p("HH:mm:ss")?,
        "strict_hour_minute" | "hour_minute" => p("HH:mm")?,
        "strict_hour" | "hour" => p("HH")?,
        "strict_ordinal_date" | "ordinal_date" => p("yyyy-DDD")?,
        _ => return None,
    })
}

fn pattern(src: &str) -> Result<Parser> {
    let chars: Vec<char> = src.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let invalid = || Error::illegal_argument(format!("Invalid format: [{src}]"));
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut lit = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                lit.push(chars[i]);
                i += 1;
            }
            if i >= chars.len() {
                return Err(invalid());
            }
            i += 1;
            tokens.push(Token::Literal(if lit.is_empty() {
                "'".into()
            } else {
                lit
            }));
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut n = 1;
            while i + n < chars.len() && chars[i + n] == c {
                n += 1;
            }
            tokens.push(match c {
                'y' | 'u' => Token::Year(n),
                'M' if n >= 3 => Token::MonthName,
                'M' => Token::Month(n),
                'd' => Token::Day(n),
                'D' => Token::DayOfYear,
                'H' | 'k' => Token::Hour(n),
                'm' => Token::Minute(n),
                's' => Token::Second(n),
                'S' => Token::Fraction(n),
                'E' => Token::DayName,
                'Z' | 'X' | 'x' => Token::Offset,
                _ => return Err(invalid()),
            });
            i += n;
            continue;
        }
        tokens.push(Token::Literal(c.to_string()));
        i += 1;
    }
    Ok(Parser::Pattern(tokens))
}

fn parse_with(p: &Parser, input: &str) -> Option<i64> {
    match p {
        Parser::EpochMillis => parse_epoch(input, 1.0),
        Parser::EpochSecond => parse_epoch(input, 1000.0),
        Parser::OptionalTime { strict } => parse_optional_time(input, *strict),
        Parser::Pattern(tokens) => parse_pattern(tokens, input),
    }
}

fn parse_epoch(input: &str, scale: f64) -> Option<i64> {
    let s = input.strip_suffix('.').unwrap_or(input);
    let (int_part, frac) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let digits = int_part.strip_prefix('-').unwrap_or(int_part);
    if digits.is_empty() || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(f) = frac {
        if f.len() > 9 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: f64 = s.parse().ok()?;
        return Some((v * scale).floor() as i64);
    }
    let v: i64 = int_part.parse().ok()?;
    v.checked_mul(scale as i64)
}

struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn digits(&mut self, min: usize, max: usize) -> Option<i64> {
        let start = self.pos;
        while self.pos < self.s.len() && self.pos - start < max && self.s[self.pos].is_ascii_digit()
        {
            self.pos += 1;
        }
        if self.pos - start < min {
            return None;
        }
        std::str::from_utf8(&self.s[start..self.pos])
            .ok()?
            .parse()
            .ok()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn done(&self) -> bool {
        self.pos == self.s.len()
    }
    fn fraction_nanos(&mut self, max: usize) -> Option<i64> {
        let start = self.pos;
        while self.pos < self.s.len() && self.pos - start < max && self.s[self.pos].is_ascii_digit()
        {
            self.pos += 1;
        }
        let n = self.pos - start;
        if n == 0 {
            return None;
        }
        let v: i64 = std::str::from_utf8(&self.s[start..self.pos])
            .ok()?
            .parse()
            .ok()?;
        Some(v * 10i64.pow((9 - n) as u32))
    }
    /// `Z`, `+HH`, `+HHmm`, `+HH:mm`; seconds east of UTC.
    fn offset(&mut self) -> Option<i64> {
        if self.eat(b'Z') || self.eat(b'z') {
            return Some(0);
        }
        let sign = if self.eat(b'+') {
            1
        } else if self.eat(b'-') {
            -1
        } else {
            return None;
        };
        let h = self.digits(2, 2)?;
        let colon = self.eat(b':');
        let m = if colon {
            self.digits(2, 2)?
        } else {
            self.digits(2, 2).unwrap_or(0)
        };
        if h > 18 || m > 59 {
            return None;
        }
        Some(sign * (h * 3600 + m * 60))
    }
}

fn to_millis(
    date: NaiveDate,
    h: i64,
    mi: i64,
    s: i64,
    nanos: i64,
    offset_secs: i64,
) -> Option<i64> {
    let time = NaiveTime::from_hms_nano_opt(h as u32, mi as u32, s as u32, nanos as u32)?;
    let dt = NaiveDateTime::new(date, time);
    let utc_secs = dt.and_utc().timestamp() - offset_secs;
    Some(utc_secs * 1000 + (nanos / 1_000_000))
}

fn parse_optional_time(input: &str, strict: bool) -> Option<i64> {
    let mut c = Cursor {
        s: input.as_bytes(),
        pos: 0,
    };
    let (ymin, ymax, dmin) = if strict { (4, 4, 2) } else { (1, 9, 1) };
    let negative = !strict && c.eat(b'-');
    let mut year = c.digits(ymin, ymax)?;
    if negative {
        year = -year;
    }
    let mut month = 1;
    let mut day = 1;
    if c.eat(b'-') {
        month = c.digits(dmin, 2)?;
        if c.eat(b'-') {
            day = c.digits(dmin, 2)?;
        }
    }
    let date = NaiveDate::from_ymd_opt(year as i32, month as u32, day as u32)?;
    let (mut h, mut mi, mut s, mut nanos, mut off) = (0, 0, 0, 0, 0);
    if c.eat(b'T') {
        h = c.digits(dmin, 2)?;
        if c.eat(b':') {
            mi = c.digits(dmin, 2)?;
            if c.eat(b':') {
                s = c.digits(dmin, 2)?;
                if c.eat(b'.') || c.eat(b',') {
                    nanos = c.fraction_nanos(9)?;
                }
            }
        }
        if !c.done() {
            off = c.offset()?;
        }
    }
    if !c.done() {
        return None;
    }
    to_millis(date, h, mi, s, nanos, off)
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

fn parse_pattern(tokens: &[Token], input: &str) -> Option<i64> {
    let mut c = Cursor {
        s: input.as_bytes(),
        pos: 0,
    };
    let (mut year, mut month, mut day, mut doy) = (1970i64, 1i64, 1i64, None);
    let (mut h, mut mi, mut s, mut nanos, mut off) = (0, 0, 0, 0, 0);
    for (i, t) in tokens.iter().enumerate() {
        // Adjacent numeric fields (yyyyMMdd) need fixed widths; separated ones may be shorter.
        let next_numeric = matches!(
            tokens.get(i + 1),
            Some(
                Token::Year(_)
                    | Token::Month(_)
                    | Token::Day(_)
                    | Token::Hour(_)
                    | Token::Minute(_)
                    | Token::Second(_)
                    | Token::Fraction(_)
            )
        );
        let width = |n: usize, max: usize| if next_numeric { (n, n) } else { (n, max) };
        match t {
            Token::Year(n) => {
                let (a, b) = if *n == 2 { (2, 2) } else { width(*n, 9) };
                year = c.digits(a, b)?;
                if *n == 2 {
                    year += 2000;
                }
            }
            Token::Month(n) => month = c.digits(width(*n, 2).0, width(*n, 2).1)?,
            Token::Day(n) => day = c.digits(width(*n, 2).0, width(*n, 2).1)?,
            Token::DayOfYear => doy = Some(c.digits(1, 3)?),
            Token::Hour(n) => h = c.digits(width(*n, 2).0, width(*n, 2).1)?,
            Token::Minute(n) => mi = c.digits(width(*n, 2).0, width(*n, 2).1)?,
            Token::Second(n) => s = c.digits(width(*n, 2).0, width(*n, 2).1)?,
            Token::Fraction(n) => nanos = c.fraction_nanos(if next_numeric { *n } else { 9 })?,
            Token::MonthName => {
                let rest = input.get(c.pos..)?.to_ascii_lowercase();
                let idx = MONTHS.iter().position(|m| rest.starts_with(m))?;
                month = idx as i64 + 1;
                c.pos += 3;
                while c.pos < c.s.len() && c.s[c.pos].is_ascii_alphabetic() {
                    c.pos += 1;
                }
            }
            Token::DayName => {
                let rest = input.get(c.pos..)?.to_ascii_lowercase();
                DAYS.iter().position(|d| rest.starts_with(d))?;
                while c.pos < c.s.len() && c.s[c.pos].is_ascii_alphabetic() {
                    c.pos += 1;
                }
            }
            Token::Offset => off = c.offset()?,
            Token::Literal(l) => {
                for b in l.bytes() {
                    if !c.eat(b) {
                        return None;
                    }
                }
            }
        }
    }
    if !c.done() {
        return None;
    }
    let date = match doy {
        Some(d) => NaiveDate::from_yo_opt(year as i32, d as u32)?,
        None => NaiveDate::from_ymd_opt(year as i32, month as u32, day as u32)?,
    };
    to_millis(date, h, mi, s, nanos, off)
}

/// Prints epoch millis as `strict_date_optional_time` does: `2020-01-15T00:00:00.000Z`.
pub fn format_iso_millis(ms: i64) -> String {
    match chrono::DateTime::from_timestamp_millis(ms) {
        Some(dt) => dt.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        None => ms.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(fmt: &str, s: &str) -> Option<i64> {
        DateFormat::parse_format(fmt).unwrap().parse_millis(s).ok()
    }

    #[test]
    fn default_format() {
        assert_eq!(
            ms(DEFAULT_FORMAT, "2020-01-15T00:00:00Z"),
            Some(1579046400000)
        );
        assert_eq!(ms(DEFAULT_FORMAT, "2020-01-15"), Some(1579046400000));
        assert_eq!(
            ms(DEFAULT_FORMAT, "2020-01-15T01:00:00.5+01:00"),
            Some(1579046400500)
        );
        assert_eq!(ms(DEFAULT_FORMAT, "1579046400000"), Some(1579046400000));
        assert_eq!(ms(DEFAULT_FORMAT, "2020"), Some(1577836800000));
        assert_eq!(ms(DEFAULT_FORMAT, "2019-03-23 21:34:46"), None);
        assert_eq!(ms(DEFAULT_FORMAT, "2020-1-5"), None);
        assert_eq!(ms(DEFAULT_FORMAT, "2019-03-23Z"), None);
        assert_eq!(ms(DEFAULT_FORMAT, "2019-02-30"), None);
    }

    #[test]
    fn patterns() {
        assert_eq!(
            ms("yyyy/MM/dd HH:mm:ss", "2020/01/15 00:00:00"),
            Some(1579046400000)
        );
        assert_eq!(ms("yyyyMMdd", "20200115"), Some(1579046400000));
        assert_eq!(
            ms("dd/MMM/yyyy:HH:mm:ss Z", "15/Jan/2020:01:00:00 +0100"),
            Some(1579046400000)
        );
        assert_eq!(ms("epoch_second", "1579046400"), Some(1579046400000));
        assert!(DateFormat::parse_format("yyyy||").is_err());
    }

    #[test]
    fn prints() {
        assert_eq!(format_iso_millis(1579046400000), "2020-01-15T00:00:00.000Z");
    }
}
