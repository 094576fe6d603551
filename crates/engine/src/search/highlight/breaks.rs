//! The JDK's rule-based `BreakIterator`s (sentence and word, the `COMPAT` rules OpenSearch's
//! highlighters see through `java.text.BreakIterator`), over UTF-16 text as Java indexes it.
//!
//! Random access is the JDK's, not a lookup in one forward pass: `preceding`/`following` start a
//! forward run from the last break they returned when it lies before the offset, and otherwise
//! from a position found by backing up from the offset under the backward rules. A run from such
//! a position can find breaks a run from the text's start does not (a period is a safe place to
//! turn around, so a break can fall right before one), so the answers depend on the offset and on
//! the previous calls, and OpenSearch's fragments with them.

use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A general category test (`\p{..}`) through the regex crate's Unicode tables.
struct Categories {
    letter: Regex,
    lower: Regex,
    mark_or_format: Regex,
    enclosing: Regex,
    space_sep: Regex,
    start_punct: Regex,
    end_punct: Regex,
    number: Regex,
    dash_or_connector: Regex,
    currency: Regex,
    spacing_mark: Regex,
    format: Regex,
}

fn categories() -> &'static Categories {
    static C: OnceLock<Categories> = OnceLock::new();
    C.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("category regex");
        Categories {
            letter: re(r"^\p{L}$"),
            lower: re(r"^\p{Ll}$"),
            mark_or_format: re(r"^[\p{Mn}\p{Me}\p{Cf}]$"),
            enclosing: re(r"^[\p{Mn}\p{Me}]$"),
            space_sep: re(r"^\p{Zs}$"),
            start_punct: re(r"^[\p{Ps}\p{Pi}]$"),
            end_punct: re(r"^[\p{Pe}\p{Pf}]$"),
            number: re(r"^\p{N}$"),
            dash_or_connector: re(r"^[\p{Pd}\p{Pc}]$"),
            currency: re(r"^\p{Sc}$"),
            spacing_mark: re(r"^\p{Mc}$"),
            format: re(r"^\p{Cf}$"),
        }
    })
}

fn is(re: &Regex, c: char) -> bool {
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf))
}

/// The character at UTF-16 index `i` and its length in units (a lone surrogate stands alone).
pub fn char_at(text: &[u16], i: usize) -> (char, usize) {
    let u = text[i];
    if (0xD800..0xDC00).contains(&u)
        && i + 1 < text.len()
        && (0xDC00..0xE000).contains(&text[i + 1])
    {
        let c = 0x10000 + (((u as u32) - 0xD800) << 10) + ((text[i + 1] as u32) - 0xDC00);
        return (char::from_u32(c).unwrap_or('\u{FFFD}'), 2);
    }
    (char::from_u32(u as u32).unwrap_or('\u{FFFD}'), 1)
}

/// Java's `BreakIterator.preceding`/`following` (`None` for `DONE`), `offset` within the text.
pub trait BreakIterator {
    /// The last boundary before `offset`.
    fn preceding(&mut self, offset: usize) -> Option<usize>;
    /// The first boundary after `offset`.
    fn following(&mut self, offset: usize) -> Option<usize>;
}

/// Boundaries of one text, sorted, `0` and the length included: iterators whose random access
/// agrees with their forward pass.
#[derive(Debug, Clone)]
pub struct Boundaries(Vec<usize>);

impl BreakIterator for Boundaries {
    fn preceding(&mut self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|&b| b < offset);
        i.checked_sub(1).map(|i| self.0[i])
    }

    fn following(&mut self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|&b| b <= offset);
        self.0.get(i).copied()
    }
}

impl Boundaries {
    fn from_ends(mut ends: Vec<usize>, len: usize) -> Boundaries {
        ends.insert(0, 0);
        if *ends.last().unwrap_or(&0) != len {
            ends.push(len);
        }
        ends.dedup();
        Boundaries(ends)
    }
}

/// A JDK `RuleBasedBreakIterator` over one text (after `setText`).
pub struct RuleBased {
    rules: Rules,
    len: usize,
    /// The break the last call returned (the JDK's `cachedLastKnownBreak`).
    last_known: Option<usize>,
    /// Forward runs already made, by their start: calls mostly restart from the same breaks.
    runs: HashMap<usize, usize>,
}

