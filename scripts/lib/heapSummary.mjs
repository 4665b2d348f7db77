// What holds a V8 heap snapshot (.heapsnapshot, as v8.writeHeapSnapshot writes it): its nodes grouped by
// kind (an object's constructor, a string's or an array's kind), with their count and their own size,
// largest first. Read from the file's bytes, not as one JSON string: a large host's snapshot is over
// the longest string V8 allows.
import { readFileSync } from 'node:fs';

/** The index just after `"key":[` in `bytes`, from `from` on. */
function arrayStart(bytes, key, from = 0) {
  const at = bytes.indexOf(`"${key}":[`, from, 'latin1');
  if (at < 0) throw new Error(`${key} is not in the heap snapshot`);
  return at + key.length + 4;
}

/** The numbers of a JSON array of integers starting at `at`; calls `take(number)` for each. Returns the index after `]`. */
function readIntegers(bytes, at, take) {
  let value = 0;
  let inNumber = false;
  for (; ; at++) {
    const c = bytes[at];
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) take(value);
      value = 0;
      inNumber = false;
      if (c === 93) return at + 1; // ]
    }
  }
}

/** The strings of a JSON array of strings starting at `at`. */
function readStrings(bytes, at) {
  const strings = [];
  for (;;) {
    while (bytes[at] !== 34 && bytes[at] !== 93) at++;
    if (bytes[at] === 93) return strings;
    let end = at + 1;
    while (bytes[end] !== 34) end += bytes[end] === 92 ? 2 : 1;
    strings.push(JSON.parse(bytes.toString('utf8', at, end + 1)));
    at = end + 1;
  }
}

/** [{ kind, count, bytes }] of the snapshot at `file`, largest own size first, and the heap's total. */
export function heapSummary(file) {
  const bytes = readFileSync(file);
  const head = JSON.parse(
    bytes.toString('utf8', bytes.indexOf('{"snapshot":', 0, 'latin1') + 12, arrayStart(bytes, 'nodes') - '"nodes":['.length).replace(/[\s,]+$/, ''),
  );
  const { node_fields: fields, node_types: types } = head.meta;
  const typeNames = types[fields.indexOf('type')];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const nodes = [];
  let row = [];
  const after = readIntegers(bytes, arrayStart(bytes, 'nodes'), (n) => {
    row.push(n);
    if (row.length === fields.length) {
      nodes.push(row[typeAt], row[nameAt], row[sizeAt]);
      row = [];
    }
  });
  const strings = readStrings(bytes, arrayStart(bytes, 'strings', after));
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += 3) {
    const type = typeNames[nodes[i]];
    const kind =
      type === 'object' || type === 'native' ? strings[nodes[i + 1]] : type === 'array' || type === 'hidden' ? `${type} ${strings[nodes[i + 1]]}` : type;
    const group = groups.get(kind) ?? { kind, count: 0, bytes: 0 };
    group.count++;
    group.bytes += nodes[i + 2];
    total += nodes[i + 2];
    groups.set(kind, group);
  }
  return { total, nodes: nodes.length / 3, groups: [...groups.values()].sort((a, b) => b.bytes - a.bytes) };
}
