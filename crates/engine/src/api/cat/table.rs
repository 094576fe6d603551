//! A `_cat` table: its columns, rows of cells looked up by column name, and the three ways
//! OpenSearch prints one: aligned text (`v`, `h`, `s`), JSON rows (`format=json`), or the
//! columns themselves (`help`).

use crate::api::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use serde_json::{Map, Value};
use std::cmp::Ordering;

pub const RIGHT: bool = true;
pub const LEFT: bool = false;
pub const SHOWN: bool = true;
pub const HIDDEN: bool = false;

#[derive(Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    /// Comma-separated, as `help` prints them.
    pub aliases: &'static str,
    pub desc: &'static str,
    pub right: bool,
    pub default: bool,
}

impl Column {
    pub const fn new(
        name: &'static str,
        aliases: &'static str,
        desc: &'static str,
        right: bool,
        default: bool,
    ) -> Column {
        Column {
            name,
            aliases,
            desc,
            right,
            default,
        }
    }

    fn answers_to(&self, h: &str) -> bool {
        self.name == h || self.aliases.split(',').any(|a| a == h)
    }
}

/// A table cell; `None` is OpenSearch's null cell (empty in text, `null` in JSON, first in a
/// sort).
pub type Cell = Option<String>;

/// A row: each column's cell, asked for by the column's name.
pub fn row(columns: &[Column], mut cell: impl FnMut(&str) -> Cell) -> Vec<Cell> {
    columns.iter().map(|c| cell(c.name)).collect()
}

/// OpenSearch's `1.2kb` style for `store.size` and friends: `ByteSizeValue`'s one decimal, cut
/// from the value's shortest text (not rounded: 3,458 bytes are `3.3kb`), none when it is 0.
pub fn format_bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 5] = [
        ("pb", 1 << 50),
        ("tb", 1 << 40),
        ("gb", 1 << 30),
        ("mb", 1 << 20),
        ("kb", 1 << 10),
    ];
    for (suffix, size) in UNITS {
        if n >= size {
            let text = (n as f64 / size as f64).to_string();
            return match text.split_once('.') {
                Some((whole, fraction)) if !fraction.starts_with('0') => {
                    format!("{whole}.{}{suffix}", &fraction[..1])
                }
                Some((whole, _)) => format!("{whole}{suffix}"),
                None => format!("{text}{suffix}"),
            };
        }
    }
    format!("{n}b")
}

/// How sizes and times print: `bytes=` and `time=` name a unit to print whole numbers of
/// (an unknown unit prints as if none were given, as OpenSearch's tables do).
pub struct Units {
    bytes_shift: Option<u32>,
    nanos_per: Option<u64>,
}

impl Units {
    pub fn of(p: &Params) -> Units {
        let bytes_shift = match p.str("bytes") {
            Some("b") => Some(0),
            Some("k" | "kb") => Some(10),
            Some("m" | "mb") => Some(20),
            Some("g" | "gb") => Some(30),
            Some("t" | "tb") => Some(40),
            Some("p" | "pb") => Some(50),
            _ => None,
        };
        let nanos_per = match p.str("time") {
            Some("d") => Some(86_400_000_000_000),
            Some("h") => Some(3_600_000_000_000),
            Some("m") => Some(60_000_000_000),
            Some("s") => Some(1_000_000_000),
            Some("ms") => Some(1_000_000),
            Some("micros") => Some(1_000),
            Some("nanos") => Some(1),
            _ => None,
        };
        Units {
            bytes_shift,
            nanos_per,
        }
    }

    pub fn bytes(&self, n: u64) -> String {
        match self.bytes_shift {
            Some(shift) => (n >> shift).to_string(),
            None => format_bytes(n),
        }
    }

    pub fn millis(&self, ms: u64) -> String {
        self.nanos(ms.saturating_mul(1_000_000))
    }

    pub fn nanos(&self, nanos: u64) -> String {
        match self.nanos_per {
            Some(per) => (nanos / per).to_string(),
            None => crate::profile::human_time(nanos),
        }
    }

    /// A fact as the TS layer sends it: a string or number as it is, `{"bytes": n}`,
    /// `{"millis": n}` and `{"nanos": n}` in these units, `null` (or nothing) an empty cell.
    pub fn fact(&self, v: Option<&Value>) -> Cell {
        match v? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => {
                let n = |k: &str| o.get(k).and_then(Value::as_u64);
                match (n("bytes"), n("millis"), n("nanos")) {
                    (Some(b), _, _) => Some(self.bytes(b)),
                    (_, Some(m), _) => Some(self.millis(m)),
                    (_, _, Some(ns)) => Some(self.nanos(ns)),
                    _ => None,
                }
            }
            other => Some(other.to_string()),
        }
    }
}

