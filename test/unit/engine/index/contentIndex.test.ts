/**
 * The content index against brute force under random updates: after any sequence of files added,
 * replaced and removed, with seals and trips through the stored format in between, a trigram's
 * candidates are exactly the live files whose folded text holds it, several trigrams' those holding them
 * all (and a removed file is never found by path), and the ids of a list kept across the updates
 * (idsOf) are those of its paths now. The stored format itself: store.test.ts; the folding and the
 * posting encoding: fold.test.ts, postings.test.ts.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { ContentIndex, groupByKey, AGREED_AFTER, type FileEntry, type FileKind, type PostingBytes } from '../../../../src/engine/index/contentIndex';
import { ASCII_KEYS, foldText, trigramKeys } from '../../../../src/engine/index/fold';
import { EveryItem } from '../../../support/everyItem';
import { loadIndex, saveIndex } from '../../../../src/engine/index/store';
import { mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as nodePath from 'path';

const char = fc.constantFrom('a', 'b', 'A', 'B', 'k', 'K', '\u212a', '\u017f', 's', 'é', '日', '😀', '\n');
const text = fc.array(char, { maxLength: 30 }).map((chars) => chars.join(''));
const step = fc.oneof(
  fc.record({ op: fc.constant('set' as const), file: fc.nat(7), text }),
  fc.record({ op: fc.constant('remove' as const), file: fc.nat(7) }),
  fc.record({ op: fc.constant('seal' as const) }),
  fc.record({ op: fc.constant('flush' as const) }),
  fc.record({ op: fc.constant('store' as const) }),
  fc.record({ op: fc.constant('checkpoint' as const) }),
);

const META = { folders: ['/w'], maxFileSize: 1, builtAt: 0 };

/** The query of a literal: each of its trigrams. */
const query = (literal: string) => ({ op: 'and' as const, args: trigramKeys(foldText(literal)).map((key) => ({ op: 'trigram' as const, key })) });

/** Saves the index in `dir` (compacting when it asks for it, or never: a build's save half way) and opens it again from there. */
const roundTrip = (index: ContentIndex, dir: string, compact: boolean) => {
  saveIndex(dir, META, index, { compact });
  index.close();
  return loadIndex(dir)!.index;
};

/**
 * Histories checked: each stores the index a few times, and under Node for Windows in wine (npm test's
 * windows section) storing is many times slower than on Linux (2,000 histories ran past a minute there).
 */
const HISTORIES = process.platform === 'win32' ? 300 : 2000;

/** The kinds a file is set with, by its number. */
const KINDS: readonly FileKind[] = ['text', 'binary', 'text', 'large', 'unread', 'linked'];

