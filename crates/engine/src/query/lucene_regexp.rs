//! Lucene's `RegExp` syntax, parsed as Lucene parses it (same grammar, same optional operators
//! behind `flags`, same error messages and positions) and translated to the regex dialect of
//! tantivy's automaton. The complement `~` and the intersection `&` have no counterpart there,
//! so a pattern using them is refused rather than matched wrongly; the empty language `#` folds
//! away (a pattern that can match nothing matches nothing).

use super::multi_term::push_literal;
use crate::error::{Error, ErrorKind};
use serde_json::Value;

/// `RegExp.INTERSECTION` … `RegExp.INTERVAL`, as OpenSearch's `RegexpFlag` names them.
pub const INTERSECTION: u32 = 0x1;
pub const COMPLEMENT: u32 = 0x2;
pub const EMPTY: u32 = 0x4;
pub const ANYSTRING: u32 = 0x8;
pub const AUTOMATON: u32 = 0x10;
pub const INTERVAL: u32 = 0x20;
pub const ALL: u32 = 0xff;

/// Why a pattern has no translation.
#[derive(Debug)]
pub enum Refusal {
    /// Lucene's own `IllegalArgumentException`.
    Syntax(Error),
    /// Valid Lucene syntax Quarry cannot run.
    Unsupported(Error),
}

impl Refusal {
    pub fn error(self) -> Error {
        match self {
            Refusal::Syntax(e) | Refusal::Unsupported(e) => e,
        }
    }
}

#[derive(Debug, Clone)]
enum Re {
    Union(Box<Re>, Box<Re>),
    Concat(Box<Re>, Box<Re>),
    Intersection,
    Complement,
    Optional(Box<Re>),
    Repeat(Box<Re>, u32, Option<u32>),
    /// `[...]`, negated or not: its items as regex class items.
    Class(bool, Vec<String>),
    /// `\d`, `\s`, `\w` and their capitals.
    Predefined(char),
    Char(char),
    AnyChar,
    Empty,
    AnyString,
    Str(String),
    Interval(u32, u32, usize),
}

struct Parser<'a> {
    s: &'a [char],
    pos: usize,
    flags: u32,
}

fn syntax(msg: impl Into<String>) -> Refusal {
    Refusal::Syntax(Error::illegal_argument(msg.into()))
}

fn unsupported(msg: impl Into<String>) -> Refusal {
    Refusal::Unsupported(Error::illegal_argument(msg.into()))
}

