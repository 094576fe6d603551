//! KStem (`kstem`, stemmer `light_english`): Bob Krovetz's inflectional and derivational
//! stemmer as Lucene runs it. Unlike Porter it only removes an ending when the result is a word
//! of its dictionary (or, for a few very productive endings, always), so stems stay readable.
//!
//! The dictionary is `kstem_data.txt`, generated from Lucene's jar by
//! `scripts/gen-kstem-data.js`. The steps below follow Krovetz's description: plural, past
//! tense, `-ing`, then the derivational endings (`-ity`, `-ness`, `-ion`, `-er`/`-or`, `-ly`,
//! `-al`, `-ive`, `-ize`, `-ment`, `-ble`, `-ism`, `-ic`, `-ncy`, `-nce`), each trying its
//! candidate roots against the dictionary and stopping at the first hit. Lucene's run keeps the
//! word in a growable char buffer whose length is cut and restored without clearing: one step
//! (`-er`/`-or`) reads a char past a shortened length, so the word here lives in a fixed buffer
//! with the same semantics, and `k` (index of the last char) is kept apart from the length
//! exactly where Lucene's run lets them differ.

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Words longer than this (and shorter than 3) are never stemmed.
const MAX_WORD_LEN: usize = 50;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Entry {
    /// A dictionary word: a stem may end here.
    Word,
    /// A word that is its own stem, and that the `-ed`/`-ing` steps must not take as a root
    /// (`aide`, so `aided` goes to `aid`).
    Exception,
    /// A word with a fixed stem (`aging` → `age`, `italian` → `italy`).
    Root(&'static str),
}

fn dictionary() -> &'static FxHashMap<&'static str, Entry> {
    static DICT: OnceLock<FxHashMap<&'static str, Entry>> = OnceLock::new();
    DICT.get_or_init(|| {
        let mut map = FxHashMap::default();
        map.reserve(28_000);
        let mut section = "";
        for line in include_str!("kstem_data.txt").lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[') {
                section = name.trim_end_matches(']');
                continue;
            }
            let (word, entry) = match section {
                "exceptions" => (line, Entry::Exception),
                "conflations" | "nationalities" => {
                    let (w, root) = line.split_once(' ').expect("word and root");
                    (w, Entry::Root(root))
                }
                _ => (line, Entry::Word),
            };
            // The generator's lists hold each word once; the first list a word is in wins.
            map.entry(word).or_insert(entry);
        }
        map
    })
}

/// Stems a lowercase term; `None` when the term comes out unchanged.
pub fn stem(term: &str) -> Option<String> {
    let b = term.as_bytes();
    if b.len() < 3 || b.len() >= MAX_WORD_LEN {
        return None;
    }
    if let Some(entry) = dictionary().get(term) {
        return match entry {
            Entry::Root(r) => Some((*r).to_string()),
            _ => None,
        };
    }
    // Only lowercase ASCII letters are stemmed (a lowercase filter is expected before this).
    if !b.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let mut w = Word::new(b);
    w.run();
    let out = match w.hit {
        Some(Entry::Root(r)) => r.as_bytes(),
        _ => w.text(),
    };
    (out != b).then(|| String::from_utf8_lossy(out).into_owned())
}

struct Word {
    buf: [u8; MAX_WORD_LEN + 16],
    len: isize,
    /// Index of the word's last char, as the steps see it.
    k: isize,
    /// Index of the char before the ending the last successful `ends` matched.
    j: isize,
    /// The entry the last lookup found: set means the word is stemmed.
    hit: Option<Entry>,
}

impl Word {
    fn new(term: &[u8]) -> Word {
        let mut buf = [0u8; MAX_WORD_LEN + 16];
        buf[..term.len()].copy_from_slice(term);
        Word {
            buf,
            len: term.len() as isize,
            k: term.len() as isize - 1,
            j: 0,
            hit: None,
        }
    }

    fn text(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }

    #[inline]
    fn at(&self, i: isize) -> u8 {
        self.buf[i as usize]
    }