enum Rules {
    Sentence(Sentences),
    Word(Words),
}

impl RuleBased {
    fn new(rules: Rules, len: usize) -> RuleBased {
        RuleBased {
            rules,
            len,
            last_known: None,
            runs: HashMap::new(),
        }
    }

    /// One forward run from `from` (`handleNext`): the first break after it.
    fn next_from(&mut self, from: usize) -> Option<usize> {
        if from >= self.len {
            return None;
        }
        if let Some(&b) = self.runs.get(&from) {
            return Some(b);
        }
        let b = match &self.rules {
            Rules::Sentence(r) => r.next_break(from),
            Rules::Word(r) => r.next_break(from),
        };
        self.runs.insert(from, b);
        Some(b)
    }

    /// Where the backward rules, reading from the character at `at` leftwards, say a forward run
    /// may start (`handlePrevious`).
    fn back_up(&self, at: usize) -> usize {
        match &self.rules {
            Rules::Sentence(r) => back_up(&r.all, self.len, at, SentenceBack::Fresh, |st, c| {
                st.step(c)
            }),
            // The state is the last character read (`None` before any).
            Rules::Word(r) => back_up(&r.all, self.len, at, None, |st: Option<Join>, c| match st {
                Some(b) if !Join::joined(c, b) => None,
                _ => Some(Some(c)),
            }),
        }
    }

    /// The start of the character before `offset` (`offset` > 0).
    fn char_before(&self, offset: usize) -> usize {
        fn before<C>(all: &[(usize, C)], offset: usize) -> usize {
            all[all.partition_point(|c| c.0 < offset) - 1].0
        }
        match &self.rules {
            Rules::Sentence(r) => before(&r.all, offset),
            Rules::Word(r) => before(&r.all, offset),
        }
    }

    /// Every boundary from the start, as `first()` and `next()` give them.
    #[cfg(test)]
    fn forward(&mut self) -> Vec<usize> {
        let mut out = vec![0];
        while let Some(b) = self.next_from(*out.last().expect("non-empty")) {
            out.push(b);
        }
        out
    }
}

impl BreakIterator for RuleBased {
    fn preceding(&mut self, offset: usize) -> Option<usize> {
        if offset == 0 {
            return None;
        }
        let mut last = match self.last_known {
            Some(b) if b < offset => b,
            _ => self.back_up(self.char_before(offset)),
        };
        let mut run = Some(last);
        while let Some(b) = run.filter(|&b| b < offset) {
            last = b;
            run = self.next_from(b);
        }
        self.last_known = Some(last);
        Some(last)
    }

    fn following(&mut self, offset: usize) -> Option<usize> {
        let run = if offset == 0 {
            self.next_from(0)
        } else {
            let mut run = Some(match self.last_known {
                Some(b) if b < offset => b,
                _ => self.back_up(offset),
            });
            while let Some(b) = run.filter(|&b| b <= offset) {
                run = self.next_from(b);
            }
            run
        };
        self.last_known = run;
        run
    }
}

