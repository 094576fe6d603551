//! The syntax of `simple_query_string` (Lucene's SimpleQueryParser, query-string-and-dates.md
//! A4): operators left to right without precedence, never a syntax error. Produces the same tree
//! as the classic syntax; leaves are built per shard.

use super::lucene_syntax::{Leaf, Node, Occur};
use super::query_string::flags::*;

struct State<'a> {
    data: &'a [char],
    /// Where a group opened past [`super::MAX_NESTING`], once one has.
    too_deep: &'a std::cell::Cell<Option<usize>>,
    index: usize,
    end: usize,
    top: Option<Node>,
    current: Option<Occur>,
    previous: Option<Occur>,
    not: u32,
    /// Groups open around this one.
    depth: usize,
}

pub struct SimpleParser {
    pub flags: u32,
    pub and_default: bool,
}

fn leaf(l: Leaf) -> Node {
    Node::Leaf {
        field: None,
        leaf: l,
    }
}

impl SimpleParser {
    fn on(&self, f: u32) -> bool {
        self.flags & f != 0
    }

    /// `Ok(None)`: nothing to search (OpenSearch answers `match_none`). `Err`: the character
    /// offset of a group nested past [`super::MAX_NESTING`] (the parser recurses per group).
    pub fn parse(&self, text: &str) -> Result<Option<Node>, usize> {
        let data: Vec<char> = text.chars().collect();
        let too_deep = std::cell::Cell::new(None);
        let mut st = State {
            data: &data,
            too_deep: &too_deep,
            index: 0,
            end: data.len(),
            top: None,
            current: None,
            previous: None,
            not: 0,
            depth: 0,
        };
        self.sub_query(&mut st);
        match too_deep.get() {
            Some(at) => Err(at),
            None => Ok(st.top),
        }
    }

    fn sub_query(&self, st: &mut State) {
        while st.index < st.end && st.too_deep.get().is_none() {
            let (c, at) = (st.data[st.index], st.index);
            if c == '(' && self.on(PRECEDENCE) {
                if st.depth == super::MAX_NESTING {
                    st.too_deep.set(Some(st.index));
                    return;
                }
                self.consume_sub_query(st);
            } else if c == ')' && self.on(PRECEDENCE) {
                // A `)` without its `(` is skipped, as Lucene's SimpleQueryParser skips it (it
                // ends a token, so left to `consume_token` it would never be consumed).
                st.index += 1;
            } else if c == '"' && self.on(PHRASE) {
                self.consume_phrase(st);
            } else if c == '+' && self.on(AND) {
                if st.current.is_none() && st.top.is_some() {
                    st.current = Some(Occur::Must);
                }
                st.index += 1;
            } else if c == '|' && self.on(OR) {
                if st.current.is_none() && st.top.is_some() {
                    st.current = Some(Occur::Should);
                }
                st.index += 1;
            } else if c == '-' && self.on(NOT) {
                st.not += 1;
                st.index += 1;
                continue;
            } else if matches!(c, ' ' | '\t' | '\n' | '\r') && self.on(WHITESPACE) {
                st.index += 1;
            } else {
                self.consume_token(st);
            }
            // Each branch consumes at least the character it was chosen for.
            debug_assert!(
                st.index > at || st.too_deep.get().is_some(),
                "stuck at {at}"
            );
            st.not = 0;
        }
    }