    #[inline]
    fn set(&mut self, i: isize, c: u8) {
        self.buf[i as usize] = c;
    }

    /// Sets the length without touching the buffer (a longer length shows the old chars).
    #[inline]
    fn cut(&mut self, len: isize) {
        self.len = len;
    }

    #[inline]
    fn push(&mut self, c: u8) {
        self.buf[self.len as usize] = c;
        self.len += 1;
    }

    fn push_str(&mut self, s: &str) {
        for &c in s.as_bytes() {
            self.push(c);
        }
    }

    /// Replaces the ending after `j` with `s`.
    fn set_suffix(&mut self, s: &str) {
        self.cut(self.j + 1);
        self.push_str(s);
        self.k = self.j + s.len() as isize;
    }

    fn lookup(&mut self) -> bool {
        // The text is ASCII by construction.
        let text = std::str::from_utf8(self.text()).unwrap_or("");
        self.hit = dictionary().get(text).copied();
        self.hit.is_some()
    }

    /// The current word's entry; remembered as the hit unless it is an exception.
    fn in_dict(&mut self) -> Option<Entry> {
        if self.hit.is_some() {
            return self.hit;
        }
        let text = std::str::from_utf8(self.text()).unwrap_or("");
        let e = dictionary().get(text).copied();
        if e.is_some_and(|e| e != Entry::Exception) {
            self.hit = e;
        }
        e
    }

    /// Whether the word (up to `k`) ends in `suffix`; sets `j` before it when it does. A suffix
    /// must leave at least one char.
    fn ends(&mut self, suffix: &str) -> bool {
        let s = suffix.as_bytes();
        let n = s.len() as isize;
        if n > self.k {
            return false;
        }
        let start = self.k - n + 1;
        if &self.buf[start as usize..=self.k as usize] != s {
            return false;
        }
        self.j = start - 1;
        true
    }

    fn is_cons(&self, i: isize) -> bool {
        match self.at(i) {
            b'a' | b'e' | b'i' | b'o' | b'u' => false,
            b'y' if i > 0 => !self.is_cons(i - 1),
            _ => true,
        }
    }