impl Parser<'_> {
    fn more(&self) -> bool {
        self.pos < self.s.len()
    }

    fn peek(&self, set: &str) -> bool {
        self.more() && set.contains(self.s[self.pos])
    }

    fn eat(&mut self, c: char) -> bool {
        if self.more() && self.s[self.pos] == c {
            self.pos += 1;
            return true;
        }
        false
    }

    fn check(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    fn next(&mut self) -> Result<char, Refusal> {
        if !self.more() {
            return Err(syntax("unexpected end-of-string"));
        }
        self.pos += 1;
        Ok(self.s[self.pos - 1])
    }

    fn union(&mut self) -> Result<Re, Refusal> {
        let e = self.inter()?;
        if self.eat('|') {
            return Ok(Re::Union(Box::new(e), Box::new(self.union()?)));
        }
        Ok(e)
    }

    fn inter(&mut self) -> Result<Re, Refusal> {
        let e = self.concat()?;
        if self.check(INTERSECTION) && self.eat('&') {
            self.inter()?;
            return Ok(Re::Intersection);
        }
        Ok(e)
    }

    fn concat(&mut self) -> Result<Re, Refusal> {
        let e = self.repeat()?;
        if self.more() && !self.peek(")|") && (!self.check(INTERSECTION) || !self.peek("&")) {
            return Ok(Re::Concat(Box::new(e), Box::new(self.concat()?)));
        }
        Ok(e)
    }

    fn integer(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek("0123456789") {
            self.pos += 1;
        }
        (start != self.pos).then(|| {
            self.s[start..self.pos]
                .iter()
                .collect::<String>()
                .parse()
                .unwrap_or(u32::MAX)
        })
    }

    fn repeat(&mut self) -> Result<Re, Refusal> {
        let mut e = self.complement()?;
        while self.peek("?*+{") {
            if self.eat('?') {
                e = Re::Optional(Box::new(e));
            } else if self.eat('*') {
                e = Re::Repeat(Box::new(e), 0, None);
            } else if self.eat('+') {
                e = Re::Repeat(Box::new(e), 1, None);
            } else if self.eat('{') {
                let n = self
                    .integer()
                    .ok_or_else(|| syntax(format!("integer expected at position {}", self.pos)))?;
                let m = if self.eat(',') {
                    self.integer()
                } else {
                    Some(n)
                };
                if !self.eat('}') {
                    return Err(syntax(format!("expected '}}' at position {}", self.pos)));
                }
                if let Some(m) = m.filter(|&m| m < n) {
                    return Err(syntax(format!(
                        "invalid repetition range(out of order): {n}..{m}"
                    )));
                }
                e = Re::Repeat(Box::new(e), n, m);
            }
        }
        Ok(e)
    }

    fn complement(&mut self) -> Result<Re, Refusal> {
        if self.check(COMPLEMENT) && self.eat('~') {
            self.complement()?;
            return Ok(Re::Complement);
        }
        self.char_class()
    }

    fn char_class(&mut self) -> Result<Re, Refusal> {
        if !self.eat('[') {
            return self.simple();
        }
        let negated = self.eat('^');
        let mut items = vec![self.class_item()?];
        while self.more() && !self.peek("]") {
            items.push(self.class_item()?);
        }
        if !self.eat(']') {
            return Err(syntax(format!("expected ']' at position {}", self.pos)));
        }
        Ok(Re::Class(negated, items))
    }

    /// `\d`, `\D`, `\s`, `\S`, `\w` or `\W` here, consumed.
    fn predefined(&mut self) -> Option<char> {
        if self.pos + 1 < self.s.len()
            && self.s[self.pos] == '\\'
            && "dDsSwW".contains(self.s[self.pos + 1])
        {
            self.pos += 2;
            return Some(self.s[self.pos - 1]);
        }
        None
    }

    fn class_item(&mut self) -> Result<String, Refusal> {
        if let Some(p) = self.predefined() {
            return Ok(predefined_class(p).to_string());
        }
        let c = self.char_exp()?;
        if self.eat('-') {
            let to = self.char_exp()?;
            if c > to {
                return Err(syntax(format!(
                    "invalid range: from ({}) cannot be > to ({})",
                    c as u32, to as u32
                )));
            }
            let mut out = String::new();
            push_class_char(&mut out, c);
            out.push('-');
            push_class_char(&mut out, to);
            return Ok(out);
        }
        let mut out = String::new();
        push_class_char(&mut out, c);
        Ok(out)
    }

    fn char_exp(&mut self) -> Result<char, Refusal> {
        self.eat('\\');
        self.next()
    }

    fn simple(&mut self) -> Result<Re, Refusal> {
        if self.eat('.') {
            return Ok(Re::AnyChar);
        }
        if self.check(EMPTY) && self.eat('#') {
            return Ok(Re::Empty);
        }
        if self.check(ANYSTRING) && self.eat('@') {
            return Ok(Re::AnyString);
        }
        if self.eat('"') {
            let start = self.pos;
            while self.more() && !self.peek("\"") {
                self.pos += 1;
            }
            if !self.eat('"') {
                return Err(syntax(format!("expected '\"' at position {}", self.pos)));
            }
            return Ok(Re::Str(self.s[start..self.pos - 1].iter().collect()));
        }
        if self.eat('(') {
            if self.eat(')') {
                return Ok(Re::Str(String::new()));
            }
            let e = self.union()?;
            if !self.eat(')') {
                return Err(syntax(format!("expected ')' at position {}", self.pos)));
            }
            return Ok(e);
        }
        if (self.check(AUTOMATON) || self.check(INTERVAL)) && self.eat('<') {
            return self.angle();
        }
        if let Some(p) = self.predefined() {
            return Ok(Re::Predefined(p));
        }
        Ok(Re::Char(self.char_exp()?))
    }

    /// `<name>` (a named automaton, of which OpenSearch provides none) or `<min-max>`.
    fn angle(&mut self) -> Result<Re, Refusal> {
        let start = self.pos;
        while self.more() && !self.peek(">") {
            self.pos += 1;
        }
        if !self.eat('>') {
            return Err(syntax(format!("expected '>' at position {}", self.pos)));
        }
        let s: String = self.s[start..self.pos - 1].iter().collect();
        let at = self.pos - 1;
        let Some(i) = s.find('-') else {
            if !self.check(AUTOMATON) {
                return Err(syntax(format!("interval syntax error at position {at}")));
            }
            return Err(syntax(format!("'{s}' not found")));
        };
        if !self.check(INTERVAL) {
            return Err(syntax(format!("illegal identifier at position {at}")));
        }
        // Lucene rethrows the `NumberFormatException` behind each of these: its own, without a
        // message, for a misplaced `-`, `Integer.parseInt`'s for a bound that is no number.
        let bad = |cause: Option<&str>| {
            let nfe = match cause {
                Some(text) => Error::new(
                    ErrorKind::NumberFormat,
                    format!("For input string: \"{text}\""),
                ),
                None => Error::new(ErrorKind::NumberFormat, "").with("reason", Value::Null),
            };
            Refusal::Syntax(
                Error::illegal_argument(format!("interval syntax error at position {at}"))
                    .caused_by(nfe),
            )
        };
        if i == 0 || i == s.len() - 1 || s.rfind('-') != Some(i) {
            return Err(bad(None));
        }
        let (lo, hi) = (&s[..i], &s[i + 1..]);
        let a: i32 = lo.parse().map_err(|_| bad(Some(lo)))?;
        let b: i32 = hi.parse().map_err(|_| bad(Some(hi)))?;
        let digits = if lo.len() == hi.len() { lo.len() } else { 0 };
        let (a, b) = (a.min(b), a.max(b));
        if a < 0 {
            return Err(bad(None));
        }
        Ok(Re::Interval(a as u32, b as u32, digits))
    }
}

