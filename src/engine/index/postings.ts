/**
 * Posting lists: sorted file ids, stored as delta-varints (7 bits a byte), and the set operations a
 * query needs on decoded lists.
 */

/** Where encoded bytes go, one at a time or a run at a time; `length` counts them. */
export interface ByteSink {
  push(byte: number): void;
  append(bytes: Uint8Array): void;
  readonly length: number;
}

/** A growing byte array. */
export class ByteWriter implements ByteSink {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  push(byte: number): void {
    if (this.length === this.bytes.length) this.grow(this.length + 1);
    this.bytes[this.length++] = byte;
  }

  append(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.bytes.length) this.grow(this.length + bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  private grow(atLeast: number): void {
    let size = this.bytes.length * 2;
    while (size < atLeast) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** Appends the delta-varint encoding of `ids` (sorted, distinct) to `out`. */
export function encodeIds(ids: ArrayLike<number>, out: ByteSink): void {
  let previous = -1;
  for (let i = 0; i < ids.length; i++) {
    pushVarint(ids[i] - previous - 1, out);
    previous = ids[i];
  }
}

function pushVarint(value: number, out: ByteSink): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
}

/**
 * Appends an encoded list (`data`, every id larger than `after`) to `out` as the continuation of a list
 * whose last id is `after` (-1: none): only its first delta is encoded again, the rest is copied. Returns
 * its last id when `last` is asked for (the list is walked for it), else undefined.
 */
export function appendContinued(data: Uint8Array, after: number, out: ByteSink, last: boolean): number | undefined {
  if (data.length === 0) return after;
  const cursor = { at: 0, id: -1 };
  const first = readId(data, cursor);
  pushVarint(first - after - 1, out);
  out.append(data.subarray(cursor.at));
  if (!last) return undefined;
  while (cursor.at < data.length) readId(data, cursor);
  return cursor.id;
}

/** A place in an encoded list: the next byte to read, and the last id read (-1 before the first). */
interface IdCursor {
  at: number;
  id: number;
}

/** The next id of an encoded list (there is one at `cursor.at`); the cursor moves past it. */
function readId(data: Uint8Array, cursor: IdCursor): number {
  let byte = data[cursor.at++];
  let delta = byte & 0x7f;
  for (let scale = 0x80; byte & 0x80; scale *= 0x80) {
    byte = data[cursor.at++];
    delta += (byte & 0x7f) * scale;
  }
  return (cursor.id += delta + 1);
}

/** Decodes the ids stored in data[start, end), appended to `out`. */
export function decodeIds(data: Uint8Array, start: number, end: number, out: number[] = []): number[] {
  const cursor = { at: start, id: -1 };
  while (cursor.at < end) out.push(readId(data, cursor));
  return out;
}

/**
 * The ids of `sorted`, from position `from` on, that the list encoded in data[start, end) holds too,
 * appended to `out` (the list is walked, never decoded into an array); returns the position in `sorted`
 * reached, for a list continued in another range whose ids are all larger.
 */
export function keepListed(sorted: readonly number[], from: number, data: Uint8Array, start: number, end: number, out: number[]): number {
  let j = from;
  const cursor = { at: start, id: -1 };
  while (cursor.at < end && j < sorted.length) {
    const id = readId(data, cursor);
    while (j < sorted.length && sorted[j] < id) j++;
    if (sorted[j] === id) out.push(sorted[j++]);
  }
  return j;
}

export function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}

export function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}