/// `handlePrevious`: steps back from the character at `at` through `chars` (each character's
/// start and class, `None` for the ones the rules ignore) until `step` stops on a character;
/// the turning point is right after it (right at it when the character after it is ignored: the
/// JDK's off-by-one), or the text's start.
fn back_up<C: Copy, St: Copy>(
    chars: &[(usize, Option<C>)],
    len: usize,
    at: usize,
    start: St,
    step: impl Fn(St, C) -> Option<St>,
) -> usize {
    let mut i = chars.partition_point(|c| c.0 < at);
    if i == chars.len() {
        return len;
    }
    let mut state = start;
    let mut ignored = (false, false);
    loop {
        let (_, class) = chars[i];
        ignored = (ignored.1, class.is_none());
        let stop = match class {
            Some(c) => match step(state, c) {
                Some(s) => {
                    state = s;
                    false
                }
                None => true,
            },
            None => false,
        };
        if i == 0 {
            return 0;
        }
        i -= 1;
        if stop {
            break;
        }
    }
    if ignored.0 {
        chars[i + 1].0
    } else {
        chars.get(i + 2).map_or(len, |c| c.0)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum S {
    Ignore,
    Letter {
        lower: bool,
    },
    Space,
    /// A quote: starting and ending punctuation at once.
    Quote,
    Start,
    End,
    Digit,
    Term,
    Period,
    Comma,
    Paragraph,
    Danda,
    /// Anything else (`<sent-start>`).
    Other,
}

fn sentence_class(c: char) -> S {
    match c {
        '"' | '\'' => return S::Quote,
        '!' | '?' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}' => return S::Term,
        '.' | '\u{ff0e}' => return S::Period,
        ',' => return S::Comma,
        '\u{2029}' => return S::Paragraph,
        '\u{0964}' | '\u{0965}' => return S::Danda,
        '\t' | '\r' | '\n' | '\u{0C}' | '\u{2028}' | ' ' => return S::Space,
        _ => {}
    }
    if c.is_ascii_alphabetic() {
        return S::Letter {
            lower: c.is_ascii_lowercase(),
        };
    }
    if c.is_ascii_digit() {
        return S::Digit;
    }
    if c.is_ascii() {
        return match c {
            '(' | '[' | '{' => S::Start,
            ')' | ']' | '}' => S::End,
            c if c.is_ascii_control() && c != '\u{0}' => S::Other,
            _ => S::Other,
        };
    }
    let k = categories();
    if is(&k.mark_or_format, c) {
        S::Ignore
    } else if is(&k.letter, c) {
        S::Letter {
            lower: is(&k.lower, c),
        }
    } else if is(&k.space_sep, c) {
        S::Space
    } else if is(&k.start_punct, c) {
        S::Start
    } else if is(&k.end_punct, c) {
        S::End
    } else if is(&k.number, c) {
        S::Digit
    } else {
        S::Other
    }
}

/// The sentence iterator (`BreakIterator.getSentenceInstance`).
pub fn sentences(text: &[u16]) -> RuleBased {
    let mut all = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let (c, n) = char_at(text, i);
        let s = sentence_class(c);
        all.push((i, (s != S::Ignore).then_some(s)));
        i += n;
    }
    let len = text.len();
    RuleBased::new(Rules::Sentence(Sentences { all, len }), len)
}

/// A text's characters under the sentence rules.
struct Sentences {
    /// Each character's start and class, `None` for marks and format characters (transparent).
    all: Vec<(usize, Option<S>)>,
    len: usize,
}

impl Sentences {
    /// One forward run (`handleNext`): every character read while inside a sentence moves the
    /// break after it; a period saves the position after it (and after following spaces) as a
    /// candidate that a letter confirms; the run ends where no rule can go on, at the last
    /// break moved to. So a period whose candidate dies (a period, spaces, a symbol and a space)
    /// leaves the break right before it.
    fn next_break(&self, from: usize) -> usize {
        let all = &self.all;
        let mut i = all.partition_point(|c| c.0 < from);
        let after = |i: usize| all.get(i + 1).map_or(self.len, |c| c.0);
        let mut at = Forward::Scan;
        let mut result = after(i);
        let mut candidate = None;
        while i < all.len() {
            if let Some(c) = all[i].1 {
                match at.next(c) {
                    Some(s) => at = s,
                    None => return result,
                }
            }
            match at {
                Forward::Confirmed => result = candidate.unwrap_or(result),
                Forward::Period
                | Forward::PeriodSpace
                | Forward::PeriodSpaces
                | Forward::PeriodQuote => candidate = Some(after(i)),
                Forward::Opener | Forward::OpenerStrict => {}
                _ => result = after(i),
            }
            i += 1;
        }
        // A candidate at the text's end needs no letter.
        if candidate == Some(self.len) {
            self.len
        } else {
            result
        }
    }
}

