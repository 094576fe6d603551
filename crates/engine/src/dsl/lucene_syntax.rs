//! The Lucene classic query syntax of `query_string` and `q=` (query-string-and-dates.md A1):
//! tokens, the grammar's clause structure and Lucene's `addClause` occur rules. Leaves stay
//! text here; the query builder resolves fields and analyses them against a shard's mapping.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occur {
    Must,
    Should,
    MustNot,
    Filter,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// One bare term (escapes removed).
    Text(String),
    /// A run of bare terms analysed as one text (`MultiTerm`).
    Run(String),
    Phrase {
        text: String,
        slop: Option<u32>,
    },
    /// `term~` (`None`: the query's `fuzziness`) or `term~N`, with the text after the `~` as
    /// written (OpenSearch parses it as a fuzziness when it builds the query).
    Fuzzy {
        text: String,
        fuzziness: Option<String>,
    },
    /// `abc*`: the prefix without its star (escapes removed).
    Prefix(String),
    /// `a?c*`, `*x`, a lone `*`: the raw pattern, escapes kept.
    Wildcard(String),
    Regexp(String),
    /// `*:*`, the filter beside an all-negative group, simple_query_string's `*` and `-x`.
    MatchAll,
    Range {
        lo: Option<String>,
        hi: Option<String>,
        incl_lo: bool,
        incl_hi: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Clauses in order; `(occur, node)`.
    Bool(Vec<(Occur, Node)>),
    Boost(Box<Node>, f32),
    /// A leaf on an explicit field (`Some`) or on the default fields (`None`).
    Leaf {
        field: Option<String>,
        leaf: Leaf,
    },
}

/// Lucene's `ParseException` / `TokenMgrError` message (without the `Cannot parse '…': ` prefix).
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub message: String,
    pub lexical: bool,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    And,
    Or,
    Not,
    Plus,
    Minus,
    BareOper(char),
    LParen,
    RParen,
    Colon,
    Star,
    Caret,
    Number(String),
    Quoted(String),
    Term(String),
    Prefix(String),
    Wild(String),
    Regexp(String),
    FuzzySlop(String),
    RangeStart(bool),
    RangeTo,
    RangeEnd(bool),
    RangeGoop(String),
    RangeQuoted(String),
    Eof,
}

impl Tok {
    /// How Lucene's error messages show a token.
    fn describe(&self) -> String {
        let (kind, image): (&str, String) = match self {
            Tok::And => ("<AND>", "AND".into()),
            Tok::Or => ("<OR>", "OR".into()),
            Tok::Not => ("<NOT>", "NOT".into()),
            Tok::Plus => ("\"+\"", "+".into()),
            Tok::Minus => ("\"-\"", "-".into()),
            Tok::BareOper(c) => ("<BAREOPER>", format!("{c} ")),
            Tok::LParen => ("\"(\"", "(".into()),
            Tok::RParen => ("\")\"", ")".into()),
            Tok::Colon => ("\":\"", ":".into()),
            Tok::Star => ("\"*\"", "*".into()),
            Tok::Caret => ("\"^\"", "^".into()),
            Tok::Number(s) => ("<NUMBER>", s.clone()),
            Tok::Quoted(s) => ("<QUOTED>", format!("\"{s}\"")),
            Tok::Term(s) => ("<TERM>", s.clone()),
            Tok::Prefix(s) => ("<PREFIXTERM>", s.clone()),
            Tok::Wild(s) => ("<WILDTERM>", s.clone()),
            Tok::Regexp(s) => ("<REGEXPTERM>", format!("/{s}/")),
            Tok::FuzzySlop(s) => ("<FUZZY_SLOP>", s.clone()),
            Tok::RangeStart(true) => ("\"[\"", "[".into()),
            Tok::RangeStart(false) => ("\"{\"", "{".into()),
            Tok::RangeTo => ("\"TO\"", "TO".into()),
            Tok::RangeEnd(true) => ("\"]\"", "]".into()),
            Tok::RangeEnd(false) => ("\"}\"", "}".into()),
            Tok::RangeGoop(s) => ("<RANGE_GOOP>", s.clone()),
            Tok::RangeQuoted(s) => ("<RANGE_QUOTED>", format!("\"{s}\"")),
            Tok::Eof => return "\"<EOF>\"".into(),
        };
        format!("\" {kind} \"{image} \"\"")
    }
}

