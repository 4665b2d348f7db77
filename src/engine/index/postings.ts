/**
 * Posting lists: sorted file ids, stored as delta-varints (7 bits a byte), and the set operations a
 * query needs on decoded lists.
 */

/** Where encoded bytes go, one at a time; `length` counts them. */
export interface ByteSink {
  push(byte: number): void;
  readonly length: number;
}

/** A growing byte array. */
export class ByteWriter implements ByteSink {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  push(byte: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** Appends the delta-varint encoding of `ids` (sorted, distinct) to `out`. */
export function encodeIds(ids: ArrayLike<number>, out: ByteSink): void {
  let previous = -1;
  for (let i = 0; i < ids.length; i++) {
    let delta = ids[i] - previous - 1;
    previous = ids[i];
    while (delta >= 0x80) {
      out.push((delta & 0x7f) | 0x80);
      delta >>>= 7;
    }
    out.push(delta);
  }
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