/// Where a forward run of the sentence rules stands. Their source's rules: a break after a
/// paragraph separator; after a danda and spaces; after `!`/`?` (with following terminators,
/// periods, closing punctuation and spaces, and one paragraph separator); after a period (with
/// more periods and closing punctuation) and spaces before a letter that is not lower case, or
/// before opening punctuation or symbols and a letter. The compiled rules, which these states
/// follow, also take two spaces before a lower-case letter, and a quote after a period both
/// ways.
#[derive(Clone, Copy, PartialEq)]
enum Forward {
    /// Inside a sentence.
    Scan,
    /// After a paragraph separator.
    Paragraph,
    /// After a danda and spaces.
    Danda,
    /// After a period (and more periods or closing punctuation).
    Period,
    PeriodSpace,
    /// After a period and two or more spaces: any letter confirms.
    PeriodSpaces,
    /// After a period and a quote, closing or opening.
    PeriodQuote,
    /// After a period, at most one space and opening punctuation or symbols.
    Opener,
    /// After a period, two spaces or a quote, and opening punctuation or a symbol: only a
    /// letter or more of these may follow.
    OpenerStrict,
    /// A letter confirmed the period's break.
    Confirmed,
    /// After a terminator (and more terminators, periods or closing punctuation).
    Term,
    TermSpaces,
}

impl Forward {
    fn next(self, c: S) -> Option<Forward> {
        use Forward::*;
        let letter = matches!(c, S::Letter { .. });
        let opener = matches!(c, S::Start | S::Other | S::Danda);
        Some(match (self, c) {
            (Paragraph | Confirmed, _) => return None,
            (Danda, S::Space) => Danda,
            (Danda, _) => return None,
            (Term | TermSpaces, S::Paragraph) => Paragraph,
            (Term | TermSpaces, S::Space) => TermSpaces,
            (Term, S::Period | S::Quote | S::Term | S::End) => Term,
            (Term | TermSpaces, _) => return None,
            (OpenerStrict, _) if letter => Confirmed,
            (OpenerStrict, _) if opener || c == S::Quote => Opener,
            (OpenerStrict, _) => return None,
            (_, S::Paragraph) => Paragraph,
            (_, S::Term) => Term,
            (_, S::Period) => Period,
            (Scan, S::Danda) => Danda,
            (Scan, _) => Scan,
            // Past this point: after a period.
            (_, S::Comma | S::Digit) => Scan,
            (Period, S::End) => Period,
            (Period, S::Quote) | (PeriodQuote, S::Quote) => PeriodQuote,
            (Period, S::Space) | (PeriodQuote, S::Space) => PeriodSpace,
            (Period, _) if opener => Opener,
            (Period, _) => Scan,
            (PeriodQuote, S::End) => Period,
            (PeriodQuote | PeriodSpaces, _) if opener || c == S::Quote => OpenerStrict,
            (PeriodSpace | Opener, _) if opener || c == S::Quote => Opener,
            (PeriodSpace | PeriodSpaces, S::Space) => PeriodSpaces,
            (PeriodSpace, S::Letter { lower: false }) => Confirmed,
            (PeriodSpaces | PeriodQuote | Opener, _) if letter => Confirmed,
            _ => Scan,
        })
    }
}

/// Where the sentence iterator stands when backing up. The backward rules read right to left
/// `<sent-start><start-punctuation>*<space>*<end>*<period>` and
/// `[<sent-start><lc><digit>]<start-punctuation>*<space>*<end>*<term>` (a turning point right
/// after the period or terminator), and otherwise stop at a pair of characters the forward
/// rules always break between: after a paragraph separator, and after a terminator before a
/// comma, opening punctuation or a letter that is not lower case.
#[derive(Clone, Copy)]
enum SentenceBack {
    Fresh,
    /// Only a paragraph separator before the last character read stops.
    Loose,
    /// A paragraph separator or a terminator before it stops.
    Tight,
    /// Inside a backward rule; `period`: the first one (after a symbol) is still possible.
    Rule {
        period: bool,
        phase: Phase,
    },
    /// A backward rule matched: whatever comes before stops.
    Matched,
}

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Opening,
    Spaces,
    Closing,
}

impl SentenceBack {
    /// Reading `c` with no rule under way.
    fn fresh(c: S) -> SentenceBack {
        match c {
            S::Letter { lower: true } | S::Digit => SentenceBack::Rule {
                period: false,
                phase: Phase::Opening,
            },
            S::Other | S::Danda => SentenceBack::Rule {
                period: true,
                phase: Phase::Opening,
            },
            S::Comma | S::Letter { lower: false } | S::Start => SentenceBack::Tight,
            _ => SentenceBack::Loose,
        }
    }