struct Spanned {
    tok: Tok,
    /// 0-based character offset where the token starts.
    col: usize,
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{3000}')
}

fn is_term_start(c: char) -> bool {
    !is_ws(c) && !"+-!():^[]\"{}~*?\\/".contains(c)
}

fn is_term_char(c: char) -> bool {
    is_term_start(c) || c == '-' || c == '+'
}

/// A group opened past [`super::MAX_NESTING`] (both query-string parsers recurse per group).
pub fn too_deep(col: usize) -> SyntaxError {
    SyntaxError {
        message: format!(
            "Encountered \"(\" at line 1, column {col}. Groups may nest at most {} deep.",
            super::MAX_NESTING
        ),
        lexical: false,
    }
}

/// JavaCC's `addEscapes`, as its lexical errors quote what they read.
fn java_escapes(s: &[char]) -> String {
    let mut out = String::new();
    for &c in s {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The lexer reaching the end inside a token (a quote, a regexp, an escape): `prefix` is what
/// it had read of the token, `state` its lexical state (2: the default one, 1: inside a range).
fn eof_inside(c: &[char], prefix: &[char], state: u8) -> SyntaxError {
    let after = if prefix.is_empty() {
        String::new()
    } else {
        format!(" after prefix \"{}\"", java_escapes(prefix))
    };
    SyntaxError {
        message: format!(
            "Lexical error at line 1, column {}.  Encountered: <EOF>{after} (in lexical state {state})",
            c.len() + 1
        ),
        lexical: true,
    }
}

/// The lexer meeting a character no token of its `state` takes (0: after `^`, 2: the default).
/// JavaCC's message quotes the character's code twice; a last character reads as the end.
fn bad_char(c: &[char], i: usize, state: u8) -> SyntaxError {
    let suffix = if state == 0 {
        String::new()
    } else {
        format!(" (in lexical state {state})")
    };
    let message = if i + 1 == c.len() {
        format!(
            "Lexical error at line 1, column {}.  Encountered: <EOF>{suffix}",
            c.len() + 1
        )
    } else {
        let code = u32::from(c[i]);
        format!(
            "Lexical error at line 1, column {}.  Encountered: '{code}' ({code}),{suffix}",
            i + 1
        )
    };
    SyntaxError {
        message,
        lexical: true,
    }
}

fn tokenize(q: &str) -> Result<Vec<Spanned>, SyntaxError> {
    let c: Vec<char> = q.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_range = false;
    let mut boost = false;
    while i < c.len() {
        let ch = c[i];
        // After `^` only a number may follow, not even a space.
        if is_ws(ch) && !boost {
            i += 1;
            continue;
        }
        let col = i;
        if in_range {
            // A quote never closed is no quoted bound: the lexer takes it as goop instead.
            let closed = ch == '"' && {
                let mut j = i + 1;
                while j < c.len() && c[j] != '"' {
                    j += if c[j] == '\\' { 2 } else { 1 };
                }
                j < c.len()
            };
            let tok = match ch {
                ']' | '}' => {
                    i += 1;
                    in_range = false;
                    Tok::RangeEnd(ch == ']')
                }
                '"' if closed => {
                    let mut s = String::new();
                    let start = i;
                    i += 1;
                    loop {
                        match c.get(i) {
                            None => return Err(eof_inside(&c, &c[start..], 1)),
                            Some('\\') if c.get(i + 1) == Some(&'"') => {
                                s.push('\\');
                                s.push('"');
                                i += 2;
                            }
                            Some('"') => {
                                i += 1;
                                break;
                            }
                            Some(x) => {
                                s.push(*x);
                                i += 1;
                            }
                        }
                    }
                    Tok::RangeQuoted(s)
                }
                _ => {
                    let start = i;
                    while i < c.len() && !matches!(c[i], ' ' | ']' | '}') {
                        i += 1;
                    }
                    let s: String = c[start..i].iter().collect();
                    if s == "TO" {
                        Tok::RangeTo
                    } else {
                        Tok::RangeGoop(s)
                    }
                }
            };
            out.push(Spanned { tok, col });
            continue;
        }
        if boost {
            boost = false;
            if ch.is_ascii_digit() {
                let start = i;
                while i < c.len() && c[i].is_ascii_digit() {
                    i += 1;
                }
                if c.get(i) == Some(&'.') && c.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                    while i < c.len() && c[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                out.push(Spanned {
                    tok: Tok::Number(c[start..i].iter().collect()),
                    col,
                });
                continue;
            }
            return Err(bad_char(&c, i, 0));
        }
        let tok = match ch {
            '(' => {
                i += 1;
                Tok::LParen
            }
            ')' => {
                i += 1;
                Tok::RParen
            }
            ':' => {
                i += 1;
                Tok::Colon
            }
            '^' => {
                i += 1;
                boost = true;
                Tok::Caret
            }
            '[' | '{' => {
                i += 1;
                in_range = true;
                Tok::RangeStart(ch == '[')
            }
            '+' | '-' | '!' => {
                i += 1;
                if c.get(i).is_some_and(|x| is_ws(*x)) {
                    Tok::BareOper(ch)
                } else if ch == '+' {
                    Tok::Plus
                } else if ch == '-' {
                    Tok::Minus
                } else {
                    Tok::Not
                }
            }
            '"' => {
                let mut s = String::new();
                let start = i;
                i += 1;
                loop {
                    match c.get(i) {
                        None => return Err(eof_inside(&c, &c[start..], 2)),
                        Some('\\') => match c.get(i + 1) {
                            Some(x) => {
                                s.push('\\');
                                s.push(*x);
                                i += 2;
                            }
                            None => return Err(eof_inside(&c, &c[start..], 2)),
                        },
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some(x) => {
                            s.push(*x);
                            i += 1;
                        }
                    }
                }
                Tok::Quoted(s)
            }
            '/' => {
                let mut s = String::new();
                let start = i;
                i += 1;
                loop {
                    match c.get(i) {
                        None => return Err(eof_inside(&c, &c[start..], 2)),
                        Some('\\') if c.get(i + 1) == Some(&'/') => {
                            s.push('\\');
                            s.push('/');
                            i += 2;
                        }
                        Some('/') => {
                            i += 1;
                            break;
                        }
                        Some(x) => {
                            s.push(*x);
                            i += 1;
                        }
                    }
                }
                Tok::Regexp(s)
            }
            '~' => {
                let start = i;
                i += 1;
                // Term characters and escapes (a backslash with a character after it: a last,
                // lone one is left to fail as the lexer fails on it).
                while i < c.len()
                    && (is_term_char(c[i]) || c[i] == '.' || (c[i] == '\\' && i + 1 < c.len()))
                {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                Tok::FuzzySlop(c[start..i.min(c.len())].iter().collect())
            }
            _ => {
                // A run of term characters, `*`/`?` wildcards and escapes.
                let start = i;
                let mut wild_q = false;
                let mut stars = Vec::new();
                while i < c.len() {
                    let x = c[i];
                    if x == '\\' {
                        if i + 1 >= c.len() {
                            // The lexer wants the escaped character; what it had read of the
                            // term is not quoted.
                            return Err(eof_inside(&c, &[], 2));
                        }
                        i += 2;
                    } else if x == '*' {
                        stars.push(i);
                        i += 1;
                    } else if x == '?' {
                        wild_q = true;
                        i += 1;
                    } else if (i == start && is_term_start(x)) || (i > start && is_term_char(x)) {
                        i += 1;
                    } else {
                        break;
                    }
                }
                if i == start {
                    return Err(bad_char(&c, i, 2));
                }
                let s: String = c[start..i].iter().collect();
                if s == "*" {
                    Tok::Star
                } else if !wild_q && stars.len() == 1 && stars[0] == i - 1 && start < i - 1 {
                    Tok::Prefix(s)
                } else if wild_q || !stars.is_empty() {
                    Tok::Wild(s)
                } else {
                    match s.as_str() {
                        "AND" | "&&" => Tok::And,
                        "OR" | "||" => Tok::Or,
                        "NOT" => Tok::Not,
                        _ => Tok::Term(s),
                    }
                }
            }
        };
        out.push(Spanned { tok, col });
    }
    out.push(Spanned {
        tok: Tok::Eof,
        col: c.len(),
    });
    Ok(out)
}

/// Removes Lucene escapes (`\x` → `x`, `\uXXXX` → the character).
pub fn unescape(s: &str) -> Result<String, SyntaxError> {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('u') => {
                let hex: String = (0..4).filter_map(|_| it.next()).collect();
                let code = u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)
                    .and_then(char::from_u32);
                match code {
                    Some(ch) => out.push(ch),
                    None => {
                        return Err(SyntaxError {
                            message: "Truncated unicode escape sequence.".into(),
                            lexical: false,
                        })
                    }
                }
            }
            Some(x) => out.push(x),
            None => {
                return Err(SyntaxError {
                    message: "Term can not end with escape character.".into(),
                    lexical: false,
                })
            }
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Conj {
    None,
    And,
    Or,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mods {
    None,
    Req,
    Not,
}

struct Parser {
    toks: Vec<Spanned>,
    i: usize,
    and_default: bool,
    /// Groups open around the current clause.
    depth: usize,
}

/// Parses a query string; `and_default` is `default_operator: AND`. `Ok(None)`: nothing left
/// (every clause empty).
pub fn parse(q: &str, and_default: bool) -> Result<Option<Node>, SyntaxError> {
    let toks = tokenize(q)?;
    let mut p = Parser {
        toks,
        i: 0,
        and_default,
        depth: 0,
    };
    let node = p.query(&None)?;
    if p.peek() != &Tok::Eof {
        // After a term at the top, JavaCC lists the end, what may modify the term and what may
        // follow it (as inside a group, but for the closing parenthesis).
        let after_term = |fuzzy: bool| -> Vec<&str> {
            std::iter::once("<EOF>")
                .chain(
                    AFTER_TERM_IN_GROUP
                        .iter()
                        .copied()
                        .filter(|e| *e != "\")\"" && (fuzzy || *e != "<FUZZY_SLOP>")),
                )
                .collect()
        };
        let expected = match p.i.checked_sub(1).map(|i| &p.toks[i].tok) {
            Some(Tok::Term(_) | Tok::Wild(_) | Tok::Prefix(_) | Tok::Quoted(_)) => after_term(true),
            Some(Tok::Regexp(_)) => after_term(false),
            _ => Vec::new(),
        };
        return Err(p.unexpected(&expected));
    }
    Ok(node)
}

/// What JavaCC lists where a clause must start (after a conjunction, at the start).
const CLAUSE_START: &[&str] = &[
    "<NOT>",
    "\"+\"",
    "\"-\"",
    "<BAREOPER>",
    "\"(\"",
    "\"*\"",
    "<QUOTED>",
    "<TERM>",
    "<PREFIXTERM>",
    "<WILDTERM>",
    "<REGEXPTERM>",
    "\"[\"",
    "\"{\"",
    "<NUMBER>",
    "<TERM>",
    "\"*\"",
];

/// What JavaCC lists after a term inside an unclosed group.
const AFTER_TERM_IN_GROUP: &[&str] = &[
    "<AND>",
    "<OR>",
    "<NOT>",
    "\"+\"",
    "\"-\"",
    "<BAREOPER>",
    "\"(\"",
    "\")\"",
    "\"*\"",
    "\"^\"",
    "<QUOTED>",
    "<TERM>",
    "<FUZZY_SLOP>",
    "<PREFIXTERM>",
    "<WILDTERM>",
    "<REGEXPTERM>",
    "\"[\"",
    "\"{\"",
    "<NUMBER>",
];

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn peek2(&self) -> &Tok {
        &self.toks[(self.i + 1).min(self.toks.len() - 1)].tok
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.i].tok.clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }

    fn unexpected(&self, expected: &[&str]) -> SyntaxError {
        let t = &self.toks[self.i];
        let mut message = format!(
            "Encountered {} at line 1, column {}.",
            t.tok.describe(),
            t.col
        );
        if !expected.is_empty() {
            message.push_str(if expected.len() == 1 {
                "\nWas expecting:\n"
            } else {
                "\nWas expecting one of:\n"
            });
            for e in expected {
                message.push_str("    ");
                message.push_str(e);
                // JavaCC names the end without the ellipsis of a token that may repeat.
                message.push_str(if *e == "<EOF>" { " \n" } else { " ...\n" });
            }
            message.push_str("    ");
        }
        SyntaxError {
            message,
            lexical: false,
        }
    }

    fn post_multi_term_ok(t: &Tok) -> bool {
        !matches!(
            t,
            Tok::Colon | Tok::Star | Tok::FuzzySlop(_) | Tok::Caret | Tok::And | Tok::Or
        )
    }

    fn at_multi_term(&self) -> bool {
        matches!(self.peek(), Tok::Term(_))
            && matches!(self.peek2(), Tok::Term(_))
            && Self::post_multi_term_ok(&self.toks[(self.i + 2).min(self.toks.len() - 1)].tok)
    }

    fn multi_term(&mut self) -> Result<String, SyntaxError> {
        let mut words = Vec::new();
        let Tok::Term(first) = self.next() else {
            unreachable!()
        };
        words.push(unescape(&first)?);
        while matches!(self.peek(), Tok::Term(_)) && Self::post_multi_term_ok(self.peek2()) {
            let Tok::Term(w) = self.next() else {
                unreachable!()
            };
            words.push(unescape(&w)?);
        }
        Ok(words.join(" "))
    }

    fn add_clause(
        &self,
        clauses: &mut Vec<(Occur, Node)>,
        conj: Conj,
        mods: Mods,
        q: Option<Node>,
    ) {
        if let Some((occur, _)) = clauses.last_mut() {
            if conj == Conj::And && *occur != Occur::MustNot {
                *occur = Occur::Must;
            }
            if self.and_default && conj == Conj::Or && *occur != Occur::MustNot {
                *occur = Occur::Should;
            }
        }
        let Some(q) = q else { return };
        let (required, prohibited) = if !self.and_default {
            let prohibited = mods == Mods::Not;
            let required = mods == Mods::Req || (conj == Conj::And && !prohibited);
            (required, prohibited)
        } else {
            let prohibited = mods == Mods::Not;
            (!prohibited && conj != Conj::Or, prohibited)
        };
        let occur = if required {
            Occur::Must
        } else if prohibited {
            Occur::MustNot
        } else {
            Occur::Should
        };
        clauses.push((occur, q));
    }

    fn conjunction(&mut self) -> Conj {
        match self.peek() {
            Tok::And => {
                self.next();
                Conj::And
            }
            Tok::Or => {
                self.next();
                Conj::Or
            }
            _ => Conj::None,
        }
    }

    fn modifiers(&mut self) -> Mods {
        match self.peek() {
            Tok::Plus => {
                self.next();
                Mods::Req
            }
            Tok::Minus | Tok::Not => {
                self.next();
                Mods::Not
            }
            _ => Mods::None,
        }
    }

    fn can_start_clause(t: &Tok) -> bool {
        matches!(
            t,
            Tok::Not
                | Tok::Plus
                | Tok::Minus
                | Tok::BareOper(_)
                | Tok::LParen
                | Tok::Star
                | Tok::Quoted(_)
                | Tok::Term(_)
                | Tok::Prefix(_)
                | Tok::Wild(_)
                | Tok::Regexp(_)
                | Tok::RangeStart(_)
                | Tok::Number(_)
        )
    }

    fn query(&mut self, field: &Option<String>) -> Result<Option<Node>, SyntaxError> {
        let mut clauses: Vec<(Occur, Node)> = Vec::new();
        let mut first: Option<Node> = None;
        if self.at_multi_term() {
            let text = self.multi_term()?;
            self.add_run(&mut clauses, field, text);
        } else {
            let mods = self.modifiers();
            let q = self.clause(field)?;
            if mods == Mods::None {
                first = q.clone();
            }
            self.add_clause(&mut clauses, Conj::None, mods, q);
        }
        loop {
            let t = self.peek();
            if !(Self::can_start_clause(t) || matches!(t, Tok::And | Tok::Or)) {
                break;
            }
            if self.at_multi_term() {
                let text = self.multi_term()?;
                self.add_run(&mut clauses, field, text);
            } else {
                let conj = self.conjunction();
                let mods = self.modifiers();
                let q = self.clause(field)?;
                self.add_clause(&mut clauses, conj, mods, q);
            }
        }
        if clauses.len() == 1 {
            if let Some(q) = first {
                return Ok(Some(q));
            }
        }
        Ok(boolean(clauses))
    }

    fn add_run(&self, clauses: &mut Vec<(Occur, Node)>, field: &Option<String>, text: String) {
        let occur = if self.and_default {
            Occur::Must
        } else {
            Occur::Should
        };
        clauses.push((
            occur,
            Node::Leaf {
                field: field.clone(),
                leaf: Leaf::Run(text),
            },
        ));
    }

    fn boost(&mut self) -> Result<Option<f32>, SyntaxError> {
        if self.peek() != &Tok::Caret {
            return Ok(None);
        }
        self.next();
        // The lexer lets only a number (or the end) follow `^`.
        match self.peek().clone() {
            Tok::Number(n) => {
                self.next();
                Ok(n.parse::<f32>().ok())
            }
            _ => Err(self.unexpected(&["<NUMBER>"])),
        }
    }

    fn clause(&mut self, field: &Option<String>) -> Result<Option<Node>, SyntaxError> {
        let mut field = field.clone();
        match (self.peek().clone(), self.peek2()) {
            (Tok::Term(f), Tok::Colon) => {
                self.next();
                self.next();
                field = Some(unescape(&f)?);
            }
            (Tok::Star, Tok::Colon) => {
                self.next();
                self.next();
                field = Some("*".into());
            }
            _ => {}
        }
        if self.peek() == &Tok::LParen {
            if self.depth == super::MAX_NESTING {
                return Err(too_deep(self.toks[self.i].col));
            }
            self.next();
            self.depth += 1;
            let q = self.query(&field);
            self.depth -= 1;
            let q = q?;
            if self.peek() != &Tok::RParen {
                return Err(self.unexpected(AFTER_TERM_IN_GROUP));
            }
            self.next();
            let b = self.boost()?;
            return Ok(match (q, b) {
                (Some(q), Some(b)) => Some(Node::Boost(Box::new(q), b)),
                (q, _) => q,
            });
        }
        self.term(field)
    }

    fn term(&mut self, field: Option<String>) -> Result<Option<Node>, SyntaxError> {
        let leaf = |leaf: Leaf| Node::Leaf {
            field: field.clone(),
            leaf,
        };
        let t = self.peek().clone();
        let node = match t {
            Tok::Term(_)
            | Tok::Star
            | Tok::Prefix(_)
            | Tok::Wild(_)
            | Tok::Regexp(_)
            | Tok::Number(_)
            | Tok::BareOper(_) => {
                self.next();
                let mut fuzzy: Option<String> = None;
                let mut boost = None;
                if self.peek() == &Tok::Caret {
                    boost = self.boost()?;
                    if let Tok::FuzzySlop(s) = self.peek().clone() {
                        self.next();
                        fuzzy = Some(s);
                    }
                } else if let Tok::FuzzySlop(s) = self.peek().clone() {
                    self.next();
                    fuzzy = Some(s);
                    boost = self.boost()?;
                }
                let l = match t {
                    Tok::Star => Leaf::Wildcard("*".into()),
                    Tok::Wild(s) => Leaf::Wildcard(s),
                    Tok::Prefix(s) => Leaf::Prefix(unescape(&s[..s.len() - 1])?),
                    Tok::Regexp(s) => Leaf::Regexp(s),
                    Tok::Term(s) | Tok::Number(s) => {
                        let text = unescape(&s)?;
                        match fuzzy {
                            Some(f) => Leaf::Fuzzy {
                                text,
                                fuzziness: (f.len() > 1).then(|| f[1..].to_string()),
                            },
                            None => Leaf::Text(text),
                        }
                    }
                    Tok::BareOper(c) => Leaf::Text(c.to_string()),
                    _ => unreachable!(),
                };
                with_boost(leaf(l), boost)
            }
            Tok::RangeStart(incl_lo) => {
                self.next();
                let end = |t: Tok| -> Result<Option<String>, SyntaxError> {
                    Ok(match t {
                        Tok::RangeGoop(s) if s == "*" => None,
                        Tok::RangeGoop(s) => Some(unescape(&s)?),
                        Tok::RangeQuoted(s) => Some(unescape(&s)?),
                        Tok::RangeTo => Some("TO".into()),
                        _ => unreachable!(),
                    })
                };
                let range_val =
                    |t: &Tok| matches!(t, Tok::RangeGoop(_) | Tok::RangeQuoted(_) | Tok::RangeTo);
                if !range_val(self.peek()) {
                    return Err(self.unexpected(&["<RANGE_QUOTED>", "<RANGE_GOOP>"]));
                }
                let lo = end(self.next())?;
                // `TO` between the bounds is required (a bound may itself read `TO`).
                if self.peek() != &Tok::RangeTo {
                    return Err(self.unexpected(&["\"TO\""]));
                }
                self.next();
                if !range_val(self.peek()) {
                    return Err(self.unexpected(&["\"TO\"", "<RANGE_QUOTED>", "<RANGE_GOOP>"]));
                }
                let hi = end(self.next())?;
                let Tok::RangeEnd(incl_hi) = self.peek().clone() else {
                    return Err(self.unexpected(&["\"]\"", "\"}\""]));
                };
                self.next();
                let boost = self.boost()?;
                with_boost(
                    leaf(Leaf::Range {
                        lo,
                        hi,
                        incl_lo,
                        incl_hi,
                    }),
                    boost,
                )
            }
            Tok::Quoted(s) => {
                self.next();
                let mut fuzzy: Option<String> = None;
                let mut boost = None;
                if self.peek() == &Tok::Caret {
                    boost = self.boost()?;
                    if let Tok::FuzzySlop(s) = self.peek().clone() {
                        self.next();
                        fuzzy = Some(s);
                    }
                } else if let Tok::FuzzySlop(s) = self.peek().clone() {
                    self.next();
                    fuzzy = Some(s);
                    boost = self.boost()?;
                }
                let slop = fuzzy.and_then(|f| f[1..].parse::<f32>().ok().map(|x| x as u32));
                with_boost(
                    leaf(Leaf::Phrase {
                        text: unescape(&s)?,
                        slop,
                    }),
                    boost,
                )
            }
            _ => return Err(self.unexpected(CLAUSE_START)),
        };
        Ok(Some(node))
    }
}

fn with_boost(n: Node, b: Option<f32>) -> Node {
    match b {
        Some(b) => Node::Boost(Box::new(n), b),
        None => n,
    }
}

/// Lucene's `getBooleanQuery` with OpenSearch's `fixNegativeQueryIfNeeded`: none when empty,
/// and a `match_all` filter beside clauses that are all prohibited.
fn boolean(mut clauses: Vec<(Occur, Node)>) -> Option<Node> {
    if clauses.is_empty() {
        return None;
    }
    if clauses.iter().all(|(o, _)| *o == Occur::MustNot) {
        clauses.push((
            Occur::Filter,
            Node::Leaf {
                field: None,
                leaf: Leaf::MatchAll,
            },
        ));
    }
    Some(Node::Bool(clauses))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(f: Option<&str>, l: Leaf) -> Node {
        Node::Leaf {
            field: f.map(String::from),
            leaf: l,
        }
    }

    fn text(s: &str) -> Node {
        leaf(None, Leaf::Text(s.into()))
    }

    fn occurs(q: &str, and: bool) -> Vec<Occur> {
        match parse(q, and).unwrap().unwrap() {
            Node::Bool(c) => c.into_iter().map(|(o, _)| o).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn boolean_rules() {
        use Occur::*;
        assert_eq!(occurs("a AND b OR c", false), vec![Must, Must, Should]);
        assert_eq!(occurs("a AND b OR c", true), vec![Must, Should, Should]);
        assert_eq!(occurs("a OR b AND c", false), vec![Should, Must, Must]);
        assert_eq!(occurs("a -b", true), vec![Must, MustNot]);
        assert_eq!(occurs("+a b -c", false), vec![Must, Should, MustNot]);
        assert_eq!(occurs("NOT a", false), vec![MustNot, Filter]);
        assert_eq!(occurs("a && b || !c", false), vec![Must, Must, MustNot]);
    }

    #[test]
    fn leaves() {
        assert_eq!(parse("quick", false).unwrap().unwrap(), text("quick"));
        assert_eq!(
            parse("quick brown fox", false).unwrap().unwrap(),
            Node::Bool(vec![(
                Occur::Should,
                leaf(None, Leaf::Run("quick brown fox".into()))
            )])
        );
        assert_eq!(
            parse("t:quick~1", false).unwrap().unwrap(),
            leaf(
                Some("t"),
                Leaf::Fuzzy {
                    text: "quick".into(),
                    fuzziness: Some("1".into())
                }
            )
        );
        assert_eq!(
            parse("\"a b\"~2^3", false).unwrap().unwrap(),
            Node::Boost(
                Box::new(leaf(
                    None,
                    Leaf::Phrase {
                        text: "a b".into(),
                        slop: Some(2)
                    }
                )),
                3.0
            )
        );
        assert_eq!(
            parse("age:[10 TO 20}", false).unwrap().unwrap(),
            leaf(
                Some("age"),
                Leaf::Range {
                    lo: Some("10".into()),
                    hi: Some("20".into()),
                    incl_lo: true,
                    incl_hi: false
                }
            )
        );
        assert_eq!(
            parse("qu?ck* ab* /x.z/", false).unwrap().unwrap(),
            Node::Bool(vec![
                (Occur::Should, leaf(None, Leaf::Wildcard("qu?ck*".into()))),
                (Occur::Should, leaf(None, Leaf::Prefix("ab".into()))),
                (Occur::Should, leaf(None, Leaf::Regexp("x.z".into()))),
            ])
        );
        assert_eq!(parse("2\\*3", false).unwrap().unwrap(), text("2*3"));
        assert_eq!(parse("wi-fi", false).unwrap().unwrap(), text("wi-fi"));
    }

    #[test]
    fn groups_nest_up_to_the_limit() {
        let nested = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(
            parse(&nested(crate::dsl::MAX_NESTING), false).unwrap(),
            Some(text("a"))
        );
        let e = parse(&nested(crate::dsl::MAX_NESTING + 1), false).unwrap_err();
        assert_eq!(
            e.message,
            "Encountered \"(\" at line 1, column 1000. Groups may nest at most 1000 deep."
        );
    }

    #[test]
    fn errors() {
        let e = parse("a AND", false).unwrap_err();
        assert!(
            e.message
                .starts_with("Encountered \"<EOF>\" at line 1, column 5."),
            "{}",
            e.message
        );
        let e = parse("heart(", false).unwrap_err();
        assert!(e.message.contains("column 6."), "{}", e.message);
        assert!(parse("(a", false).is_err());
        assert!(parse("a)", false).is_err());
        assert!(parse("a^", false).is_err());
        assert!(parse("[a to b]", false).is_err());
        assert!(parse("\"unclosed", false).unwrap_err().lexical);
        assert!(parse("date:2020-01-15T10:00", false).is_err());
    }

    /// Random strings over the syntax's operators and words parse or fail, never hang or panic.
    #[test]
    fn any_operator_soup_ends() {
        const PIECES: &[&str] = &[
            "a", "b", "f:", "*", "?", " ", "(", ")", "[", "]", "{", "}", "\"", "~", "~2", "^",
            "^2", "/", "\\", "+", "-", "!", "&&", "||", "AND", "OR", "NOT", "TO", ">", "<=", "=",
            ".", "2", "\t",
        ];
        let mut rng = crate::util::test_support::Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..20_000 {
            let _ = parse(&rng.soup(PIECES, 10), round % 2 == 0);
        }
    }
}