    fn consume_sub_query(&self, st: &mut State) {
        st.index += 1;
        let start = st.index;
        let mut precedence = 1;
        let mut escaped = false;
        while st.index < st.end {
            if !escaped {
                let c = st.data[st.index];
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    st.index += 1;
                    continue;
                } else if c == '(' {
                    precedence += 1;
                } else if c == ')' {
                    precedence -= 1;
                    if precedence == 0 {
                        break;
                    }
                }
            }
            escaped = false;
            st.index += 1;
        }
        if st.index == st.end {
            // Never closed: the `(` is ignored.
            st.index = start;
        } else if st.index == start {
            st.current = None;
            st.index += 1;
        } else {
            let mut branch = State {
                data: st.data,
                too_deep: st.too_deep,
                index: start,
                end: st.index,
                top: None,
                current: None,
                previous: None,
                not: 0,
                depth: st.depth + 1,
            };
            self.sub_query(&mut branch);
            if let Some(q) = branch.top {
                self.build_tree(st, q);
            }
            st.index += 1;
        }
    }

    fn consume_phrase(&self, st: &mut State) {
        st.index += 1;
        let start = st.index;
        let mut text = String::new();
        let mut escaped = false;
        let mut has_slop = false;
        while st.index < st.end {
            let c = st.data[st.index];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    st.index += 1;
                    continue;
                } else if c == '"' {
                    if st.end > st.index + 1 && st.data[st.index + 1] == '~' && self.on(NEAR) {
                        st.index += 1;
                        if st.end > st.index + 1 {
                            has_slop = true;
                        }
                    }
                    break;
                }
            }
            escaped = false;
            text.push(c);
            st.index += 1;
        }
        if st.index == st.end {
            st.index = start;
        } else {
            let slop = if has_slop { self.fuzziness(st) } else { 0 };
            self.build_tree(
                st,
                leaf(Leaf::Phrase {
                    text,
                    slop: Some(slop),
                }),
            );
            st.index += 1;
        }
    }

    fn token_finished(&self, st: &State) -> bool {
        let c = st.data[st.index];
        (c == '"' && self.on(PHRASE))
            || (c == '|' && self.on(OR))
            || (c == '+' && self.on(AND))
            || ((c == '(' || c == ')') && self.on(PRECEDENCE))
            || (matches!(c, ' ' | '\t' | '\n' | '\r') && self.on(WHITESPACE))
    }

    fn consume_token(&self, st: &mut State) {
        let mut text = String::new();
        let mut escaped = false;
        let mut prefix = false;
        let mut fuzzy = false;
        while st.index < st.end {
            let c = st.data[st.index];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    prefix = false;
                    st.index += 1;
                    continue;
                } else if self.token_finished(st) {
                    break;
                } else if !text.is_empty() && c == '~' && self.on(FUZZY) {
                    fuzzy = true;
                    break;
                }
                prefix = !text.is_empty() && c == '*' && self.on(PREFIX);
            }
            escaped = false;
            text.push(c);
            st.index += 1;
        }
        if text.is_empty() {
            return;
        }
        let node = if fuzzy {
            let edits = self.fuzziness(st).min(2);
            if edits == 0 {
                leaf(Leaf::Text(text))
            } else {
                leaf(Leaf::Fuzzy {
                    text,
                    fuzziness: Some(edits.to_string()),
                })
            }
        } else if prefix {
            text.pop();
            leaf(Leaf::Prefix(text))
        } else {
            leaf(Leaf::Text(text))
        };
        self.build_tree(st, node);
    }

    /// The number after `~` (at `st.index`); nothing means 2, garbage 0.
    fn fuzziness(&self, st: &mut State) -> u32 {
        if st.data.get(st.index) != Some(&'~') {
            return 0;
        }
        let mut s = String::new();
        while st.index < st.end {
            st.index += 1;
            if st.index < st.end {
                if self.token_finished(st) {
                    break;
                }
                s.push(st.data[st.index]);
            }
        }
        if s.is_empty() {
            2
        } else {
            s.parse::<i64>().unwrap_or(0).max(0) as u32
        }
    }

    fn build_tree(&self, st: &mut State, mut branch: Node) {
        if st.not % 2 == 1 {
            branch = Node::Bool(vec![
                (Occur::MustNot, branch),
                (Occur::Should, leaf(Leaf::MatchAll)),
            ]);
        }
        let Some(top) = st.top.take() else {
            st.top = Some(branch);
            return;
        };
        let current = st.current.unwrap_or(if self.and_default {
            Occur::Must
        } else {
            Occur::Should
        });
        let top = if st.previous != Some(current) {
            Node::Bool(vec![(current, top)])
        } else {
            top
        };
        let Node::Bool(clauses) = top else {
            unreachable!("the top is a boolean here")
        };
        let mut clauses: Vec<(Occur, Node)> =
            clauses.into_iter().map(|(_, q)| (current, q)).collect();
        clauses.push((current, branch));
        st.top = Some(Node::Bool(clauses));
        st.previous = Some(current);
        st.current = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str, and: bool) -> Option<Node> {
        SimpleParser {
            flags: ALL,
            and_default: and,
        }
        .parse(s)
        .expect("nests within the limit")
    }

    fn t(s: &str) -> Node {
        leaf(Leaf::Text(s.into()))
    }

    #[test]
    fn groups_nest_up_to_the_limit() {
        let nested = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(p(&nested(crate::dsl::MAX_NESTING), false), Some(t("a")));
        let deeper = SimpleParser {
            flags: ALL,
            and_default: false,
        }
        .parse(&nested(crate::dsl::MAX_NESTING + 5));
        // The first group past the limit, by character offset.
        assert_eq!(deeper, Err(crate::dsl::MAX_NESTING));
    }

    #[test]
    fn left_to_right() {
        use Occur::*;
        assert_eq!(
            p("a | b + c", false).unwrap(),
            Node::Bool(vec![
                (Must, Node::Bool(vec![(Should, t("a")), (Should, t("b"))])),
                (Must, t("c"))
            ])
        );
        assert_eq!(
            p("a -b", false).unwrap(),
            Node::Bool(vec![
                (Should, t("a")),
                (
                    Should,
                    Node::Bool(vec![(MustNot, t("b")), (Should, leaf(Leaf::MatchAll))])
                )
            ])
        );
        assert_eq!(
            p("colr~", false).unwrap(),
            leaf(Leaf::Fuzzy {
                text: "colr".into(),
                fuzziness: Some("2".into())
            })
        );
        assert_eq!(p("colr~0", false).unwrap(), t("colr"));
        assert_eq!(p("ab*", false).unwrap(), leaf(Leaf::Prefix("ab".into())));
        assert_eq!(
            p("(a b", false).unwrap(),
            Node::Bool(vec![(Should, t("a")), (Should, t("b"))])
        );
        assert_eq!(
            p("\"a b\"~2", false).unwrap(),
            leaf(Leaf::Phrase {
                text: "a b".into(),
                slop: Some(2)
            })
        );
        assert_eq!(p("", false), None);
        assert_eq!(
            p("game)(", false).unwrap(),
            t("game"),
            "a stray `)` is skipped, an unclosed `(` ignored"
        );
        assert_eq!(
            p(") a)) b", false).unwrap(),
            Node::Bool(vec![(Should, t("a")), (Should, t("b"))])
        );
    }

    /// Every string over the operators and a few letters parses to an end (a character no
    /// branch consumes would loop forever), under every flag set.
    #[test]
    fn any_operator_soup_terminates() {
        const PIECES: &[&str] = &[
            "a", "b", " ", "(", ")", "\"", "+", "|", "-", "~", "*", "\\", "2", "\t",
        ];
        let mut rng = crate::util::test_support::Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..20_000 {
            let text = rng.soup(PIECES, 12);
            let flags = if round % 2 == 0 {
                ALL
            } else {
                rng.below(1024) as u32
            };
            let _ = SimpleParser {
                flags,
                and_default: round % 3 == 0,
            }
            .parse(&text);
        }
    }
}
