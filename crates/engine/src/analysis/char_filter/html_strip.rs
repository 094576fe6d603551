//! `html_strip`: removes tags, comments, scripts and styles, turns block-level tags into line
//! breaks and decodes character entities; `escaped_tags` are left in place.

use super::{CharFilter, OffsetMap};

pub struct HtmlStrip {
    pub escaped: Vec<String>,
}

const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tfoot",
    "ul",
    "tr",
    "td",
    "th",
    "thead",
    "tbody",
    "caption",
    "center",
    "dir",
    "menu",
    "noscript",
    "option",
    "title",
    "body",
    "head",
    "html",
];

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let v = if let Some(h) = num.strip_prefix(['x', 'X']) {
            u32::from_str_radix(h, 16).ok()?
        } else {
            num.parse().ok()?
        };
        return char::from_u32(v);
    }
    Some(match name {
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        "copy" | "COPY" => '©',
        "reg" | "REG" => '®',
        "trade" => '™',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "bull" => '•',
        "middot" => '·',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "sect" => '§',
        "deg" => '°',
        "plusmn" => '±',
        "times" => '×',
        "divide" => '÷',
        "eacute" => 'é',
        "egrave" => 'è',
        "aacute" => 'á',
        "agrave" => 'à',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "auml" => 'ä',
        "szlig" => 'ß',
        "ccedil" => 'ç',
        "ntilde" => 'ñ',
        "laquo" => '«',
        "raquo" => '»',
        _ => return None,
    })
}

impl CharFilter for HtmlStrip {
    fn filter(&self, text: &str, map: &mut OffsetMap) -> String {
        let b = text.as_bytes();
        let lower = text.to_ascii_lowercase();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < text.len() {
            let c = b[i];
            if c == b'<' {
                // Comments and declarations.
                if lower[i..].starts_with("<!--") {
                    let end = lower[i + 4..]
                        .find("-->")
                        .map_or(text.len(), |e| i + 4 + e + 3);
                    map.add(out.len(), (end - i) as isize);
                    i = end;
                    continue;
                }
                if lower[i..].starts_with("<!") || lower[i..].starts_with("<?") {
                    if let Some(e) = text[i..].find('>') {
                        map.add(out.len(), (e + 1) as isize);
                        i += e + 1;
                        continue;
                    }
                }
                let rest = &lower[i + 1..];
                let closing = rest.starts_with('/');
                let name_start = if closing { 1 } else { 0 };
                let name: String = rest[name_start..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                let valid = !name.is_empty()
                    && rest[name_start..].starts_with(|c: char| c.is_ascii_alphabetic());
                if valid {
                    if let Some(e) = text[i..].find('>') {
                        let tag_end = i + e + 1;
                        if self.escaped.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
                            out.push_str(&text[i..tag_end]);
                            i = tag_end;
                            continue;
                        }
                        let mut end = tag_end;
                        if !closing && (name == "script" || name == "style") {
                            let close = format!("</{name}");
                            if let Some(ce) = lower[tag_end..].find(&close) {
                                let after = tag_end + ce;
                                end = text[after..]
                                    .find('>')
                                    .map_or(text.len(), |x| after + x + 1);
                            }
                        }
                        if BLOCK.contains(&name.as_str()) {
                            out.push('\n');
                            map.add(out.len(), (end - i) as isize - 1);
                        } else {
                            map.add(out.len(), (end - i) as isize);
                        }
                        i = end;
                        continue;
                    }
                }
                out.push('<');
                i += 1;
                continue;
            }
            if c == b'&' {
                if let Some(semi) = text[i + 1..].find(';').filter(|&s| s <= 10) {
                    if let Some(ch) = entity(&text[i + 1..i + 1 + semi]) {
                        let consumed = semi + 2;
                        out.push(ch);
                        map.add(out.len(), consumed as isize - ch.len_utf8() as isize);
                        i += consumed;
                        continue;
                    }
                }
            }
            let ch = text[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_corrects() {
        let mut m = OffsetMap::default();
        let out = HtmlStrip { escaped: vec![] }.filter("<b>The</b> Fox &amp; co", &mut m);
        assert_eq!(out, "The Fox & co");
        assert_eq!((m.correct(0), m.correct(3)), (3, 10));
    }
}