    fn double_c(&self, i: isize) -> bool {
        i >= 1 && self.at(i) == self.at(i - 1) && self.is_cons(i)
    }

    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.is_cons(i))
    }

    fn run(&mut self) {
        let steps: [fn(&mut Word); 9] = [
            Word::plural,
            Word::past_tense,
            Word::aspect,
            Word::ity,
            Word::ness,
            Word::ion,
            Word::er_or,
            Word::ly,
            Word::al,
        ];
        for step in steps {
            step(self);
            if self.hit.is_some() {
                return;
            }
        }
        // The word as the inflectional steps left it may itself be a dictionary word; that hit
        // stands unless a later step looks something else up.
        self.in_dict();
        let steps: [fn(&mut Word); 9] = [
            Word::ive,
            Word::ize,
            Word::ment,
            Word::ble,
            Word::ism,
            Word::ic,
            Word::ncy,
            Word::nce,
            |_| {},
        ];
        for step in steps {
            step(self);
            if self.hit.is_some() {
                return;
            }
        }
    }

    /// Plurals to singular, `-ies` to `-y` (or `-ie`).
    fn plural(&mut self) {
        if self.at(self.k) != b's' {
            return;
        }
        if self.ends("ies") {
            self.cut(self.j + 3);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            self.push(b's');
            self.set_suffix("y");
            self.lookup();
        } else if self.ends("es") {
            self.cut(self.j + 2);
            self.k -= 1;
            // `-sses` keeps its `e` untried (`crosses` is not `crosse`).
            let try_e = self.j > 0 && !(self.at(self.j) == b's' && self.at(self.j - 1) == b's');
            if try_e && self.lookup() {
                return;
            }
            self.cut(self.j + 1);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.push(b'e');
            self.k += 1;
            if !try_e {
                self.lookup();
            }
        } else if self.len > 3 && self.at(self.k - 1) != b's' && !self.ends("ous") {
            self.cut(self.k);
            self.k -= 1;
            self.lookup();
        }
    }

    /// `-ed` to the present, `-ied` to `-y`.
    fn past_tense(&mut self) {
        if self.len <= 4 {
            return;
        }
        if self.ends("ied") {
            self.cut(self.j + 3);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            self.push(b'd');
            self.set_suffix("y");
            self.lookup();
            return;
        }
        // Without a vowel before `-ed` it is an acronym, not a past tense.
        if self.ends("ed") && self.vowel_in_stem() {
            let j = self.j;
            self.cut(j + 2);
            self.k = j + 1;
            if self.in_dict().is_some_and(|e| e != Entry::Exception) {
                return;
            }
            self.cut(j + 1);
            self.k = j;
            if self.lookup() {
                return;
            }
            if self.double_c(self.k) {
                self.cut(self.k);
                self.k -= 1;
                if self.lookup() {
                    return;
                }
                self.push(self.at(self.k));
                self.k += 1;
                self.lookup();
                return;
            }
            if self.at(0) == b'u' && self.at(1) == b'n' {
                self.push(b'e');
                self.push(b'd');
                self.k += 2;
                return;
            }
            self.cut(j + 1);
            self.push(b'e');
            self.k = j + 1;
        }
    }

    /// `-ing`.
    fn aspect(&mut self) {
        if self.len <= 5 {
            return;
        }
        if self.ends("ing") && self.vowel_in_stem() {
            let j = self.j;
            self.set(j + 1, b'e');
            self.cut(j + 2);
            self.k = j + 1;
            if self.in_dict().is_some_and(|e| e != Entry::Exception) {
                return;
            }
            self.cut(self.k);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            if self.double_c(self.k) {
                self.k -= 1;
                self.cut(self.k + 1);
                if self.lookup() {
                    return;
                }
                self.push(self.at(self.k));
                self.k += 1;
                self.lookup();
                return;
            }
            // Two consonants before `-ing` stay as they are (`footstamping` → `footstamp`);
            // otherwise an `e` is the better guess (`microcoding` → `microcode`).
            if j > 0 && self.is_cons(j) && self.is_cons(j - 1) {
                self.k = j;
                self.cut(j + 1);
                return;
            }
            self.cut(j + 1);
            self.push(b'e');
            self.k = j + 1;
        }
    }

    /// `-ity`; `-ability`/`-ibility` become `-ble`, `-ivity` `-ive` and `-ality` `-al` without
    /// a dictionary check, being so productive.
    fn ity(&mut self) {
        let old_k = self.k;
        if !self.ends("ity") {
            return;
        }
        let j = self.j;
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set(j + 1, b'i');
        self.push_str("ty");
        self.k = old_k;
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'l' {
            self.cut(j - 1);
            self.push_str("le");
            self.k = j;
            self.lookup();
            return;
        }
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'v' {
            self.cut(j + 1);
            self.push(b'e');
            self.k = j + 1;
            self.lookup();
            return;
        }
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'l' {
            self.cut(j + 1);
            self.k = j;
            self.lookup();
            return;
        }
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.k = j;
    }

    /// `-ness`, always removed (`-iness` → `-y`).
    fn ness(&mut self) {
        if self.ends("ness") {
            let j = self.j;
            self.cut(j + 1);
            self.k = j;
            if self.at(j) == b'i' {
                self.set(j, b'y');
            }
            self.lookup();
        }
    }

    /// `-ism`, always removed.
    fn ism(&mut self) {
        if self.ends("ism") {
            self.cut(self.j + 1);
            self.k = self.j;
            self.lookup();
        }
    }

    /// `-ment`.
    fn ment(&mut self) {
        let old_k = self.k;
        if self.ends("ment") {
            self.cut(self.j + 1);
            self.k = self.j;
            if self.lookup() {
                return;
            }
            self.push_str("ment");
            self.k = old_k;
        }
    }

    /// `-ize`.
    fn ize(&mut self) {
        let old_k = self.k;
        if !self.ends("ize") {
            return;
        }
        let j = self.j;
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'i');
        if self.double_c(j) {
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push(self.at(j - 1));
        }
        self.cut(j + 1);
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push_str("ize");
        self.k = old_k;
    }

    /// `-ency`/`-ancy` to `-ent`/`-ant`, else to `-ence`/`-ance`.
    fn ncy(&mut self) {
        if !self.ends("ncy") {
            return;
        }
        let j = self.j;
        if !matches!(self.at(j), b'e' | b'a') {
            return;
        }
        self.set(j + 2, b't');
        self.cut(j + 3);
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.set(j + 2, b'c');
        self.push(b'e');
        self.k = j + 3;
        self.lookup();
    }

    /// `-ence`/`-ance`.
    fn nce(&mut self) {
        let old_k = self.k;
        if !self.ends("nce") {
            return;
        }
        let j = self.j;
        let vowel = self.at(j);
        if !matches!(vowel, b'e' | b'a') {
            return;
        }
        self.cut(j);
        self.push(b'e');
        self.k = j;
        if self.lookup() {
            return;
        }
        self.cut(j);
        self.k = j - 1;
        if self.lookup() {
            return;
        }
        self.push(vowel);
        self.push_str("nce");
        self.k = old_k;
    }

    /// `-able`/`-ible`.
    fn ble(&mut self) {
        let old_k = self.k;
        if !self.ends("ble") {
            return;
        }
        let j = self.j;
        let vowel = self.at(j);
        if !matches!(vowel, b'a' | b'i') {
            return;
        }
        self.cut(j);
        self.k = j - 1;
        if self.lookup() {
            return;
        }
        if self.double_c(self.k) {
            self.cut(self.k);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            self.push(self.at(self.k - 1));
        }
        self.cut(j);
        self.push(b'e');
        self.k = j;
        if self.lookup() {
            return;
        }
        self.cut(j);
        self.push_str("ate");
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.cut(j);
        self.push(vowel);
        self.push_str("ble");
        self.k = old_k;
    }

    /// `-ic`: the only step that tries a longer form (`-ical`), then `-y`, `-e`, nothing.
    fn ic(&mut self) {
        if !self.ends("ic") {
            return;
        }
        let j = self.j;
        self.cut(j + 3);
        self.push_str("al");
        self.k = j + 4;
        if self.lookup() {
            return;
        }
        self.set(j + 1, b'y');
        self.cut(j + 2);
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set(j + 1, b'e');
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push_str("ic");
        self.k = j + 2;
    }

    /// `-ion`, `-ition`, `-ation`, `-ication`; `-ization` always becomes `-ize`.
    fn ion(&mut self) {
        let old_k = self.k;
        if !self.ends("ion") {
            return;
        }
        if self.ends("ization") {
            let j = self.j;
            self.cut(j + 3);
            self.push(b'e');
            self.k = j + 3;
            self.lookup();
            return;
        }
        if self.ends("ition") {
            let j = self.j;
            self.cut(j + 1);
            self.push(b'e');
            self.k = j + 1;
            if self.lookup() {
                return;
            }
            self.cut(j + 1);
            self.push_str("ition");
            self.k = old_k;
        } else if self.ends("ation") {
            let j = self.j;
            self.cut(j + 3);
            self.push(b'e');
            self.k = j + 3;
            if self.lookup() {
                return;
            }
            self.cut(j + 1);
            self.push(b'e');
            self.k = j + 1;
            if self.lookup() {
                return;
            }
            self.cut(j + 1);
            self.k = j;
            if self.lookup() {
                return;
            }
            self.cut(j + 1);
            self.push_str("ation");
            self.k = old_k;
        }
        // After `-ation`, so `complication` finds `complicate` before `comply`.
        if self.ends("ication") {
            let j = self.j;
            self.cut(j + 1);
            self.push(b'y');
            self.k = j + 1;
            if self.lookup() {
                return;
            }
            self.cut(j + 1);
            self.push_str("ication");
            self.k = old_k;
        }
        let j = self.k - 3;
        self.j = j;
        self.cut(j + 1);
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push_str("ion");
        self.k = old_k;
    }

    /// `-er`, `-or`, `-ier`, `-eer`; `-izer` always becomes `-ize`.
    fn er_or(&mut self) {
        let old_k = self.k;
        if self.at(self.k) != b'r' {
            return;
        }
        if self.ends("izer") {
            let j = self.j;
            self.cut(j + 4);
            self.k = j + 3;
            self.lookup();
            return;
        }
        if !(self.ends("er") || self.ends("or")) {
            return;
        }
        let j = self.j;
        let vowel = self.at(j + 1);
        if self.double_c(j) {
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push(self.at(j - 1));
        }
        if self.at(j) == b'i' {
            self.set(j, b'y');
            self.cut(j + 1);
            self.k = j;
            if self.lookup() {
                return;
            }
            self.set(j, b'i');
            self.push(b'e');
        }
        if self.at(j) == b'e' {
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push(b'e');
        }
        // The length grows back over the buffer: for `-ior` the `e` written above shows here,
        // so `-ie` is what is looked up (Lucene's run does the same).
        self.cut(j + 2);
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push(vowel);
        self.push(b'r');
        self.k = old_k;
    }

    /// `-ly`; `-ally` always becomes `-al` and `-ably` `-able` (the `-al` step may go on).
    fn ly(&mut self) {
        let old_k = self.k;
        if !self.ends("ly") {
            return;
        }
        let j = self.j;
        self.set(j + 2, b'e');
        if self.lookup() {
            return;
        }
        self.set(j + 2, b'y');
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'l' {
            return;
        }
        self.push_str("ly");
        self.k = old_k;
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'b' {
            self.set(j + 2, b'e');
            self.k = j + 2;
            return;
        }
        if self.at(j) == b'i' {
            self.cut(j);
            self.push(b'y');
            self.k = j;
            if self.lookup() {
                return;
            }
            self.cut(j);
            self.push_str("ily");
            self.k = old_k;
        }
        self.cut(j + 1);
        self.k = j;
    }

    /// `-al`, `-ical`, `-ial`.
    fn al(&mut self) {
        let old_k = self.k;
        if self.len < 4 || !self.ends("al") {
            return;
        }
        let j = self.j;
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        if self.double_c(j) {
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push(self.at(j - 1));
        }
        self.cut(j + 1);
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push_str("um");
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push_str("al");
        self.k = old_k;
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'c' {
            self.cut(j - 1);
            self.k = j - 2;
            if self.lookup() {
                return;
            }
            self.cut(j - 1);
            self.push(b'y');
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.cut(j - 1);
            self.push_str("ic");
            self.k = j;
            self.lookup();
            return;
        }
        if self.at(j) == b'i' {
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push_str("ial");
            self.k = old_k;
            self.lookup();
        }
    }

    /// `-ive`, `-ative`, and `-ive` to `-ion` (`injunctive` → `injunction`).
    fn ive(&mut self) {
        let old_k = self.k;
        if !self.ends("ive") {
            return;
        }
        let j = self.j;
        self.cut(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.cut(j + 1);
        self.push_str("ive");
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b't' {
            self.set(j - 1, b'e');
            self.cut(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.cut(j - 1);
            if self.lookup() {
                return;
            }
            self.push_str("ative");
            self.k = old_k;
        }
        self.set(j + 2, b'o');
        self.set(j + 3, b'n');
        if self.lookup() {
            return;
        }
        self.set(j + 2, b'v');
        self.set(j + 3, b'e');
        self.k = old_k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: &str) -> String {
        stem(w).unwrap_or_else(|| w.to_string())
    }

    #[test]
    fn krovetz_examples() {
        assert_eq!(s("aided"), "aid");
        assert_eq!(s("aides"), "aide");
        assert_eq!(s("calories"), "calorie");
        assert_eq!(s("italians"), "italy");
        assert_eq!(s("backfilled"), "backfill");
        assert_eq!(s("microcoding"), "microcode");
        assert_eq!(s("amplification"), "amplify");
        assert_eq!(s("ran"), "ran");
        assert_eq!(s("ab"), "ab");
        assert_eq!(s("Running"), "Running");
    }
}
