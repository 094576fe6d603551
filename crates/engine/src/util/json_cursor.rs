//! A byte cursor over JSON text that locates tokens as Jackson does. OpenSearch parses request
//! bodies from bytes, so its `line`/`col` count lines (`\n`, `\r` and `\r\n` each end one) and
//! bytes within the line, 1-based; clients and tests match those numbers.

pub struct Cursor<'a> {
    pub b: &'a [u8],
    pub i: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Cursor {
            b,
            i: 0,
            line: 1,
            line_start: 0,
        }
    }

    pub fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// `(line, column)` of the byte at the cursor.
    pub fn location(&self) -> (usize, usize) {
        self.location_at(self.i)
    }

    /// `(line, column)` of byte `i`, which must lie on the cursor's current line.
    pub fn location_at(&self, i: usize) -> (usize, usize) {
        (self.line, i - self.line_start + 1)
    }

    pub fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'\n' | b'\r' => {
                    self.i += 1;
                    if c == b'\r' && self.peek() == Some(b'\n') {
                        self.i += 1;
                    }
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' => self.i += 1,
                _ => break,
            }
        }
    }

    /// Moves past the string whose opening quote is at the cursor and returns it with its
    /// quotes, escapes undecoded; `None` (cursor at the end) if the input ends inside it.
    pub fn skip_string(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        let mut j = start + 1;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return Some(&self.b[start..self.i]);
                }
                _ => j += 1,
            }
        }
        self.i = self.b.len();
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_bytes_and_every_line_ending() {
        let mut c = Cursor::new("\r\n \"é\"\r  \n\t[".as_bytes());
        c.skip_ws();
        assert_eq!(c.location(), (2, 2));
        assert_eq!(c.skip_string(), Some("\"é\"".as_bytes()));
        assert_eq!(c.location(), (2, 6));
        c.skip_ws();
        assert_eq!((c.peek(), c.location()), (Some(b'['), (4, 2)));
        let mut open = Cursor::new(br#""a\"b"#);
        assert_eq!(open.skip_string(), None);
        assert_eq!(open.i, 5);
    }
}
