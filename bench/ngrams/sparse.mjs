// Sparse n-grams (GitHub's code search, Cursor's local index), a prototype for bench/ngrams.mjs: a weight
// per pair of adjacent (folded) characters, rarer pairs weigh more; a substring of at least 3 characters
// is a sparse n-gram when the pairs at both its ends weigh more than every pair inside it. Whether a
// string is one depends on its own characters only, so a file holding a literal holds every sparse n-gram
// of the literal: a query needs only the literal's maximal ones (the covering set), and a file's grams
// are all its sparse n-grams (every trigram among them), up to MAX_GRAM characters.

export const MAX_GRAM = Number(process.env.BENCH_NGRAMS_MAX_GRAM || 12);

/** Pair counts: ASCII pairs exact, the others hashed into a table. */
export class PairWeights {
  counts = new Float64Array(1 << 16);
  slot(a, b) {
    if ((a | b) < 128) return (a << 7) | b;
    return 16384 + (((Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> 0) % (65536 - 16384));
  }
  addText(folded) {
    for (let i = 1; i < folded.length; i++) this.counts[this.slot(folded.charCodeAt(i - 1), folded.charCodeAt(i))]++;
  }
  /** The weights: rarer is heavier; a fixed tie-break per slot keeps them distinct between pairs. */
  seal() {
    this.weights = new Float64Array(1 << 16);
    for (let s = 0; s < this.weights.length; s++) this.weights[s] = -this.counts[s] - ((Math.imul(s, 0x2c1b3c6d) >>> 0) % 65536) / 65536 / 2;
  }
  pairs(folded) {
    const w = new Float64Array(Math.max(0, folded.length - 1));
    for (let i = 1; i < folded.length; i++) w[i - 1] = this.weights[this.slot(folded.charCodeAt(i - 1), folded.charCodeAt(i))];
    return w;
  }
}

/** Calls visit(start, end) (end exclusive) for every sparse n-gram of the folded text. */
export function forEachSparse(folded, w, visit) {
  const n = folded.length;
  for (let i = 0; i + 2 < n + 0; i++) {
    // pairs i .. j-2 for the gram [i, j): its end pairs are i and j-2, its inner ones i+1 .. j-3
    let inner = -Infinity;
    for (let j = i + 3; j <= n && j - i <= MAX_GRAM; j++) {
      if (j - i > 3) inner = Math.max(inner, w[j - 3]);
      if (inner >= w[i]) break;
      if (w[j - 2] > inner) visit(i, j);
    }
  }
}

/** The maximal sparse n-grams of a folded literal (each other gram lies inside one of them: implied). */
export function covering(folded, weights) {
  const w = weights.pairs(folded);
  const grams = [];
  forEachSparse(folded, w, (i, j) => grams.push([i, j]));
  const maximal = grams.filter(([i, j]) => !grams.some(([a, b]) => a <= i && b >= j && b - a > j - i));
  return [...new Set(maximal.map(([i, j]) => folded.slice(i, j)))];
}

/** FNV-1a of the folded units [i, j), never 0. */
export function gramHash(folded, i, j) {
  let h = 0x811c9dc5;
  for (let k = i; k < j; k++) h = Math.imul(h ^ folded.charCodeAt(k), 0x01000193);
  return h >>> 0 || 1;
}

const varintBytes = (delta) => (delta < 0x80 ? 1 : delta < 0x4000 ? 2 : delta < 0x200000 ? 3 : 4);

/**
 * The size a sparse n-gram index of these texts would take: distinct keys, postings (file, gram), and
 * the delta-varint bytes of the lists, by an open-addressing table keyed by the gram's hash (a collision
 * of two grams' hashes merges them: a slight under-count).
 */
export class SparseSizer {
  constructor(bits = 25) {
    this.mask = (1 << bits) - 1;
    this.keys = new Uint32Array(1 << bits);
    this.last = new Int32Array(1 << bits);
    this.keyCount = 0;
    this.postings = 0;
    this.bytes = 0;
    this.longer = 0;
    this.trigramBytes = 0;
  }
  addFile(id, folded, w) {
    forEachSparse(folded, w, (i, j) => {
      const h = gramHash(folded, i, j);
      let s = h & this.mask;
      while (this.keys[s] !== 0 && this.keys[s] !== h) s = (s + 1) & this.mask;
      if (this.keys[s] === 0) {
        if (this.keyCount > this.mask * 0.85) throw new Error('sparse sizer table full: raise its bits');
        this.keys[s] = h;
        this.last[s] = -1;
        this.keyCount++;
      }
      if (this.last[s] === id) return;
      const size = varintBytes(id - this.last[s] - 1);
      this.bytes += size;
      if (j - i === 3) this.trigramBytes += size;
      this.last[s] = id;
      this.postings++;
      if (j - i > 3) this.longer++;
    });
  }
}
