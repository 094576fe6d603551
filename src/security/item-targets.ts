// The indices and per-item actions inside a composite request's body (bulk, multi-get,
// multi-search), which carry targets the URL does not name. The security plugin checks each
// item's action on each item's index; so does Quarry, by reading the action lines only (a bulk's
// documents are skipped, never parsed). A line that is not JSON is left for the engine to refuse.

export interface ItemTarget {
  readonly action: string;
  readonly index: string;
}

const BULK_ITEM_ACTIONS: Readonly<Record<string, string>> = {
  index: 'indices:data/write/index',
  create: 'indices:data/write/index',
  update: 'indices:data/write/update',
  delete: 'indices:data/write/delete',
};

/** Each composite action, and the actions its items may need. */
export const ITEM_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  'indices:data/write/bulk': ['indices:data/write/index', 'indices:data/write/update', 'indices:data/write/delete'],
  'indices:data/read/msearch': ['indices:data/read/search'],
  'indices:data/read/msearch/template': ['indices:data/read/search'],
  'indices:data/read/mget': ['indices:data/read/mget'],
};

export function carriesItems(action: string): boolean {
  return Object.prototype.hasOwnProperty.call(ITEM_ACTIONS, action);
}

function lines(body: Buffer): string[] {
  return body.toString('utf8').split('\n');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function bulkTargets(body: Buffer, defaultIndex: string | undefined): ItemTarget[] {
  const out: ItemTarget[] = [];
  const all = lines(body);
  for (let i = 0; i < all.length; i++) {
    const text = (all[i] ?? '').trim();
    if (text === '') continue;
    const line = parseObject(text);
    if (line === undefined) continue;
    const op = Object.keys(line)[0] ?? '';
    const action = BULK_ITEM_ACTIONS[op];
    if (action === undefined) continue;
    const meta = line[op] as Record<string, unknown> | null;
    const index = meta !== null && typeof meta === 'object' && typeof meta._index === 'string' ? meta._index : defaultIndex;
    out.push({ action, index: index ?? '' });
    if (op !== 'delete') i++; // its document
  }
  return out;
}

function msearchTargets(body: Buffer, defaultIndex: string | undefined): ItemTarget[] {
  const out: ItemTarget[] = [];
  const all = lines(body).filter((l) => l.trim() !== '');
  for (let i = 0; i < all.length; i += 2) {
    const header = parseObject(all[i] ?? '') ?? {};
    const index = header.index;
    const names = typeof index === 'string' ? index.split(',') : Array.isArray(index) ? index.map(String) : defaultIndex !== undefined ? defaultIndex.split(',') : ['*'];
    for (const name of names) out.push({ action: 'indices:data/read/search', index: name });
  }
  return out;
}

function mgetTargets(body: Buffer, defaultIndex: string | undefined): ItemTarget[] {
  const doc = parseObject(body.toString('utf8'));
  const out: ItemTarget[] = [];
  const docs = doc?.docs;
  if (Array.isArray(docs)) {
    for (const d of docs) {
      const idx = d !== null && typeof d === 'object' ? (d as Record<string, unknown>)._index : undefined;
      out.push({ action: 'indices:data/read/mget', index: typeof idx === 'string' ? idx : (defaultIndex ?? '') });
    }
  }
  if (out.length === 0 && defaultIndex !== undefined) out.push({ action: 'indices:data/read/mget', index: defaultIndex });
  return out;
}

/** The items of a composite request, or undefined for any other action. */
export function itemTargets(action: string, body: Buffer | undefined, defaultIndex: string | undefined): ItemTarget[] | undefined {
  switch (action) {
    case 'indices:data/write/bulk':
      return body === undefined ? [] : bulkTargets(body, defaultIndex);
    case 'indices:data/read/msearch':
    case 'indices:data/read/msearch/template':
      return body === undefined ? [] : msearchTargets(body, defaultIndex);
    case 'indices:data/read/mget':
      return body === undefined ? [] : mgetTargets(body, defaultIndex);
    default:
      return undefined;
  }
}