describe('index: the content index under random updates', function () {
  this.timeout(60_000);
  it(`finds exactly the live files holding each trigram (${HISTORIES.toLocaleString('en-US')} random histories)`, () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), fc.array(fc.tuple(char, char, char), { minLength: 1, maxLength: 8 }), (steps, probes) => {
        let index = new ContentIndex();
        const dir = mkdtempSync(nodePath.join(tmpdir(), 'grep-tools-index-'));
        const truth = new Map<string, string>();
        const entries = new Map<string, FileEntry>();
        // One list asked about after every step (as a resident listing is, call after call), a file never indexed in it.
        const listed = [...Array.from({ length: 8 }, (_, i) => ({ path: `/f${7 - i}` })), { path: '/never' }];
        for (const s of steps) {
          if (s.op === 'set') {
            // (the table keeps kinds and stamps by id, in columns: each entry read back as it was set)
            const entry: FileEntry = {
              path: `/f${s.file}`,
              kind: KINDS[s.file % KINDS.length],
              size: s.text.length,
              mtimeMs: 1.5 + s.file,
              ctimeMs: 1e12 + s.text.length,
              ino: s.file,
            };
            index.set(entry, s.text);
            truth.set(entry.path, entry.kind === 'text' ? s.text : '');
            entries.set(entry.path, entry);
          } else if (s.op === 'remove') {
            index.remove(`/f${s.file}`);
            truth.delete(`/f${s.file}`);
            entries.delete(`/f${s.file}`);
          } else if (s.op === 'seal') {
            index.seal();
          } else if (s.op === 'flush') {
            index.flush();
          } else {
            index = roundTrip(index, dir, s.op === 'store');
            // The table names every segment file there is: a save removes those it no longer uses.
            assert.deepStrictEqual(
              readdirSync(dir)
                .filter((name) => name.startsWith('postings-'))
                .sort(),
              index
                .held()
                .segments.map((segment) => segment.name)
                .sort(),
            );
          }
          for (const [path, entry] of entries) {
            const id = index.idOf(path)!;
            assert.deepStrictEqual(index.entry(path)?.file, entry, `the entry of ${path} after ${s.op}`);
            assert.ok(index.stamped(id, entry) && !index.stamped(id, { ...entry, mtimeMs: entry.mtimeMs + 1 }), `the stamp of ${path} after ${s.op}`);
          }
          assert.deepStrictEqual(
            [...index.idsOf(listed)],
            listed.map(({ path }) => index.idOf(path) ?? -1),
            `ids after ${s.op}`,
          );
          // What it remembers of a query asked after every step is what the lists say now.
          const asked = { op: 'and' as const, args: probes.slice(0, 2).map((probe) => ({ op: 'trigram' as const, key: trigramKeys(probe.join(''))[0] })) };
          assert.deepStrictEqual(index.candidates(asked), index.evaluate(asked), `remembered candidates after ${s.op}`);
        }
        assert.deepStrictEqual([...index.paths()].sort(), [...truth.keys()].sort());
        for (const probe of probes) {
          const key = trigramKeys(probe.join(''))[0];
          const live = new Set([...truth.keys()].map((path) => index.entry(path)!.id));
          const found = index.evaluate({ op: 'trigram', key })!.filter((id) => live.has(id));
          const expected = [...truth]
            .filter(([, content]) => trigramKeys(content).includes(key))
            .map(([path]) => index.entry(path)!.id)
            .sort((a, b) => a - b);
          assert.deepStrictEqual(found, expected, `${JSON.stringify(probe)} in ${JSON.stringify([...truth])}`);
        }
        // Several trigrams at once (a probe's and those of each live file's text): the lists met shortest first, each walked (segments, then the unsealed ids) to keep what it holds too.
        const live = new Set([...truth.keys()].map((path) => index.idOf(path)!));
        for (const keys of [...truth.values()]
          .map((content) => [...new Set(trigramKeys(content))].slice(0, 4))
          .concat([probes.map((probe) => trigramKeys(probe.join(''))[0])])) {
          const all = index.evaluate({ op: 'and', args: keys.map((key) => ({ op: 'trigram' as const, key })) })?.filter((id) => live.has(id));
          const holdingAll = [...truth]
            .filter(([, content]) => keys.every((key) => trigramKeys(content).includes(key)))
            .map(([path]) => index.idOf(path)!)
            .sort((a, b) => a - b);
          // Never a file less; exactly those when there are too few lists for any to be left unread (settled).
          if (keys.length === 0) continue;
          if (keys.length <= AGREED_AFTER + 1) assert.deepStrictEqual(all, holdingAll, `all of ${JSON.stringify(keys)} in ${JSON.stringify([...truth])}`);
          else
            assert.ok(
              holdingAll.every((id) => all!.includes(id)),
              `all of ${JSON.stringify(keys)} in ${JSON.stringify([...truth])}: ${JSON.stringify(all)}`,
            );
        }
        index.close();
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: HISTORIES, seed: 20261123 },
    );
  });

  it("groups postings by key as a sort would: keys ascending, each key's ids ascending and once (property)", () => {
    const key = fc.oneof(
      fc.integer({ min: 0, max: ASCII_KEYS - 1 }),
      fc.integer({ min: ASCII_KEYS, max: 2 ** 30 - 1 }),
      fc.constantFrom(0, 1, 2048, ASCII_KEYS - 1),
    );
    fc.assert(
      fc.property(fc.array(fc.array(key, { maxLength: 12 }), { maxLength: 40 }), (files) => {
        // File i adds its keys with id i, in the order a build adds them (ids ascending; a key may repeat in a file).
        const postings = files.flatMap((keys, id) => keys.map((key) => [key, id] as const));
        const hashed = postings.some(([key]) => key >= ASCII_KEYS);
        const given = { keys: Uint32Array.from(postings.map(([key]) => key)), ids: Uint32Array.from(postings.map(([, id]) => id)) };
        const before = { keys: given.keys.slice(), ids: given.ids.slice() };
        const grouped = groupByKey(given.keys, given.ids, hashed);
        const expected = new Map<number, Set<number>>();
        for (const [key, id] of postings) expected.set(key, (expected.get(key) ?? new Set()).add(id));
        const keys = [...expected.keys()].sort((a, b) => a - b);
        assert.deepStrictEqual([...grouped.keys], keys);
        assert.strictEqual(grouped.starts.length, keys.length + 1);
        keys.forEach((key, i) =>
          assert.deepStrictEqual(
            [...grouped.ids.subarray(grouped.starts[i], grouped.starts[i + 1])],
            [...expected.get(key)!].sort((a, b) => a - b),
            `key ${key}`,
          ),
        );
        assert.deepStrictEqual(given, before, 'the postings given are left as they were');
      }),
      { numRuns: 500, seed: 20261127 },
    );
  });

  it('a tail grown past its first room, with non-ASCII trigrams among them, finds what the texts hold before and after a flush', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABé日 \n';
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 0x7fffffff);
    const texts = Array.from({ length: 300 }, () => Array.from({ length: 1500 }, () => alphabet[next() % alphabet.length]).join(''));
    const index = new ContentIndex();
    texts.forEach((content, i) => index.set({ path: `/f${i}`, kind: 'text', size: content.length, mtimeMs: 1, ctimeMs: 1, ino: i }, content));
    assert.ok(index.pendingPostings() > 1 << 17, `${index.pendingPostings()} postings`);
    const keysOf = texts.map((content) => new Set(trigramKeys(content)));
    const probes = [...new Set(texts.slice(0, 3).flatMap((content) => trigramKeys(content)))].filter((_, i) => i % 7 === 0);
    const expected = probes.map((key) => keysOf.flatMap((keys, id) => (keys.has(key) ? [id] : [])));
    const found = () => probes.map((key) => index.evaluate({ op: 'trigram', key }));
    assert.ok(probes.some((key) => key >= ASCII_KEYS) && probes.length > 100);
    assert.deepStrictEqual(found(), expected, 'from the tail');
    index.flush();
    assert.strictEqual(index.pendingPostings(), 0);
    assert.deepStrictEqual(found(), expected, 'from the flushed segment');
  });

  it('an ASCII text given as its bytes is indexed as the same text given as a string', () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)), maxLength: 60 });
    fc.assert(
      fc.property(fc.array(ascii, { minLength: 1, maxLength: 8 }), (texts) => {
        const [fromText, fromBytes] = [new ContentIndex(), new ContentIndex()];
        texts.forEach((content, i) => {
          const file = { path: `/f${i}`, kind: 'text' as const, size: content.length, mtimeMs: 1, ctimeMs: 1, ino: i };
          fromText.set(file, content);
          fromBytes.set(file, Buffer.from(content, 'latin1'));
        });
        for (const key of new Set(texts.flatMap((content) => trigramKeys(content))))
          assert.deepStrictEqual(fromBytes.evaluate({ op: 'trigram', key }), fromText.evaluate({ op: 'trigram', key }), JSON.stringify(texts));
        const [a, b] = [fromText.seal().postings, fromBytes.seal().postings];
        assert.deepStrictEqual([...b.keys], [...a.keys]);
        assert.deepStrictEqual(b.data.range(0, b.data.byteLength), a.data.range(0, a.data.byteLength));
      }),
      { numRuns: 500, seed: 20261127 },
    );
  });

  it("leaves a conjunction's longer lists unread once the rarest ones stopped narrowing, never losing a file", () => {
    // 200 files: 'handleFormat' in files 0-9, 'handle' and 'format' apart in most others; 'zqx' in file 3 only.
    const texts = Array.from({ length: 200 }, (_, i) => (i < 10 ? `x handleFormat ${i}` : `handle y format ${i}`) + (i === 3 ? ' zqx' : ''));
    const built = new ContentIndex();
    texts.forEach((content, i) => built.set({ path: `/f${i}`, kind: 'text', size: content.length, mtimeMs: 1, ctimeMs: 1, ino: i }, content));
    // Its sealed lists read through a counter, as a stored segment is read a list at a time.
    const { files, postings } = built.seal();
    let reads = 0;
    const counted: PostingBytes = { byteLength: postings.data.byteLength, range: (start, end) => (reads++, postings.data.range(start, end)) };
    const index = new ContentIndex(files, [{ ...postings, data: counted }]);
    const truth = (literal: string) => texts.flatMap((content, id) => (foldText(content).includes(foldText(literal)) ? [id] : []));

    // The rare trigrams across the words ('efo', 'lef', 'dle'...) leave files 0-9 at once; the frequent ones of
    // 'handle' and 'format' (in every file) then remove nothing: after AGREED_AFTER of them the rest are not walked.
    reads = 0;
    assert.deepStrictEqual(index.evaluate(query('handleFormat')), truth('handleFormat'));
    assert.ok(reads < trigramKeys('handleformat').length, `${reads} lists read of ${trigramKeys('handleformat').length}`);

    // The rarest list is read first wherever it stands in the conjunction: 'zqx' (one file) after the frequent ones.
    assert.deepStrictEqual(index.evaluate({ op: 'and', args: [...query('handle').args, ...query('format').args, ...query('zqx').args] }), [3]);
  });

  it('idsOfInSlices gives the ids idsOf gives, a slice at a time; an index changed between two slices gives the ids it has after', async () => {
    const index = new ContentIndex();
    const file = (i: number) => ({ path: `/f${i}`, kind: 'text' as const, size: 3, mtimeMs: 1, ctimeMs: 1, ino: i });
    for (let i = 0; i < 5; i++) index.set(file(i), 'abc');
    const listed = [{ path: '/f3' }, { path: '/none' }, { path: '/f0' }];
    const slices = new EveryItem();
    assert.deepStrictEqual([...(await index.idsOfInSlices(listed, slices))], [3, -1, 0]);
    assert.strictEqual(slices.pauses, 3);
    // After the first file's id was worked out, a file is removed and the ids renumbered (/f4: 4, then 3).
    const other = [{ path: '/f4' }, { path: '/f2' }, { path: '/f1' }];
    const changing: EveryItem = new EveryItem(() => {
      if (changing.pauses !== 2) return;
      index.remove('/f2');
      index.seal();
    });
    const ids = [...(await index.idsOfInSlices(other, changing))];
    assert.deepStrictEqual(ids, [3, -1, 1]);
    assert.deepStrictEqual([...index.idsOf(other)], ids, 'and idsOf gives them after');
  });

  it('never loses a file of a conjunction, however its lists narrow (property)', () => {
    const few = fc.constantFrom('a', 'b', 'c', 'A');
    fc.assert(
      fc.property(
        fc.array(
          fc.array(few, { maxLength: 60 }).map((c) => c.join('')),
          { minLength: 1, maxLength: 40 },
        ),
        fc.array(fc.tuple(few, few, few), { minLength: 1, maxLength: 12 }),
        (texts, probes) => {
          const index = new ContentIndex();
          texts.forEach((content, i) => index.set({ path: `/f${i}`, kind: 'text', size: content.length, mtimeMs: 1, ctimeMs: 1, ino: i }, content));
          if (texts.length > 20) index.seal();
          const keys = [...new Set(probes.map((probe) => trigramKeys(probe.join(''))[0]))];
          const found = index.evaluate({ op: 'and', args: keys.map((key) => ({ op: 'trigram' as const, key })) })!;
          const holding = texts.flatMap((content, id) => (keys.every((key) => trigramKeys(content).includes(key)) ? [id] : []));
          assert.ok(
            holding.every((id) => found.includes(id)),
            `${JSON.stringify(holding)} not all in ${JSON.stringify(found)}`,
          );
          // Whatever it keeps holds the rarest trigram at least (the first list is always read).
          assert.ok(found.every((id) => keys.some((key) => trigramKeys(texts[id]).includes(key))));
        },
      ),
      { numRuns: 1000, seed: 20261125 },
    );
  });
});