    fn step(self, c: S) -> Option<SentenceBack> {
        match self {
            SentenceBack::Fresh => Some(Self::fresh(c)),
            SentenceBack::Matched => None,
            SentenceBack::Loose if c == S::Paragraph => None,
            SentenceBack::Tight if matches!(c, S::Paragraph | S::Term) => None,
            SentenceBack::Loose | SentenceBack::Tight => Some(Self::fresh(c)),
            SentenceBack::Rule { period, phase } => {
                let to = |phase| Some(SentenceBack::Rule { period, phase });
                match (c, phase) {
                    (S::Term, _) => Some(SentenceBack::Matched),
                    (S::Period, _) if period => Some(SentenceBack::Matched),
                    (S::Start | S::Quote, Phase::Opening) => to(Phase::Opening),
                    (S::Space, Phase::Opening | Phase::Spaces) => to(Phase::Spaces),
                    (S::End | S::Quote, _) => to(Phase::Closing),
                    _ => Some(Self::fresh(c)),
                }
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum W {
    Letter,
    Digit,
    /// Punctuation allowed inside words only (`-`, `_`).
    MidWord,
    /// `.`, `'`, `"`: inside words and numbers, and `.` before a number.
    MidBoth,
    /// `,`: inside numbers.
    MidNum,
    PreNum,
    PostNum,
    LineSep,
    Cr,
    Space,
    Enclosing,
    Kanji,
    Kata,
    Hira,
    CjkDiacritic,
    Danda,
    Other,
}

fn word_class(c: char) -> W {
    match c {
        '.' => return W::MidBoth,
        '\'' | '"' => return W::MidBoth,
        ',' | '\u{066b}' => return W::MidNum,
        '-' | '_' | '\u{00ad}' | '\u{2027}' => return W::MidWord,
        '#' | '$' => return W::PreNum,
        '%' | '&' | '\u{00a2}' | '\u{066a}' | '\u{2030}' | '\u{2031}' => return W::PostNum,
        '\n' | '\u{0C}' | '\u{2028}' | '\u{2029}' => return W::LineSep,
        '\r' => return W::Cr,
        '\t' | ' ' => return W::Space,
        '\u{0964}' | '\u{0965}' => return W::Danda,
        '\u{3005}' | '\u{4e00}'..='\u{9fa5}' | '\u{f900}'..='\u{fa2d}' => return W::Kanji,
        '\u{30a1}'..='\u{30fa}' | '\u{30fd}' | '\u{30fe}' => return W::Kata,
        '\u{3041}'..='\u{3094}' | '\u{309d}' | '\u{309e}' => return W::Hira,
        '\u{3099}'..='\u{309c}' | '\u{30fb}' | '\u{30fc}' => return W::CjkDiacritic,
        _ => {}
    }
    if c.is_ascii_alphabetic() {
        return W::Letter;
    }
    if c.is_ascii_digit() {
        return W::Digit;
    }
    if c.is_ascii() {
        return W::Other;
    }
    let k = categories();
    if is(&k.letter, c) || is(&k.spacing_mark, c) {
        W::Letter
    } else if is(&k.number, c) {
        W::Digit
    } else if is(&k.enclosing, c) {
        W::Enclosing
    } else if is(&k.dash_or_connector, c) {
        W::MidWord
    } else if is(&k.currency, c) {
        W::PreNum
    } else if is(&k.space_sep, c) {
        W::Space
    } else {
        W::Other
    }
}

/// The word iterator (`BreakIterator.getWordInstance`).
pub fn words(text: &[u16]) -> RuleBased {
    let mut all = Vec::with_capacity(text.len());
    let mut kept = Vec::with_capacity(text.len());
    let mut i = 0;
    let k = categories();
    while i < text.len() {
        let (c, n) = char_at(text, i);
        if c as u32 >= 0x80 && c != '\u{00ad}' && is(&k.format, c) {
            all.push((i, None));
        } else {
            let w = word_class(c);
            all.push((i, Some(Join::of(c, w))));
            kept.push((i, w));
        }
        i += n;
    }
    let words = Words {
        all,
        kept,
        text: text.to_vec(),
    };
    RuleBased::new(Rules::Word(words), text.len())
}

/// A text's characters under the word rules.
struct Words {
    /// Each character's start and class, `None` for format characters (transparent).
    all: Vec<(usize, Option<Join>)>,
    /// The characters the rules see.
    kept: Vec<(usize, W)>,
    /// The text (a period is the one inner punctuation that may also start a number).
    text: Vec<u16>,
}

impl Words {
    /// The forward rules: runs of letters and digits (joined by single inner punctuation),
    /// numbers with a currency or `#` before and `%` after, runs of spaces with one trailing line
    /// separator, runs of kana or kanji; anything else alone.
    fn next_break(&self, from: usize) -> usize {
        let cls = &self.kept;
        let text = &self.text;
        let text_len = text.len();
        let at = |j: usize| cls.get(j).map(|x| x.1);
        let pos = |j: usize| cls.get(j).map_or(text_len, |x| x.0);
        let skip_enclosing = |mut j: usize| {
            while at(j) == Some(W::Enclosing) {
                j += 1;
            }
            j
        };
        // One run of letters (`let`) joined by single inner punctuation; returns its end.
        let word = |mut j: usize| {
            while at(j) == Some(W::Letter) {
                j = skip_enclosing(j + 1);
            }
            while matches!(at(j), Some(W::MidWord | W::MidBoth)) && at(j + 1) == Some(W::Letter) {
                j += 1;
                while at(j) == Some(W::Letter) {
                    j = skip_enclosing(j + 1);
                }
            }
            if at(j) == Some(W::Danda) {
                j += 1;
            }
            j
        };
        let number = |mut j: usize| {
            while at(j) == Some(W::Digit) {
                j = skip_enclosing(j + 1);
            }
            while matches!(at(j), Some(W::MidNum | W::MidBoth)) && at(j + 1) == Some(W::Digit) {
                j += 1;
                while at(j) == Some(W::Digit) {
                    j = skip_enclosing(j + 1);
                }
            }
            j
        };
        // Words and numbers alternating; a number may end with a suffix.
        let alternation = |mut j: usize| loop {
            match at(j) {
                Some(W::Letter) => j = word(j),
                Some(W::Digit) => {
                    j = number(j);
                    if at(j) == Some(W::PostNum) {
                        return j + 1;
                    }
                }
                _ => return j,
            }
        };
        let j = cls.partition_point(|c| c.0 < from);
        if j == cls.len() {
            return text_len;
        }
        let next = match cls[j].1 {
            W::Letter | W::Digit => alternation(j),
            W::PreNum | W::MidBoth if cls[j].1 == W::PreNum || text[cls[j].0] == b'.' as u16 => {
                if at(j + 1) == Some(W::Digit) {
                    alternation(j + 1)
                } else {
                    j + 1
                }
            }
            W::Space | W::Cr | W::LineSep => {
                let mut m = j;
                while at(m) == Some(W::Space) {
                    m = skip_enclosing(m + 1);
                }
                if at(m) == Some(W::Cr) {
                    m += 1;
                }
                if at(m) == Some(W::LineSep) {
                    m += 1;
                }
                m.max(j + 1)
            }
            W::Kata | W::Hira | W::Kanji | W::CjkDiacritic => {
                let first = cls[j].1;
                let mut m = j;
                while let Some(c) = at(m) {
                    let same = match first {
                        W::Kanji => c == W::Kanji,
                        W::Kata => c == W::Kata || c == W::CjkDiacritic,
                        W::Hira => c == W::Hira || c == W::CjkDiacritic,
                        _ => c == W::CjkDiacritic || c == W::Kata,
                    };
                    if !same {
                        break;
                    }
                    m += 1;
                }
                m.max(j + 1)
            }
            _ => skip_enclosing(j + 1),
        };
        pos(next)
    }
}

/// A character's part in the word rules, for backing up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Join {
    Letter,
    Digit,
    /// `.`, `'`, `"`.
    MidBoth,
    /// Dashes and connectors.
    MidWord,
    /// A format character, unlike the others of its kind not ignored.
    SoftHyphen,
    MidNum,
    PreNum,
    PostNum,
    Danda,
    Space,
    /// A space that is a control character (no base for a mark).
    Tab,
    Cr,
    LineSep,
    Enclosing,
    /// The combining kana voicing marks: marks and kana diacritics at once.
    VoicingMark,
    KanaMark,
    Kanji,
    Kata,
    Hira,
    Control,
    Other,
}

impl Join {
    fn of(c: char, w: W) -> Join {
        match w {
            W::Letter => Join::Letter,
            W::Digit => Join::Digit,
            W::MidBoth => Join::MidBoth,
            W::MidWord if c == '\u{00ad}' => Join::SoftHyphen,
            W::MidWord => Join::MidWord,
            W::MidNum => Join::MidNum,
            W::PreNum => Join::PreNum,
            W::PostNum => Join::PostNum,
            W::Danda => Join::Danda,
            W::Space if c == '\t' => Join::Tab,
            W::Space => Join::Space,
            W::Cr => Join::Cr,
            W::LineSep => Join::LineSep,
            W::Enclosing => Join::Enclosing,
            W::CjkDiacritic if matches!(c, '\u{3099}' | '\u{309a}') => Join::VoicingMark,
            W::CjkDiacritic => Join::KanaMark,
            W::Kanji => Join::Kanji,
            W::Kata => Join::Kata,
            W::Hira => Join::Hira,
            W::Other if c.is_control() => Join::Control,
            W::Other => Join::Other,
        }
    }

    /// Whether some word rule keeps `a` and the `b` right after it together. The word rules
    /// have no backward rules of their own: backing up stops at the first pair no rule joins.
    fn joined(a: Join, b: Join) -> bool {
        use Join::*;
        // A mark continues whatever its base continues.
        let mark = matches!(a, Enclosing | VoicingMark);
        match b {
            // Any base character, a space or another mark takes a mark.
            Enclosing | VoicingMark => !matches!(a, Control | Cr | LineSep | SoftHyphen),
            // Letters inside words, after inner punctuation, after a number.
            Letter => mark || matches!(a, Letter | Digit | MidBoth | MidWord | SoftHyphen),
            // Digits inside numbers, after inner punctuation or a prefix, after a word.
            Digit => mark || matches!(a, Digit | Letter | Danda | MidBoth | MidNum | PreNum),
            MidBoth => mark || matches!(a, Letter | Digit),
            MidWord | SoftHyphen | Danda => mark || a == Letter,
            MidNum | PostNum => mark || a == Digit,
            // Runs of spaces, then an optional CR and line separator.
            Space | Tab | Cr => mark || matches!(a, Space | Tab),
            LineSep => mark || matches!(a, Space | Tab | Cr),
            Kanji => a == Kanji,
            Kata => matches!(a, Kata | KanaMark | VoicingMark),
            Hira => matches!(a, Hira | KanaMark | VoicingMark),
            KanaMark => matches!(a, Kata | Hira | KanaMark | VoicingMark),
            PreNum | Control | Other => false,
        }
    }
}

/// Boundaries right after each `sep` (Lucene's `CustomSeparatorBreakIterator`).
pub fn separators(text: &[u16], sep: u16) -> Boundaries {
    let ends = text
        .iter()
        .enumerate()
        .filter(|(_, &u)| u == sep)
        .map(|(i, _)| i + 1)
        .collect();
    Boundaries::from_ends(ends, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(mut b: RuleBased, s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        b.forward()
            .windows(2)
            .map(|w| String::from_utf16_lossy(&u[w[0]..w[1]]))
            .collect()
    }

    fn sents(s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        split(sentences(&u), s)
    }

    fn ws(s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        split(words(&u), s)
    }

    #[test]
    fn sentence_rules() {
        assert_eq!(
            sents("Lots of gems. angrydd is. Who knows? me"),
            ["Lots of gems. angrydd is. ", "Who knows? ", "me"]
        );
        assert_eq!(
            sents("0 A.D. (pronounced x) y"),
            ["0 A.D. ", "(pronounced x) y"]
        );
        assert_eq!(sents("task.\n\nComputer"), ["task.\n\n", "Computer"]);
        assert_eq!(
            sents("version 1.0 is out. 2 more"),
            ["version 1.0 is out. 2 more"]
        );
        assert_eq!(sents("a zz.  bb. \nc.  9"), ["a zz.  ", "bb. \n", "c.  9"]);
    }

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    // The expected values of the tests below were produced by JDK 17's
    // `BreakIterator.getSentenceInstance(Locale.ROOT)` (`getWordInstance` for words), each
    // sequence of calls on one iterator after `setText`.

    #[test]
    fn sentence_random_access_backs_up() {
        // From a mail in the spam-assassin corpus: backing up from `> s` turns around right
        // before the second period, and the run from there passes the offset without a break.
        let t = units("kernel DRI version..\n> something) and Ive just made dummy packages. Fine");
        assert_eq!(sentences(&t).forward(), [0, 68, 72]);
        let mut it = sentences(&t);
        assert_eq!(it.preceding(24), Some(19));
        assert_eq!(it.following(20), Some(68));
        assert_eq!(it.preceding(40), Some(19));

        let t = units("It works. (see above) Yes it does... > no. Ok! fine");
        assert_eq!(sentences(&t).forward(), [0, 10, 43, 47, 51]);
        let mut it = sentences(&t);
        assert_eq!(it.preceding(38), Some(35));
        assert_eq!(it.following(36), Some(43));
        assert_eq!(it.preceding(44), Some(43));
    }

    #[test]
    fn sentence_random_access_remembers_the_last_break() {
        // A run starts from the last break returned when it lies before the offset.
        let t = units("kernel DRI version..\n> something) and Ive just made dummy packages. Fine");
        let mut it = sentences(&t);
        assert_eq!(it.preceding(1), Some(0));
        assert_eq!(it.preceding(24), Some(0));

        let t = units("It works. (see above) Yes it does... > no. Ok! fine");
        let mut it = sentences(&t);
        assert_eq!(it.following(0), Some(10));
        assert_eq!(it.preceding(38), Some(10));
        assert_eq!(it.following(9), Some(10));
        assert_eq!(it.following(43), Some(47));

        let t = units("Fixed it. > Quoted text here. And then... more. End");
        assert_eq!(sentences(&t).forward(), [0, 30, 48, 51]);
        let mut it = sentences(&t);
        assert_eq!(it.preceding(11), Some(8));
        assert_eq!(it.following(8), Some(30));
        assert_eq!(it.following(9), Some(30));
        assert_eq!(it.preceding(1), Some(0));
        assert_eq!(it.preceding(11), Some(0));
        assert_eq!(it.following(40), Some(48));
    }

    #[test]
    fn sentence_break_before_a_period_whose_candidate_dies() {
        // After `bloat.` and spaces a symbol and a space end the run: the break stays before
        // the period, and the period is a sentence of its own.
        let t = units("blah.  The FUD, talk\nabout 20x bloat.\n\n> Again, see above... they");
        assert_eq!(sentences(&t).forward(), [0, 7, 36, 37, 65]);
        let mut it = sentences(&t);
        assert_eq!(it.preceding(37), Some(36));
        assert_eq!(it.following(36), Some(37));
        assert_eq!(it.preceding(40), Some(37));
    }

    #[test]
    fn word_random_access() {
        let t = units("e.g. $5, 10%");
        let mut it = words(&t);
        assert_eq!(it.preceding(3), Some(0));
        assert_eq!(it.following(3), Some(4));
        assert_eq!(it.preceding(7), Some(5));
        assert_eq!(it.following(0), Some(3));
    }

    #[test]
    fn word_rules() {
        assert_eq!(ws("state-of-the-art 3D"), ["state-of-the-art", " ", "3D"]);
        assert_eq!(ws("e.g. $5, 10%"), ["e.g", ".", " ", "$5", ",", " ", "10%"]);
        assert_eq!(ws("a \n\nb"), ["a", " \n", "\n", "b"]);
    }
}
