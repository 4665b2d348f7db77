/**
 * The guard's path decisions under both path flavours, whatever platform runs the test: `path.posix` and
 * `path.win32` (docs/platforms.md). The table of hostile Windows spellings is read from that page.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { InputError } from '../../../../src/engine/api/errors';
import { windowsCanonical } from '../../../../src/engine/globset/globs';
import { below, innermost, isInside, relativePosix, type PathFlavour } from '../../../../src/engine/guard/paths';
import { resolveBases, type WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { deniedFromTop, deniedPathRule, judgeReal, policyRoot } from '../../../../src/engine/guard/scope';

const repoRoot = nodePath.resolve(__dirname, '../../../../..');
const rules = [...DEFAULT_DENIED_PATHS];

interface Row {
  index: number;
  spelling: string;
  by: 'name' | 'real path' | 'input';
  real: string;
}

/** The rows of the table "Hostile Windows spellings of denied files" in docs/platforms.md. */
function hostileSpellings(): Row[] {
  const text = fs.readFileSync(nodePath.join(repoRoot, 'docs', 'platforms.md'), 'utf8');
  const section = text.slice(text.indexOf('## Hostile Windows spellings'));
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = /^\| (\d+) \| `(.+?)` \| .+? \| (name|real path|input) \|\s*`?(.*?)`?\s*\|$/.exec(line);
    if (cells) rows.push({ index: Number(cells[1]), spelling: cells[2], by: cells[3] as Row['by'], real: cells[4] });
  }
  return rows;
}

/** Whether the guard refuses `path` by its name alone (decide's step 1), under `flavour`. */
async function refusedByName(path: string, folders: WorkspaceFolder[], flavour: PathFlavour): Promise<string | undefined> {
  const bases = await resolveBases(path, folders, async () => false, flavour).catch((error: Error) => error);
  if (bases instanceof InputError) return `input: ${bases.message}`;
  if (bases instanceof Error) throw bases;
  const [base] = bases;
  return deniedPathRule(base.base, policyRoot(base, flavour), rules, flavour) ?? deniedFromTop(base.base, rules, flavour);
}

describe('path decisions under path.posix and path.win32', () => {
  const flavours: Array<[string, PathFlavour, string]> = [
    ['posix', nodePath.posix, '/home/dev/ws'],
    ['win32', nodePath.win32, 'C:\\Users\\dev\\ws'],
  ];

  for (const [name, flavour, ws] of flavours) {
    describe(name, () => {
      const sep = flavour.sep;
      it('spells a path below a folder with its separator, and relates it back with /', () => {
        const file = below(ws, 'src/lib/a.ts', flavour);
        assert.strictEqual(file, [ws, 'src', 'lib', 'a.ts'].join(sep));
        assert.strictEqual(relativePosix(ws, file, flavour), 'src/lib/a.ts');
        assert.strictEqual(below(flavour.parse(ws).root, 'x', flavour), `${flavour.parse(ws).root}x`);
      });

      it('finds the innermost folder, and nothing outside', () => {
        const inner = `${ws}${sep}packages${sep}app`;
        assert.strictEqual(innermost(`${inner}${sep}a.ts`, [ws, inner], flavour), 1);
        assert.strictEqual(innermost(`${ws}-other${sep}a.ts`, [ws, inner], flavour), -1);
        assert.ok(isInside(ws, ws, flavour));
        assert.ok(!isInside(flavour.dirname(ws), ws, flavour));
      });

      it('resolves a relative path into the folder with its separator', async () => {
        const [base] = await resolveBases('src/a.ts', [{ name: 'ws', path: ws }], async () => true, flavour);
        assert.deepStrictEqual(base, { root: ws, base: [ws, 'src', 'a.ts'].join(sep), folderIndex: 0 });
      });

      it('refuses a denied file under every spelling that names it (property)', async () => {
        const folders = [{ name: 'ws', path: ws }];
        const denied = ['.env', '.ssh/id_rsa', 'secrets/token.txt', 'config/.aws/credentials', '.git/config'];
        const spelling = fc.record({
          target: fc.constantFrom(...denied),
          upper: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
          separators: fc.array(fc.constantFrom(...(sep === '\\' ? ['\\', '/'] : ['/'])), { minLength: 8, maxLength: 8 }),
          detour: fc.constantFrom('', './', 'src/../', 'a/b/../../'),
          absolute: fc.constantFrom(
            ...(sep === '\\' ? ['', `${ws}\\`, `\\\\?\\${ws}\\`, `${ws.toLowerCase()}/`, `\\\\localhost\\C$${ws.slice(2)}\\`] : ['', `${ws}/`, `${ws}//`]),
          ),
          trailing: fc.constantFrom(...(sep === '\\' ? ['', '.', ' ', '. .', '::$DATA', ':x'] : [''])),
        });
        await fc.assert(
          fc.asyncProperty(spelling, async ({ target, upper, separators, detour, absolute, trailing }) => {
            let cased = [...`${detour}${target}`].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');
            let n = 0;
            cased = cased.replace(/\//g, () => separators[n++ % separators.length]);
            const path = `${absolute}${cased}${trailing}`;
            assert.ok((await refusedByName(path, folders, flavour)) !== undefined, `${path} is refused`);
          }),
          { numRuns: 300 },
        );
      });
    });
  }

  describe('the hostile Windows spellings of docs/platforms.md, under path.win32', () => {
    const rows = hostileSpellings();
    const ws = 'C:\\Users\\dev\\ws';
    const folders = [{ name: 'ws', path: ws }];

    it('lists at least 30 spellings, numbered in order', () => {
      assert.ok(rows.length >= 30, `${rows.length} rows`);
      assert.deepStrictEqual(
        rows.map((row) => row.index),
        rows.map((_, i) => i + 1),
      );
    });

    for (const row of rows) {
      it(`#${row.index} ${JSON.stringify(row.spelling)} is refused by its ${row.by}`, async () => {
        if (row.by === 'input') {
          assert.match((await refusedByName(row.spelling, folders, nodePath.win32)) ?? '', /^input: Invalid "path"/);
        } else if (row.by === 'name') {
          assert.ok(!(await refusedByName(row.spelling, folders, nodePath.win32))?.startsWith('input:'));
          assert.ok((await refusedByName(row.spelling, folders, nodePath.win32)) !== undefined);
        } else {
          // Not refused by name (the file system resolves it), so the real path must be.
          assert.strictEqual(await refusedByName(row.spelling, folders, nodePath.win32), undefined, 'judged by where it leads');
          const scope = { granted: [ws], denied: rules };
          assert.notStrictEqual(judgeReal(row.real, scope, false, nodePath.win32), undefined);
          assert.notStrictEqual(judgeReal(row.real, scope, true, nodePath.win32), undefined);
        }
      });
    }
  });

  it('reads a Windows name alias as the name it stands for', () => {
    assert.strictEqual(windowsCanonical('.env. .'), '.env');
    assert.strictEqual(windowsCanonical('a/.env::$DATA'), 'a/.env');
    assert.strictEqual(windowsCanonical('.ssh:x/id_rsa'), '.ssh/id_rsa');
    assert.strictEqual(windowsCanonical('../src/./a.ts'), '../src/./a.ts');
  });
});
