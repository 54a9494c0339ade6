// A `patterns` glob (url-scope.ts) → a matcher of whole URL paths, in time linear in the path for a given glob.
// The glob was a JavaScript regular expression (`*` → `[^/]*`, `**` → `.*`), which backtracks: a glob with many `**`
// took 15.7 s on a 101-character path the site chose (issue 23). Here it is a small automaton run over the path
// once, all its live states at a time (Thompson's construction; O(path × glob) at worst), and a live `**` — or a
// live `*` with nothing but one segment's characters before it — makes the states before it redundant, so most
// globs keep two or three states whatever the path.
//
// Syntax, as documented in docs/crawl.md: `*` any run of characters but `/`, `**` any run including `/` (`/docs/**`
// also matches `/docs`), `?` one character but `/`, `{a,b}` either alternative (not nested; inside one, `{` is a
// plain character), anything else itself.

type Item =
  | { readonly kind: 'char'; readonly code: number }
  | { readonly kind: 'one' | 'star' | 'globstar' | 'dir-tail' }
  | { readonly kind: 'alt'; readonly branches: Item[][] };

/** The glob's items; throws on an unclosed `{`. */
function parseGlob(glob: string): Item[] {
  const top: Item[] = [];
  let branches: Item[][] | undefined;
  let current = top;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '*' && glob[index + 1] === '*') {
      index++;
      const last = current[current.length - 1];
      // `/**` at the end also matches the directory itself (`/docs/**` matches `/docs` and `/docs/`).
      if (last?.kind === 'char' && last.code === 0x2f && index === glob.length - 1) {
        current.pop();
        current.push({ kind: 'dir-tail' });
      } else current.push({ kind: 'globstar' });
    } else if (char === '*') current.push({ kind: 'star' });
    else if (char === '?') current.push({ kind: 'one' });
    else if (char === '{' && !branches) {
      branches = [[]];
      current = branches[0]!;
    } else if (char === '}' && branches) {
      top.push({ kind: 'alt', branches });
      branches = undefined;
      current = top;
    } else if (char === ',' && branches) {
      current = [];
      branches.push(current);
    } else current.push({ kind: 'char', code: glob.charCodeAt(index) });
  }
  if (branches) throw new Error(`unclosed '{' in '${glob}'`);
  return top;
}

const SLASH = 0x2f;

// The automaton's states. Built from the end of the glob backwards, so a state of an earlier item has a larger id.
interface State {
  readonly kind: 'char' | 'one' | 'star' | 'globstar' | 'split' | 'match';
  readonly code?: number;
  readonly next: number[];
  /** A `*` or `**` outside braces: the largest id it makes redundant when live (see the header). */
  floor?: number;
  readonly inBraces?: boolean;
}

function buildStates(items: Item[]): { states: State[]; start: number } {
  const states: State[] = [{ kind: 'match', next: [] }];
  const sequence = (list: readonly Item[], after: number, topLevel: boolean): number => {
    const add = (state: State) => states.push(topLevel ? state : { ...state, inBraces: true }) - 1;
    let next = after;
    for (let index = list.length - 1; index >= 0; index--) {
      const item = list[index]!;
      if (item.kind === 'char') next = add({ kind: 'char', code: item.code, next: [next] });
      else if (item.kind === 'one') next = add({ kind: 'one', next: [next] });
      else if (item.kind === 'star' || item.kind === 'globstar') {
        next = add({ kind: item.kind, next: [next], ...(topLevel && { floor: -1 }) });
      } else if (item.kind === 'dir-tail') {
        const rest = add({ kind: 'globstar', next: [next], floor: -1 });
        next = add({ kind: 'split', next: [next, add({ kind: 'char', code: SLASH, next: [rest] })] });
      } else if (item.kind === 'alt')
        next = add({ kind: 'split', next: item.branches.map((branch) => sequence(branch, next, false)) });
    }
    return next;
  };
  const start = sequence(items, 0, true);
  // A live `**` makes every earlier state redundant (every path from them runs through it); a live `*` those of the
  // same segment just before it (they reach it by characters it takes itself).
  for (let id = 1; id < states.length; id++) {
    const state = states[id]!;
    if (state.floor === undefined) continue;
    if (state.kind === 'globstar') state.floor = Number.MAX_SAFE_INTEGER;
    else {
      let floor = id;
      for (let earlier = id + 1; earlier < states.length; earlier++) {
        const { kind, code, next } = states[earlier]!;
        const segmentOnly = (kind === 'char' && code !== SLASH) || kind === 'one' || kind === 'star';
        if (!segmentOnly || next[0] !== earlier - 1) break;
        floor = earlier;
      }
      state.floor = floor;
    }
  }
  return { states, start };
}

export interface CompiledGlob {
  (path: string): boolean;
  /**
   * States that may stay live over many characters, a bound on the work per character: those inside braces (never
   * made redundant) and each `*` or `**` outside them.
   */
  readonly cost: number;
}

/** The glob as a predicate on a whole path; throws on an unclosed `{`. */
export function compileGlob(glob: string): CompiledGlob {
  const { states, start } = buildStates(parseGlob(glob));
  const cost = states.filter((state) => state.inBraces || state.floor !== undefined).length;
  const seen = new Int32Array(states.length).fill(-1);
  let round = 0;
  // The states live after an ε-closure from `id`, into `into` (each once a round).
  const enter = (id: number, into: number[]) => {
    if (seen[id] === round) return;
    seen[id] = round;
    const state = states[id]!;
    if (state.kind === 'split') for (const next of state.next) enter(next, into);
    else {
      into.push(id);
      if (state.kind === 'star' || state.kind === 'globstar') enter(state.next[0]!, into);
    }
  };
  const matches = (path: string) => {
    round++;
    let live: number[] = [];
    enter(start, live);
    for (let at = 0; at < path.length && live.length > 0; at++) {
      const code = path.charCodeAt(at);
      round++;
      const next: number[] = [];
      for (const id of prune(live, states)) {
        const state = states[id]!;
        if (state.kind === 'char' ? state.code === code : state.kind === 'one' ? code !== SLASH : false) {
          enter(state.next[0]!, next);
        } else if (state.kind === 'globstar' || (state.kind === 'star' && code !== SLASH)) enter(id, next);
      }
      live = next;
    }
    return live.includes(0);
  };
  return Object.assign(matches, { cost });
}

/** The live states without those a later live `*` or `**` makes redundant. */
function prune(live: number[], states: readonly State[]): number[] {
  if (live.length < 2) return live;
  live.sort((a, b) => a - b);
  const kept: number[] = [];
  let floor = -1;
  for (const id of live) {
    if (id <= floor) continue;
    kept.push(id);
    floor = Math.max(floor, states[id]!.floor ?? -1);
  }
  return kept;
}