/// `help`: every column with its aliases and description, each padded to its widest.
pub fn help(columns: &[Column]) -> Response {
    let width = |f: fn(&Column) -> usize| columns.iter().map(f).max().unwrap_or(0);
    let (wn, wa, wd) = (
        width(|c| c.name.chars().count()),
        width(|c| c.aliases.chars().count()),
        width(|c| c.desc.chars().count()),
    );
    let mut out = String::new();
    for c in columns {
        out.push_str(&format!(
            "{:wn$} | {:wa$} | {:wd$}\n",
            c.name, c.aliases, c.desc
        ));
    }
    Response::bytes(200, out.into_bytes())
}

pub fn render(p: &Params, columns: &[Column], rows: Vec<Vec<Cell>>) -> Result<Response> {
    // Selected columns by index; an unknown header selects nothing and prints empty cells, as
    // OpenSearch's tables do.
    let selected: Vec<(Option<usize>, String)> = match p.list("h") {
        Some(hs) => {
            let mut sel = Vec::new();
            for h in hs {
                match columns.iter().position(|c| c.answers_to(&h)) {
                    // Shown under the name asked for, alias or not, as OpenSearch does.
                    Some(i) => sel.push((Some(i), h)),
                    None if h.contains('*') => {
                        for (i, c) in columns.iter().enumerate() {
                            if crate::metadata::target::glob_match(&h, c.name) {
                                sel.push((Some(i), c.name.to_string()));
                            }
                        }
                    }
                    None => sel.push((None, h)),
                }
            }
            sel
        }
        None => (0..columns.len())
            .filter(|&i| columns[i].default)
            .map(|i| (Some(i), columns[i].name.to_string()))
            .collect(),
    };
    let mut rows = rows;
    if let Some(sorts) = p.list("s") {
        sort(&mut rows, columns, &sorts)?;
    }
    match p.str("format") {
        Some("json") => Ok(Response::ok(&Value::Array(
            rows.iter()
                .map(|r| {
                    Value::Object(
                        selected
                            .iter()
                            .map(|(i, name)| {
                                let v = i.and_then(|i| r[i].clone());
                                (name.clone(), v.map_or(Value::Null, Value::from))
                            })
                            .collect::<Map<_, _>>(),
                    )
                })
                .collect(),
        ))),
        None | Some("text") | Some("txt") => text(p, columns, &selected, &rows),
        Some(other) => Err(Error::illegal_argument(format!(
            "Unsupported format [{other}]"
        ))),
    }
}