fn predefined_class(p: char) -> &'static str {
    match p {
        'd' => "0-9",
        'D' => "[^0-9]",
        's' => r"\t\n\x0B\x0C\r ",
        'S' => r"[^\t\n\x0B\x0C\r ]",
        'w' => "a-zA-Z_0-9",
        _ => "[^a-zA-Z_0-9]",
    }
}

fn push_class_char(out: &mut String, c: char) {
    if "\\[]^-&~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// The most numbers an interval is spelled out for.
const MAX_INTERVAL: u32 = 10_000;

impl Re {
    /// Whether the pattern's language is empty (`#` where nothing else rescues it).
    fn is_empty(&self) -> bool {
        match self {
            Re::Empty => true,
            Re::Union(a, b) => a.is_empty() && b.is_empty(),
            Re::Concat(a, b) => a.is_empty() || b.is_empty(),
            Re::Repeat(e, min, _) => *min > 0 && e.is_empty(),
            Re::Class(..) | Re::Predefined(_) | Re::Char(_) | Re::AnyChar | Re::AnyString => false,
            Re::Str(_) | Re::Interval(..) | Re::Optional(_) => false,
            Re::Intersection | Re::Complement => false,
        }
    }

    fn write(&self, out: &mut String) -> Result<(), Refusal> {
        match self {
            Re::Union(a, b) => match (a.is_empty(), b.is_empty()) {
                (true, _) => b.write(out)?,
                (_, true) => a.write(out)?,
                _ => {
                    out.push_str("(?:");
                    a.write(out)?;
                    out.push('|');
                    b.write(out)?;
                    out.push(')');
                }
            },
            Re::Concat(a, b) => {
                a.write(out)?;
                b.write(out)?;
            }
            Re::Intersection | Re::Complement => {
                return Err(unsupported(
                    "the regexp operators ~ (complement) and & (intersection) are not supported",
                ))
            }
            Re::Optional(e) if e.is_empty() => out.push_str("(?:)"),
            Re::Optional(e) => {
                out.push_str("(?:");
                e.write(out)?;
                out.push_str(")?");
            }
            // Nothing but the empty string can repeat zero times.
            Re::Repeat(e, _, _) if e.is_empty() => out.push_str("(?:)"),
            Re::Repeat(e, min, max) => {
                out.push_str("(?:");
                e.write(out)?;
                out.push(')');
                match (min, max) {
                    (0, None) => out.push('*'),
                    (1, None) => out.push('+'),
                    (n, None) => out.push_str(&format!("{{{n},}}")),
                    (n, Some(m)) => out.push_str(&format!("{{{n},{m}}}")),
                }
            }
            Re::Class(negated, items) => {
                out.push('[');
                if *negated {
                    out.push('^');
                }
                for it in items {
                    out.push_str(it);
                }
                out.push(']');
            }
            // A class of its items (the negated ones nest: `[[^0-9]]`).
            Re::Predefined(p) => {
                out.push('[');
                out.push_str(predefined_class(*p));
                out.push(']');
            }
            Re::Char(c) => push_literal(out, *c),
            Re::AnyChar => out.push('.'),
            Re::Empty => {}
            Re::AnyString => out.push_str(".*"),
            Re::Str(s) => s.chars().for_each(|c| push_literal(out, c)),
            Re::Interval(a, b, digits) => {
                if b - a > MAX_INTERVAL {
                    return Err(unsupported(format!(
                        "regexp intervals of more than {MAX_INTERVAL} numbers are not supported"
                    )));
                }
                // Fixed-width intervals are zero-padded to the width; others take any number
                // of leading zeros (Lucene's `Automata.makeDecimalInterval`).
                out.push_str(if *digits == 0 { "0*(?:" } else { "(?:" });
                let alts: Vec<String> = (*a..=*b).map(|n| format!("{n:0digits$}")).collect();
                out.push_str(&alts.join("|"));
                out.push(')');
            }
        }
        Ok(())
    }
}

/// The pattern as tantivy's regex (anchored at both ends, `.` matching newlines too), `None`
/// when it can match nothing.
pub fn translate(pattern: &str, flags: u32) -> Result<Option<String>, Refusal> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Parser {
        s: &chars,
        pos: 0,
        flags,
    };
    let re = if chars.is_empty() {
        Re::Str(String::new())
    } else {
        let re = p.union()?;
        if p.more() {
            // Lucene reports the position in UTF-16 units; patterns are mostly ASCII.
            return Err(syntax(format!(
                "end-of-string expected at position {}",
                p.pos
            )));
        }
        re
    };
    if re.is_empty() {
        return Ok(None);
    }
    let mut out = String::from("(?s)");
    re.write(&mut out)?;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(p: &str) -> String {
        translate(p, ALL).unwrap().unwrap()
    }

    fn err(p: &str) -> String {
        match translate(p, ALL) {
            Err(r) => r.error().reason,
            other => panic!("{p}: {other:?}"),
        }
    }

    #[test]
    fn translates_lucene_syntax() {
        assert_eq!(ok("qu.ck"), "(?s)qu.ck");
        assert_eq!(ok("a<1-3>"), "(?s)a(?:1|2|3)");
        assert_eq!(ok("<8-10>"), "(?s)0*(?:8|9|10)");
        assert_eq!(ok("\"a.b\"@"), "(?s)a\\.b.*");
        assert_eq!(ok("[^a-c\\]]x{2,}"), "(?s)[^a-c\\]](?:x){2,}");
        assert_eq!(ok("a|b"), "(?s)(?:a|b)");
        assert_eq!(ok("\\d+"), "(?s)(?:[0-9])+");
        assert_eq!(ok("*"), "(?s)\\*");
        assert_eq!(ok("+a"), "(?s)\\+a");
        assert_eq!(ok("a#|b"), "(?s)b");
        assert_eq!(ok("()"), "(?s)");
        assert!(matches!(translate("#", ALL), Ok(None)));
        // Without their flags, the operators are plain characters.
        assert_eq!(translate("~a&b", 0).unwrap().unwrap(), "(?s)\\~a\\&b");
        assert_eq!(translate("<1-2>", 0).unwrap().unwrap(), "(?s)<1\\-2>");
    }

    #[test]
    fn refuses_as_lucene_does() {
        assert_eq!(err("[a-"), "unexpected end-of-string");
        assert_eq!(err("("), "unexpected end-of-string");
        assert_eq!(
            err("g{2,1}"),
            "invalid repetition range(out of order): 2..1"
        );
        assert_eq!(err("a{,2}"), "integer expected at position 2");
        assert_eq!(err("a)"), "end-of-string expected at position 1");
        assert_eq!(err("a{2"), "expected '}' at position 3");
        assert_eq!(err("[]"), "expected ']' at position 2");
        assert_eq!(err("[^]"), "expected ']' at position 3");
        assert_eq!(
            err("[z-a]"),
            "invalid range: from (122) cannot be > to (97)"
        );
        assert_eq!(err("a\""), "expected '\"' at position 2");
        assert_eq!(err("<1->"), "interval syntax error at position 3");
        assert_eq!(err("<abc>"), "'abc' not found");
        assert!(err("~a").contains("not supported"));
        assert!(err("a&b").contains("not supported"));
    }
}
