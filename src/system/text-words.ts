// The words a text field is searched by, as Lucene's standard tokenizer cuts them for the texts
// system records hold (names, addresses, URLs, ARNs), lower-cased: runs of letters, digits and
// `_`, kept whole across `:` between letters (`arn:aws`), `.` or `'` between two letters or two
// digits (`hooks.slack.com`, `1.5`), and `,` or `;` between digits (UAX #29's word rules).

type Kind = 'letter' | 'digit' | 'extend' | 'midLetter' | 'midNumLet' | 'midNum' | 'other';

function kindOf(c: string | undefined): Kind {
  if (c === undefined) return 'other';
  if (/\p{L}/u.test(c)) return 'letter';
  if (/\p{N}/u.test(c)) return 'digit';
  if (c === '_') return 'extend';
  if (c === ':' || c === '·') return 'midLetter';
  if (c === '.' || c === "'") return 'midNumLet';
  if (c === ',' || c === ';') return 'midNum';
  return 'other';
}

function joins(kind: Kind, before: Kind, after: Kind): boolean {
  if (kind === 'midLetter') return before === 'letter' && after === 'letter';
  if (kind === 'midNumLet') return (before === 'letter' && after === 'letter') || (before === 'digit' && after === 'digit');
  if (kind === 'midNum') return before === 'digit' && after === 'digit';
  return false;
}

export function textWords(text: string): string[] {
  const chars = [...text.toLowerCase()];
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const kind = kindOf(c);
    if (kind === 'letter' || kind === 'digit' || kind === 'extend') {
      word += c;
      continue;
    }
    if (word !== '' && joins(kind, kindOf(chars[i - 1]), kindOf(chars[i + 1]))) {
      word += c;
      continue;
    }
    if (word !== '') words.push(word);
    word = '';
  }
  if (word !== '') words.push(word);
  return words;
}
