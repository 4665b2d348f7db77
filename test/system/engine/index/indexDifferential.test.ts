/**
 * Index on against index off: the same answer, to the byte, over the differential
 * table (every output mode and a second page), the agent questions on their fixture, and random trees
 * after random edits (content changed with or without a change of size, files created, deleted and
 * renamed, a .gitignore written) made after the index was built. The index must also have settled
 * files without reading them, or the comparison would prove nothing.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import type { ListingSource } from '../../../../src/engine/index/listing';
import { buildWorkspaceIndex, openWorkspaceIndex } from '../../../../src/engine/run/workspaceIndex';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { renderGrep } from '../../../../src/engine/answer/printer';
import type { GrepInput } from '../../../../src/engine/api/types';
import { checkedFileSize } from '../../../../src/engine/api/config';
import { compileMatcher } from '../../../../src/engine/matcher/matcher';
import { Fixture, makeEnv } from '../../../unit/fixture';
import { DIFFERENTIAL_TABLE, writeDifferentialTree } from '../run/differentialTable';
import { age } from '../../../unit/engine/index/age';

async function answer(input: GrepInput, env: SearchEnvironment): Promise<{ text: string; settled: number }> {
  const report = await answerGrep(input, env);
  const text = await renderGrep(report, byteBudget(env.config.maxOutputBytes));
  return { text, settled: report.indexed?.settled ?? 0 };
}

const MODES: Array<Partial<GrepInput>> = [
  {},
  { output_mode: 'count' },
  { output_mode: 'files_with_matches' },
  { max_results: 2, offset: 1 },
  { context_lines: 1 },
];

describe('index: answers with and without the index are identical', function () {
  this.timeout(120_000);
  let pool: SearchPool;
  const indexDirs: string[] = [];
  const indexDir = () => {
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-index-'));
    indexDirs.push(dir);
    return dir;
  };
  before(() => (pool = new SearchPool(2)));
  const opened: Array<{ close(): void }> = [];
  after(() => {
    for (const index of opened) index.close();
    pool.dispose();
    for (const dir of indexDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Both environments over one workspace, the index built (after the tree settled) in a directory outside it. */
  async function environments(
    root: string,
    config: Partial<SearchEnvironment['config']> = {},
  ): Promise<{ off: SearchEnvironment; on: SearchEnvironment; source: ListingSource }> {
    const plain = makeEnv(root);
    const off: SearchEnvironment = { ...plain, config: { ...plain.config, ...config }, pool };
    const dir = indexDir();
    await buildWorkspaceIndex(off, dir);
    const index = openWorkspaceIndex(dir, [root], new NodeFileSource());
    assert.ok(index, 'the index was stored and opened');
    opened.push(index);
    return { off, on: { ...off, index: index.index, source: index.source }, source: index.source };
  }

  it('over the differential table, in every output mode and on a second page', async () => {
    const fx = new Fixture('grep-tools-index-diff-');
    try {
      writeDifferentialTree(fx);
      age(fx.root);
      const { off, on, source } = await environments(fx.root);
      const extra: GrepInput[] = [
        { pattern: 'haystack' },
        { pattern: 'テキスト' },
        { pattern: 'STRASSE', case_insensitive: true },
        { pattern: 'no such text anywhere' },
        { pattern: 'Needle\\(', include: '*.ts' },
      ];
      let settled = 0;
      for (const input of [...DIFFERENTIAL_TABLE, ...extra]) {
        for (const mode of MODES) {
          const call = { ...input, ...mode };
          const withIndex = await answer(call, on);
          assert.strictEqual(withIndex.text, (await answer(call, off)).text, JSON.stringify(call));
          settled += withIndex.settled;
        }
      }
      assert.ok(settled > 100, `the index settled ${settled} files without reading them`);
      assert.ok(source.replayed > 50, `the recorded listing was replayed ${source.replayed} times`);
    } finally {
      fx.remove();
    }
  });

  it('over the agent questions on their fixture', async () => {
    const repoRoot = nodePath.resolve(__dirname, '../../../../..');
    const questions = (
      JSON.parse(fs.readFileSync(nodePath.join(repoRoot, 'test', 'fixtures', 'agent-questions.json'), 'utf8')) as {
        questions: Array<{ tool: string; input: GrepInput }>;
      }
    ).questions.filter((question) => question.tool === 'grep');
    const fx = new Fixture('grep-tools-index-agent-');
    try {
      fs.cpSync(nodePath.join(repoRoot, 'test', 'fixtures', 'agent-repo'), fx.root, { recursive: true });
      age(fx.root);
      const { off, on } = await environments(fx.root);
      let settled = 0;
      for (const question of questions) {
        const withIndex = await answer(question.input, on).catch((error: Error) => ({ text: `error: ${error.message}`, settled: 0 }));
        const without = await answer(question.input, off).catch((error: Error) => ({ text: `error: ${error.message}`, settled: 0 }));
        assert.strictEqual(withIndex.text, without.text, JSON.stringify(question.input));
        settled += withIndex.settled;
      }
      assert.ok(questions.length >= 5 && settled > 0, `${questions.length} questions, ${settled} files settled by the index`);
    } finally {
      fx.remove();
    }
  });

  const word = fc.constantFrom('alpha', 'Beta', 'gamma', 'TODO', 'needle', 'naïve', 'Straße', '日本', '\u212aelvin', 'x', '\n', ' ', '\r\n', '(', '0');
  const content = fc.array(word, { maxLength: 5 }).map((words) => words.join(''));
  const name = fc.constantFrom('a.ts', 'b.md', 'src/c.ts', 'src/d.txt', 'lib/e.js', 'lib/deep/f.ts', 'g.log', '.env');
  const edit = fc.oneof(
    fc.record({ op: fc.constant('write' as const), name, content }),
    fc.record({ op: fc.constant('same-size' as const), name }),
    fc.record({ op: fc.constant('delete' as const), name }),
    fc.record({ op: fc.constant('rename' as const), name, to: name }),
    fc.record({ op: fc.constant('gitignore' as const), content: fc.constantFrom('*.log\n', 'lib/\n', '*.md\n!b.md\n', '') }),
    fc.record({ op: fc.constant('link' as const), name, to: fc.oneof(name, fc.constant('node_modules/dep.ts')) }),
    fc.record({ op: fc.constant('unlink-target' as const) }),
  );
  const query = fc.oneof(
    word.filter((w) => w.trim().length > 0).map((pattern) => ({ pattern, fixed_strings: true })),
    fc.record({
      pattern: fc.constantFrom('alpha|gamma', 'TODO\\s*\\w+', 'ki', 'STRASSE', 'naïve', '\\w+ta'),
      case_insensitive: fc.boolean(),
      output_mode: fc.constantFrom('content' as const, 'count' as const),
    }),
  );

  it('a file over maxFileSize is indexed too, so the check of an empty answer settles it without reading it', async () => {
    const fx = new Fixture('grep-tools-index-large-');
    try {
      fx.files({ 'small.ts': 'alpha\n', 'big.ts': `${'filler line\n'.repeat(40)}beta in a big file\n` });
      age(fx.root);
      const { off, on } = await environments(fx.root, { maxFileSize: 100 });
      for (const pattern of ['beta', 'nowhere']) {
        const input = { pattern, fixed_strings: true };
        const withIndex = await answer(input, on);
        assert.strictEqual(withIndex.text, (await answer(input, off)).text, pattern);
        assert.match(withIndex.text, /skipped as over grepTools.maxFileSize/);
      }
      // What the search and its check are told about big.ts before reading it:
      const judge = (pattern: string, maxFileSize: number) =>
        on.index!.prejudge({ matcher: compileMatcher(pattern, { fixed_strings: true }), invert: false, maxFileSize })?.(fx.path('big.ts'));
      assert.strictEqual(judge('nowhere', 100), 'too_large');
      assert.strictEqual(judge('nowhere', checkedFileSize(100)), 0, 'the check settles it: no read');
      assert.strictEqual(judge('beta', checkedFileSize(100)), undefined, 'a candidate is read');
    } finally {
      fx.remove();
    }
  });

  it("holds the files searches leave out while they are at most as many again: an empty answer's check replays their listing and reads none of them", async () => {
    const fx = new Fixture('grep-tools-index-ignored-');
    try {
      fx.files({
        '.gitignore': '*.log\n',
        'src/a.ts': 'alpha\n',
        'src/b.ts': 'beta\n',
        'node_modules/dep/x.js': 'gamma in a dependency\n',
        'build.log': 'gamma in a log\n',
      });
      age(fx.root);
      const { off, on, source } = await environments(fx.root);
      const settled = (pattern: string, path: string) =>
        on.index!.prejudge({
          matcher: compileMatcher(pattern, { fixed_strings: true }),
          invert: false,
          maxFileSize: checkedFileSize(off.config.maxFileSize),
        })?.(fx.path(path));
      for (const input of [{ pattern: 'gamma' }, { pattern: 'nowhere' }, { pattern: 'gamma', include_ignored: true }]) {
        const withIndex = await answer(input, on);
        assert.strictEqual(withIndex.text, (await answer(input, off)).text, JSON.stringify(input));
      }
      assert.match((await answer({ pattern: 'gamma' }, on)).text, /include_ignored/);
      assert.strictEqual(settled('nowhere', 'node_modules/dep/x.js'), 0, 'an ignored file is settled without reading it');
      assert.strictEqual(settled('nowhere', 'build.log'), 0);
      const replayed = source.replayed;
      await answer({ pattern: 'nowhere', include_ignored: true }, on);
      assert.ok(source.replayed > replayed, 'the include_ignored listing was replayed, not walked');
      // Ignored files more than as many again as the searched ones: not held, and the same answers.
      for (let i = 0; i < 5; i++) fx.write(`node_modules/many/f${i}.js`, 'gamma\n');
      age(fx.root);
      const more = await environments(fx.root);
      assert.strictEqual(await answer({ pattern: 'gamma' }, more.on).then((found) => found.text), (await answer({ pattern: 'gamma' }, more.off)).text);
      assert.strictEqual(
        more.on.index!.prejudge({ matcher: compileMatcher('nowhere', { fixed_strings: true }), invert: false, maxFileSize: 1 << 20 })?.(
          fx.path('node_modules/dep/x.js'),
        ),
        undefined,
        'not in the index: read',
      );
    } finally {
      fx.remove();
    }
  });

  it('over random trees after random edits made once the index was built', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(name, content, { maxKeys: 8 }),
        fc.array(edit, { maxLength: 6 }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        async (tree, edits, queries) => {
          const fx = new Fixture('grep-tools-index-random-');
          try {
            // A file in a directory no search lists (node_modules), which a link may lead to.
            fx.files({ '.gitignore': 'g.log\n', 'node_modules/dep.ts': 'alpha in a dependency', ...tree });
            fx.symlink(fx.path('node_modules/dep.ts'), 'link.ts');
            age(fx.root);
            const { off, on } = await environments(fx.root);
            for (const change of edits) {
              const path = change.op === 'gitignore' ? fx.path('.gitignore') : change.op === 'unlink-target' ? '' : fx.path(change.name);
              if (change.op === 'write' || change.op === 'gitignore') fx.write(change.op === 'write' ? change.name : '.gitignore', change.content);
              else if (change.op === 'unlink-target') fs.rmSync(fx.path('node_modules/dep.ts'), { force: true });
              else if (!fs.existsSync(path)) continue;
              else if (change.op === 'same-size')
                fs.writeFileSync(
                  path,
                  fs.readFileSync(path, 'utf8').replace(/alpha|gamma/g, (w) => (w === 'alpha' ? 'gamma' : 'alpha')),
                );
              else if (change.op === 'delete') fs.rmSync(path);
              else if (change.op === 'link') {
                fs.rmSync(path);
                fs.symlinkSync(fx.path(change.to), path);
              } else if (change.op === 'rename') {
                fs.mkdirSync(nodePath.dirname(fx.path(change.to)), { recursive: true });
                fs.renameSync(path, fx.path(change.to));
              }
            }
            for (const input of queries) {
              const withIndex = await answer(input, on);
              assert.strictEqual(withIndex.text, (await answer(input, off)).text, JSON.stringify({ input, tree, edits }));
            }
          } finally {
            fx.remove();
          }
        },
      ),
      {
        numRuns: 60,
        seed: 20261123,
        // Besides the random ones: a file rewritten at the same size, and one renamed over a file of the same size and times.
        examples: [
          [{ 'a.ts': 'gamma' }, [{ op: 'same-size', name: 'a.ts' }], [{ pattern: 'alpha', fixed_strings: true }]],
          [{ 'a.ts': 'alpha', 'b.md': 'gamma' }, [{ op: 'rename', name: 'a.ts', to: 'b.md' }], [{ pattern: 'alpha', fixed_strings: true }]],
          [{ 'g.log': 'alpha' }, [{ op: 'gitignore', content: '' }], [{ pattern: 'alpha', fixed_strings: true }]],
          [{ 'a.ts': 'alpha' }, [{ op: 'unlink-target' }], [{ pattern: 'alpha', fixed_strings: true }]],
        ],
      },
    );
  });
});
