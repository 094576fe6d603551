//! Martin Porter's stemming algorithm as Lucene's `PorterStemFilter` runs it: the reference
//! implementation, so words of one or two letters are left alone, `bli` → `ble` and
//! `logi` → `log` in step 2. Only `aeiou` (and `y` after a consonant) are vowels.

pub fn stem(word: &str) -> Option<String> {
    let mut s = word.to_string();
    stem_in_place(&mut s).then_some(s)
}

thread_local! {
    static BUF: std::cell::RefCell<Vec<char>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What the stemmer works on: ASCII bytes (the common case, stemmed in the string's own
/// buffer without copying) or chars.
trait Unit: Copy + Eq {
    fn ch(self) -> char;
    fn ascii(b: u8) -> Self;
}

impl Unit for u8 {
    #[inline]
    fn ch(self) -> char {
        self as char
    }
    #[inline]
    fn ascii(b: u8) -> u8 {
        b
    }
}

impl Unit for char {
    #[inline]
    fn ch(self) -> char {
        self
    }
    #[inline]
    fn ascii(b: u8) -> char {
        b as char
    }
}

/// Stems `word` in place; whether it changed.
pub fn stem_in_place(word: &mut String) -> bool {
    if word.len() <= 2 {
        return false;
    }
    if word.is_ascii() {
        // The stemmer only removes bytes and writes ASCII letters: the bytes stay UTF-8, and
        // the buffer moves out and back without copying.
        let mut b = std::mem::take(word).into_bytes();
        let changed = stem_chars(&mut b);
        *word = String::from_utf8(b).expect("ASCII stays UTF-8");
        return changed;
    }
    BUF.with(|buf| {
        let mut b = buf.borrow_mut();
        b.clear();
        b.extend(word.chars());
        let changed = stem_chars(&mut b);
        if changed {
            word.clear();
            word.extend(b.iter());
        }
        changed
    })
}

fn stem_chars<U: Unit>(b: &mut Vec<U>) -> bool {
    if b.len() <= 2 {
        return false;
    }
    let before = b.len();
    let pad = U::ascii(b' ');
    let orig_tail: [U; 4] =
        std::array::from_fn(|i| b.get(before.saturating_sub(4) + i).copied().unwrap_or(pad));
    let mut p = Porter {
        b,
        k: 0,
        j: 0,
        mask: 0,
        fast: false,
    };
    p.remask();
    p.k = p.b.len() - 1;
    p.step1ab();
    if p.k > 0 {
        p.step1c();
        p.step2();
        p.step3();
        p.step4();
        p.step5();
    }
    let k = p.k;
    b.truncate(k + 1);
    let after: [U; 4] =
        std::array::from_fn(|i| b.get(b.len().saturating_sub(4) + i).copied().unwrap_or(pad));
    b.len() != before || after != orig_tail
}

struct Porter<'a, U: Unit> {
    b: &'a mut Vec<U>,
    k: usize,
    j: usize,
    /// Bit i set when b[i] is a consonant, for words of at most 64 units (`fast`); the
    /// measure, vowel and cvc tests are then bit operations instead of scans.
    mask: u64,
    fast: bool,
}

/// Bits 0..=j.
#[inline]
fn upto(j: usize) -> u64 {
    if j == usize::MAX {
        0
    } else if j >= 63 {
        u64::MAX
    } else {
        (1u64 << (j + 1)) - 1
    }
}

impl<U: Unit> Porter<'_, U> {
    /// Recomputes the consonant mask after the buffer's letters changed.
    fn remask(&mut self) {
        self.fast = self.b.len() <= 64;
        if !self.fast {
            return;
        }
        let mut mask = 0u64;
        let mut prev_cons = false;
        for (i, u) in self.b.iter().enumerate() {
            let c = match u.ch() {
                'a' | 'e' | 'i' | 'o' | 'u' => false,
                'y' => i == 0 || !prev_cons,
                _ => true,
            };
            mask |= (c as u64) << i;
            prev_cons = c;
        }
        self.mask = mask;
    }

    #[inline]
    fn cons(&self, i: usize) -> bool {
        if self.fast {
            return (self.mask >> i) & 1 == 1;
        }
        self.cons_slow(i)
    }

    fn cons_slow(&self, i: usize) -> bool {
        match self.b[i].ch() {
            'a' | 'e' | 'i' | 'o' | 'u' => false,
            'y' => i == 0 || !self.cons_slow(i - 1),
            _ => true,
        }
    }

    /// The number of consonant-vowel sequences in b[0..=j]: the vowel-to-consonant steps.
    #[inline]
    fn m(&self) -> usize {
        if self.fast {
            let vc = self.mask & !(self.mask << 1) & !1;
            return (vc & upto(self.j)).count_ones() as usize;
        }
        self.m_slow()
    }

    fn m_slow(&self) -> usize {
        let j = self.j as isize;
        let mut n = 0;
        let mut i: isize = 0;
        loop {
            if i > j {
                return n;
            }
            if !self.cons(i as usize) {
                break;
            }
            i += 1;
        }
        i += 1;
        loop {
            loop {
                if i > j {
                    return n;
                }
                if self.cons(i as usize) {
                    break;
                }
                i += 1;
            }
            i += 1;
            n += 1;
            loop {
                if i > j {
                    return n;
                }
                if !self.cons(i as usize) {
                    break;
                }
                i += 1;
            }
            i += 1;
        }
    }

    fn vowel_in_stem(&self) -> bool {
        if self.fast {
            return !self.mask & upto(self.j) != 0;
        }
        (0..=self.j).any(|i| !self.cons(i))
    }

    fn doublec(&self, j: usize) -> bool {
        j >= 1 && self.b[j] == self.b[j - 1] && self.cons(j)
    }

    fn cvc(&self, i: usize) -> bool {
        if i < 2 || !self.cons(i) || self.cons(i - 1) || !self.cons(i - 2) {
            return false;
        }
        !matches!(self.b[i].ch(), 'w' | 'x' | 'y')
    }

    fn ends(&mut self, s: &str) -> bool {
        let len = s.len();
        if len > self.k + 1 {
            return false;
        }
        let start = self.k + 1 - len;
        if !s
            .bytes()
            .zip(&self.b[start..=self.k])
            .all(|(a, &b)| U::ascii(a) == b)
        {
            return false;
        }
        // j may be "-1" when the whole word is the suffix; wrapping keeps m()/vowel checks empty.
        self.j = start.wrapping_sub(1);
        true
    }

    fn setto(&mut self, s: &str) {
        let j1 = self.j.wrapping_add(1);
        self.b.truncate(j1);
        self.b.extend(s.bytes().map(U::ascii));
        self.k = self.b.len().saturating_sub(1);
        self.remask();
    }

    fn r(&mut self, s: &str) {
        if self.j != usize::MAX && self.m() > 0 {
            self.setto(s);
        }
    }

    fn jm(&self) -> usize {
        if self.j == usize::MAX {
            0
        } else {
            self.m()
        }
    }

    fn vis(&self) -> bool {
        self.j != usize::MAX && self.vowel_in_stem()
    }

    /// Ends the word at `k`; characters after it stay in the buffer (the reference
    /// implementation's measure may still look at them through a stale `j`).
    fn trunc(&mut self, k: usize) {
        self.k = k;
    }

    fn step1ab(&mut self) {
        if self.b[self.k].ch() == 's' {
            if self.ends("sses") {
                let k = self.k - 2;
                self.trunc(k);
            } else if self.ends("ies") {
                self.setto("i");
            } else if self.b[self.k - 1].ch() != 's' {
                let k = self.k - 1;
                self.trunc(k);
            }
        }
        if self.ends("eed") {
            if self.jm() > 0 {
                let k = self.k - 1;
                self.trunc(k);
            }
        } else if (self.ends("ed") || self.ends("ing")) && self.vis() {
            let j = self.j;
            self.trunc(j);
            if self.ends("at") {
                self.setto("ate");
            } else if self.ends("bl") {
                self.setto("ble");
            } else if self.ends("iz") {
                self.setto("ize");
            } else if self.doublec(self.k) {
                let ch = self.b[self.k].ch();
                if !matches!(ch, 'l' | 's' | 'z') {
                    let k = self.k - 1;
                    self.trunc(k);
                }
            } else {
                self.j = self.k;
                if self.m() == 1 && self.cvc(self.k) {
                    self.setto_after_k("e");
                }
            }
        }
    }

    fn setto_after_k(&mut self, s: &str) {
        self.b.truncate(self.k + 1);
        self.b.extend(s.bytes().map(U::ascii));
        self.k = self.b.len() - 1;
        self.remask();
    }

    fn step1c(&mut self) {
        if self.ends("y") && self.vis() {
            let k = self.k;
            self.b[k] = U::ascii(b'i');
            self.remask();
        }
    }

    fn try_rules(&mut self, rules: &[(&str, &str)]) {
        for (suffix, rep) in rules {
            if self.ends(suffix) {
                self.r(rep);
                return;
            }
        }
    }

    fn step2(&mut self) {
        if self.k == 0 {
            return;
        }
        let rules: &[(&str, &str)] = match self.b[self.k - 1].ch() {
            'a' => &[("ational", "ate"), ("tional", "tion")],
            'c' => &[("enci", "ence"), ("anci", "ance")],
            'e' => &[("izer", "ize")],
            'l' => &[
                ("bli", "ble"),
                ("alli", "al"),
                ("entli", "ent"),
                ("eli", "e"),
                ("ousli", "ous"),
            ],
            'o' => &[("ization", "ize"), ("ation", "ate"), ("ator", "ate")],
            's' => &[
                ("alism", "al"),
                ("iveness", "ive"),
                ("fulness", "ful"),
                ("ousness", "ous"),
            ],
            't' => &[("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")],
            'g' => &[("logi", "log")],
            _ => &[],
        };
        self.try_rules(rules);
    }

    fn step3(&mut self) {
        let rules: &[(&str, &str)] = match self.b[self.k].ch() {
            'e' => &[("icate", "ic"), ("ative", ""), ("alize", "al")],
            'i' => &[("iciti", "ic")],
            'l' => &[("ical", "ic"), ("ful", "")],
            's' => &[("ness", "")],
            _ => &[],
        };
        self.try_rules(rules);
    }

    fn step4(&mut self) {
        if self.k == 0 {
            return;
        }
        let found = match self.b[self.k - 1].ch() {
            'a' => self.ends("al"),
            'c' => self.ends("ance") || self.ends("ence"),
            'e' => self.ends("er"),
            'i' => self.ends("ic"),
            'l' => self.ends("able") || self.ends("ible"),
            'n' => self.ends("ant") || self.ends("ement") || self.ends("ment") || self.ends("ent"),
            'o' => {
                (self.ends("ion")
                    && self.j != usize::MAX
                    && matches!(self.b[self.j].ch(), 's' | 't'))
                    || self.ends("ou")
            }
            's' => self.ends("ism"),
            't' => self.ends("ate") || self.ends("iti"),
            'u' => self.ends("ous"),
            'v' => self.ends("ive"),
            'z' => self.ends("ize"),
            _ => false,
        };
        if found && self.jm() > 1 {
            let j = self.j;
            self.trunc(j);
        }
    }

    fn step5(&mut self) {
        self.j = self.k;
        if self.b[self.k].ch() == 'e' {
            let a = self.m();
            if a > 1 || (a == 1 && !self.cvc(self.k - 1)) {
                let k = self.k - 1;
                self.trunc(k);
            }
        }
        if self.b[self.k].ch() == 'l' && self.doublec(self.k) && self.m() > 1 {
            let k = self.k - 1;
            self.trunc(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    fn s(w: &str) -> String {
        stem(w).unwrap_or_else(|| w.to_string())
    }

    #[test]
    fn lucene_porter_values() {
        let cases = [
            ("possibly", "possibl"),
            ("archaeology", "archaeolog"),
            ("biology", "biologi"),
            ("us", "us"),
            ("ties", "ti"),
            ("dying", "dy"),
            ("news", "new"),
            ("generalization", "gener"),
            ("exceed", "exce"),
            ("fairly", "fairli"),
            ("flying", "fly"),
            ("owed", "ow"),
            ("formative", "form"),
            ("communism", "commun"),
            ("books", "book"),
            ("running", "run"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("hopefulness", "hope"),
            ("electricity", "electr"),
            ("adjustable", "adjust"),
            ("replacement", "replac"),
            ("oscillators", "oscil"),
            ("abilities", "abil"),
            ("sensibility", "sensibl"),
            ("happy", "happi"),
            ("agreed", "agre"),
            ("feed", "feed"),
            ("caresses", "caress"),
            ("hoping", "hope"),
            ("filing", "file"),
        ];
        for (w, want) in cases {
            assert_eq!(s(w), want, "{w}");
        }
    }
}