fn sort(rows: &mut [Vec<Cell>], columns: &[Column], sorts: &[String]) -> Result<()> {
    let mut keys = Vec::new();
    for s in sorts {
        let (name, desc) = match s.split_once(':') {
            Some((n, d)) => (n, d == "desc"),
            None => (s.as_str(), false),
        };
        let Some(i) = columns.iter().position(|c| c.answers_to(name)) else {
            return Err(Error::new(
                ErrorKind::UnsupportedOperation,
                format!("Unable to sort by unknown sort key `{name}`"),
            ));
        };
        keys.push((i, desc));
    }
    rows.sort_by(|a, b| {
        for &(i, desc) in &keys {
            let ord = match (&a[i], &b[i]) {
                (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                    _ => a.cmp(b),
                },
                (a, b) => a.is_some().cmp(&b.is_some()),
            };
            let ord = if desc { ord.reverse() } else { ord };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    });
    Ok(())
}

fn text(
    p: &Params,
    columns: &[Column],
    selected: &[(Option<usize>, String)],
    rows: &[Vec<Cell>],
) -> Result<Response> {
    let cell = |r: &[Cell], i: Option<usize>| -> String {
        i.and_then(|i| r[i].clone()).unwrap_or_default()
    };
    let right = |i: Option<usize>| i.is_some_and(|i| columns[i].right);
    let verbose = p.bool("v", false)?;
    let mut widths: Vec<usize> = selected
        .iter()
        .map(|(_, name)| if verbose { name.chars().count() } else { 0 })
        .collect();
    for r in rows {
        for (w, (i, _)) in widths.iter_mut().zip(selected) {
            *w = (*w).max(cell(r, *i).chars().count());
        }
    }
    let mut out = String::new();
    // OpenSearch's `RestTable.pad`: a right-aligned cell is padded before its value, a
    // left-aligned one after it but for the last column's; one space between columns.
    // So a line ends in spaces when its last cells are empty right-aligned ones.
    let mut line = |cells: Vec<(String, bool)>| {
        let last = cells.len().saturating_sub(1);
        for (j, (cell, right)) in cells.iter().enumerate() {
            let pad = widths[j].saturating_sub(cell.chars().count());
            if *right && pad > 0 {
                out.push_str(&" ".repeat(pad));
                out.push_str(cell);
            } else {
                out.push_str(cell);
                if j != last {
                    out.push_str(&" ".repeat(pad));
                }
            }
            if j != last {
                out.push(' ');
            }
        }
        out.push('\n');
    };
    // A header is aligned as its column's cells are.
    if verbose {
        line(
            selected
                .iter()
                .map(|(i, name)| (name.clone(), right(*i)))
                .collect(),
        );
    }
    for r in rows {
        line(
            selected
                .iter()
                .map(|(i, _)| (cell(r, *i), right(*i)))
                .collect(),
        );
    }
    Ok(Response::bytes(200, out.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Params(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
                .collect(),
        )
    }

    const COLUMNS: &[Column] = &[
        Column::new("name", "n", "the name", LEFT, SHOWN),
        Column::new("size", "s,sz", "size in bytes", RIGHT, SHOWN),
        Column::new("hidden", "", "not shown unless asked", LEFT, HIDDEN),
    ];

    fn rows() -> Vec<Vec<Cell>> {
        vec![
            vec![Some("a".into()), Some("10".into()), None],
            vec![Some("bbb".into()), Some("9".into()), Some("x".into())],
        ]
    }

    fn body(r: Response) -> String {
        String::from_utf8(r.body).unwrap()
    }

    #[test]
    fn bytes() {
        assert_eq!(format_bytes(208), "208b");
        assert_eq!(format_bytes(5325), "5.2kb");
        assert_eq!(format_bytes(1 << 20), "1mb");
        // Cut, not rounded, as `ByteSizeValue` prints.
        assert_eq!(format_bytes(3_458), "3.3kb");
        assert_eq!(format_bytes(2_047), "1.9kb");
        assert_eq!(format_bytes(1_075), "1kb");
    }

    #[test]
    fn help_pads_every_cell_to_its_widest() {
        let out = body(help(COLUMNS));
        assert_eq!(
            out,
            "name   | n    | the name              \n\
             size   | s,sz | size in bytes         \n\
             hidden |      | not shown unless asked\n"
        );
    }

    #[test]
    fn default_columns_aligned_and_sorted_numerically() {
        let p = params(&[("v", "true"), ("s", "size")]);
        let out = body(render(&p, COLUMNS, rows()).unwrap());
        assert_eq!(out, "name size\nbbb     9\na      10\n");
    }

    #[test]
    fn an_alias_selects_and_heads_its_column() {
        let p = params(&[("h", "sz,hidden"), ("format", "json")]);
        let out = body(render(&p, COLUMNS, rows()).unwrap());
        assert_eq!(
            out,
            r#"[{"sz":"10","hidden":null},{"sz":"9","hidden":"x"}]"#
        );
    }

    #[test]
    fn units_print_whole_numbers_of_the_unit_asked_for() {
        let u = Units::of(&params(&[("bytes", "k"), ("time", "s")]));
        assert_eq!(u.bytes(11_972), "11");
        assert_eq!(u.millis(88), "0");
        let u = Units::of(&params(&[("bytes", "zz"), ("time", "micros")]));
        assert_eq!(u.bytes(11_972), "11.6kb");
        assert_eq!(u.millis(88), "88000");
        assert_eq!(Units::of(&params(&[])).millis(119), "119ms");
        let u = Units::of(&params(&[]));
        assert_eq!(
            u.fact(Some(&serde_json::json!({"nanos": 283_652}))),
            Some("283.6micros".into())
        );
        assert_eq!(
            u.fact(Some(&serde_json::json!({"bytes": 2048}))),
            Some("2kb".into())
        );
        assert_eq!(u.fact(Some(&serde_json::json!(4.5))), Some("4.5".into()));
        assert_eq!(u.fact(Some(&Value::Null)), None);
    }
}
