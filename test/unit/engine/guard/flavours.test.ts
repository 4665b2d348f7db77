/**
 * The guard's whole decision (`decide`, `authorize`, the not-found hint, untitled editors, absolute
 * globs) under the path flavour it is given, `path.posix`, `path.win32` or `darwinPath`, whatever platform
 * runs the test: the file system is a fake one that answers as that platform's would (on Windows: names in
 * any case, trailing dots and spaces and `:stream` dropped, 8.3 short names, `\\?\` and UNC spellings; on
 * macOS: names in any case and either Unicode normalization), so a
 * denied file is refused under every spelling that names it there, and only the guard's own rules decide.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { InputError } from '../../../../src/engine/api/errors';
import { authorize, decide, type GuardContext } from '../../../../src/engine/guard/guard';
import { checkSearchGlob, globRequest } from '../../../../src/engine/guard/globInput';
import { prepareMessages } from '../../../../src/engine/guard/invocation';
import { notFoundHint, type HintEntry } from '../../../../src/engine/guard/pathHint';
import { darwinPath, flavourName, flavourNamed, isInside, type PathFlavour } from '../../../../src/engine/guard/paths';
import { judgeReal } from '../../../../src/engine/guard/scope';
import { untitledAt, type UntitledDocument } from '../../../../src/engine/guard/untitled';

type Entry = 'file' | 'directory' | { link: string };

/**
 * A file system as `flavour`'s platform shows it: entries by their absolute path; under path.win32 a
 * name matches in any case, without trailing dots and spaces or a `:stream` suffix, or by its 8.3 short
 * name (`short`), and `\\?\`, `\\.\` and `\\localhost\C$` spellings lead to the drive's path.
 */
class FakeDisk {
  private readonly entries = new Map<string, Entry>();

  /** `caseless`: names match ignoring case (and on macOS Unicode normalization); by default, as on Windows. */
  constructor(
    readonly flavour: PathFlavour,
    private readonly short: Readonly<Record<string, string>> = {},
    private readonly caseless = flavour.sep === '\\',
  ) {}

  add(absolute: string, entry: Entry): this {
    this.entries.set(absolute, entry);
    for (let dir = this.flavour.dirname(absolute); this.flavour.dirname(dir) !== dir; dir = this.flavour.dirname(dir)) this.entries.set(dir, 'directory');
    return this;
  }

  private get windows(): boolean {
    return this.flavour.sep === '\\';
  }

  /** A name as the file system compares it: NTFS ignores case, macOS's file systems case and Unicode normalization. */
  private key(name: string): string {
    if (!this.caseless) return name;
    return this.windows ? name.toLowerCase() : name.normalize('NFC').toLowerCase();
  }

  private childNamed(dir: string, wanted: string): string | undefined {
    for (const path of this.entries.keys()) {
      if (this.flavour.dirname(path) !== dir || path === dir) continue;
      const name = this.flavour.basename(path);
      if (name === wanted) return name;
      if (this.key(name) === this.key(wanted)) return name;
      if (this.windows && this.short[name]?.toLowerCase() === wanted.toLowerCase()) return name;
    }
    return undefined;
  }

  /** The real path of `path` (links followed), as the platform's realpath gives it, or undefined. */
  real(path: string, depth = 0): string | undefined {
    if (depth > 8) return undefined;
    let resolved = this.flavour.resolve(path);
    if (this.windows) {
      resolved = resolved
        .replace(/^\\\\[?.]\\UNC\\/i, '\\\\')
        .replace(/^\\\\[?.]\\/, '')
        .replace(/^\\\\localhost\\([a-z])\$(\\|$)/i, '$1:\\');
    }
    const { root } = this.flavour.parse(resolved);
    let current = this.windows ? root.toUpperCase() : root;
    for (const segment of resolved.slice(root.length).split(this.flavour.sep).filter(Boolean)) {
      const name = this.windows ? segment.replace(/:.*$/, '').replace(/[. ]+$/, '') : segment;
      const found = this.childNamed(current, name);
      if (found === undefined) return undefined;
      current = this.flavour.join(current, found);
      const entry = this.entries.get(current);
      if (typeof entry === 'object') {
        const target = this.real(entry.link, depth + 1);
        if (target === undefined) return undefined;
        current = target;
      }
    }
    return current;
  }

  /** A directory's entries, links not followed, as the platform lists them; undefined when it is not a directory. */
  list(dir: string): HintEntry[] | undefined {
    const real = this.real(dir);
    if (real === undefined || this.kind(real) !== 'directory') return undefined;
    return [...this.entries]
      .filter(([path]) => path !== real && this.flavour.dirname(path) === real)
      .map(([path, entry]) => ({ name: this.flavour.basename(path), kind: typeof entry === 'object' ? 'link' : entry }));
  }

  kind(path: string): 'file' | 'directory' | undefined {
    const real = this.real(path);
    if (real === undefined) return undefined;
    const entry = this.entries.get(real) ?? (this.flavour.dirname(real) === real ? 'directory' : undefined);
    return entry === 'file' || entry === 'directory' ? entry : undefined;
  }

  context(folder: string, untitled?: UntitledDocument[]): GuardContext {
    return {
      folders: [{ name: this.flavour.basename(folder), path: folder }],
      config: { deniedPaths: [...DEFAULT_DENIED_PATHS], allowedPaths: [] },
      kind: async (absolute) => this.kind(absolute),
      realPath: async (absolute) => this.real(absolute),
      entries: async (dir) => {
        const entries = this.list(dir);
        if (entries === undefined) throw new Error(`not a directory: ${dir}`);
        return entries;
      },
      flavour: this.flavour,
      ...(untitled ? { untitled } : {}),
    };
  }
}

interface Platform {
  name: string;
  flavour: PathFlavour;
  home: string;
  ws: string;
  /** Ways to write the workspace folder's own path, ending with a separator ('' for relative paths). */
  prefixes: string[];
  separators: string[];
  windows: boolean;
  /** Whether names ignore case there (Windows; macOS by default); then the workspace folder's path spelled in another case. */
  recased?: string;
}

const platforms: Platform[] = [
  {
    name: 'path.posix',
    flavour: nodePath.posix,
    home: '/home/dev',
    ws: '/home/dev/ws',
    prefixes: ['', './', '/home/dev/ws/', '/home/dev/ws//', '/home/dev/../dev/ws/', 'src/../'],
    separators: ['/', '//'],
    windows: false,
  },
  {
    name: 'darwinPath (macOS)',
    flavour: darwinPath,
    home: '/Users/dev',
    ws: '/Users/dev/ws',
    prefixes: ['', './', '/Users/dev/ws/', '/users/DEV/WS/', '/USERS/dev/Ws//', '/Users/dev/../DEV/ws/', 'src/../', 'SRC/../'],
    separators: ['/', '//'],
    windows: false,
    recased: '/users/DEV/WS',
  },
  {
    name: 'path.win32',
    flavour: nodePath.win32,
    home: 'C:\\Users\\dev',
    ws: 'C:\\Users\\dev\\ws',
    prefixes: [
      '',
      '.\\',
      'C:\\Users\\dev\\ws\\',
      'c:\\users\\DEV\\WS\\',
      'C:/Users/dev/ws/',
      'C:\\Users/dev\\ws/',
      '\\Users\\dev\\ws\\',
      '\\\\?\\C:\\Users\\dev\\ws\\',
      '\\\\.\\C:\\Users\\dev\\ws\\',
      '\\\\localhost\\C$\\Users\\dev\\ws\\',
      '//localhost/c$/Users/dev/ws/',
      '\\\\?\\UNC\\localhost\\C$\\Users\\dev\\ws\\',
      'src\\..\\',
      'C:\\Users\\dev\\ws.\\',
    ],
    separators: ['\\', '/', '\\\\', '\\/'],
    windows: true,
    recased: 'c:\\users\\DEV\\ws',
  },
];

/** The fake disk of a platform: a workspace with secrets, links to them, and an ordinary file. */
function diskOf(platform: Platform): FakeDisk {
  const { flavour, ws, home } = platform;
  const disk = new FakeDisk(
    flavour,
    { '.ssh': 'SSH~1', secrets: 'SECRE~1', '.env': 'ENV~1', credentials: 'CREDEN~1', 'token.txt': 'TOKEN~1.TXT' },
    platform.recased !== undefined,
  );
  const at = (...segments: string[]) => flavour.join(ws, ...segments);
  for (const file of [at('.env'), at('.ssh', 'id_rsa'), at('.ssh', 'config'), at('secrets', 'token.txt'), at('config', '.aws', 'credentials')])
    disk.add(file, 'file');
  for (const file of [at('src', 'a.ts'), at('README.md'), flavour.join(home, '.ssh', 'config')]) disk.add(file, 'file');
  disk.add(at('link.txt'), { link: at('.env') });
  disk.add(at('keys'), { link: flavour.join(home, '.ssh') });
  disk.add(at('docs'), { link: at('secrets') });
  // Links the not-found hint meets: to an ordinary folder, and below a real folder to the home's .ssh.
  disk.add(at('alias'), { link: at('src') });
  disk.add(at('pkg', 'lib', 'keys'), { link: flavour.join(home, '.ssh') });
  disk.add(at('pkg', 'lib', 'index.ts'), 'file');
  return disk;
}

/** Denied files and names that lead to one (links), as '/'-separated paths below the workspace folder. */
const DENIED_TARGETS = ['.env', '.ssh/id_rsa', '.ssh/config', 'secrets/token.txt', 'config/.aws/credentials', 'link.txt', 'keys/config', 'docs/token.txt'];

/** A spelling of `target` on `platform`: case, short names, trailing dots and spaces, streams (Windows), separators, prefixes. */
function spellings(platform: Platform, targets: readonly string[]): fc.Arbitrary<string> {
  const { windows } = platform;
  const caseless = platform.recased !== undefined;
  const shortOf: Record<string, string> = { '.ssh': 'SSH~1', secrets: 'SECRE~1', '.env': 'ENV~1', credentials: 'CREDEN~1', 'token.txt': 'TOKEN~1.TXT' };
  const segmentForm = fc.record({
    upper: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
    short: fc.boolean(),
    trailing: fc.constantFrom('', '', '.', ' ', '. .', '..'),
    stream: fc.constantFrom('', '', ':x', '::$DATA'),
  });
  return fc
    .record({
      target: fc.constantFrom(...targets),
      forms: fc.array(segmentForm, { minLength: 4, maxLength: 4 }),
      separators: fc.array(fc.constantFrom(...platform.separators), { minLength: 4, maxLength: 4 }),
      prefix: fc.constantFrom(...platform.prefixes),
    })
    .map(({ target, forms, separators, prefix }) => {
      const segments = target.split('/').map((segment, index) => {
        if (!caseless) return segment;
        const form = forms[index];
        const name = windows && form.short && shortOf[segment] !== undefined ? shortOf[segment] : segment;
        const cased = [...name].map((c, i) => (form.upper[i % form.upper.length] ? c.toUpperCase() : c)).join('');
        if (!windows) return cased;
        // A stream names the file itself (`::$DATA`) or one of its streams; on a directory only its name is used.
        const last = index === target.split('/').length - 1;
        return `${cased}${form.trailing}${last ? form.stream : ''}`;
      });
      return prefix + segments.reduce((path, segment, index) => (index === 0 ? segment : `${path}${separators[index - 1]}${segment}`), '');
    });
}

describe('the guard under an injected path flavour', () => {
  for (const platform of platforms) {
    const { flavour, ws } = platform;
    describe(platform.name, () => {
      const disk = diskOf(platform);

      it('the fake file system finds a file the way the platform does', () => {
        assert.strictEqual(disk.real(flavour.join(ws, 'src', 'a.ts')), flavour.join(ws, 'src', 'a.ts'));
        assert.strictEqual(disk.real(flavour.join(ws, 'link.txt')), flavour.join(ws, '.env'));
        assert.strictEqual(disk.kind(flavour.join(ws, 'keys')), 'directory');
        if (platform.windows) {
          assert.strictEqual(disk.real('\\\\?\\c:\\USERS\\dev\\ws\\SSH~1\\ID_RSA.'), 'C:\\Users\\dev\\ws\\.ssh\\id_rsa');
          assert.strictEqual(disk.real('\\\\localhost\\C$\\Users\\dev\\ws\\.env::$DATA'), 'C:\\Users\\dev\\ws\\.env');
        } else if (platform.recased !== undefined) {
          assert.strictEqual(disk.real('/users/DEV/WS/.SSH/ID_RSA'), '/Users/dev/ws/.ssh/id_rsa');
        } else {
          assert.strictEqual(disk.real('/home/dev/ws/.ENV'), undefined);
        }
      });

      it('refuses a denied file, and a name leading to one, under every spelling that names it there (property)', async () => {
        const ctx = disk.context(ws);
        await fc.assert(
          fc.asyncProperty(spellings(platform, DENIED_TARGETS), async (path) => {
            const decision = await decide(path, ctx);
            assert.strictEqual(decision.kind, 'denied', `${JSON.stringify(path)}: ${decision.kind} ${'message' in decision ? decision.message : ''}`);
            await assert.rejects(
              authorize(path, { ...ctx, allowOutside: true }),
              (error: Error) => error instanceof InputError && /permission denied/.test(error.message),
            );
          }),
          { numRuns: 400 },
        );
      });

      it('grants an ordinary file under the same spellings, searched below the workspace folder (property)', async () => {
        const ctx = disk.context(ws);
        await fc.assert(
          fc.asyncProperty(spellings(platform, ['src/a.ts', 'README.md']), async (path) => {
            const access = await authorize(path, { ...ctx, allowOutside: false });
            assert.strictEqual(access.kind, 'files', path);
            if (access.kind !== 'files') return;
            assert.deepStrictEqual(access.granted, [ws]);
            assert.ok(isInside(access.bases[0].base, ws, flavour), `${path}: ${access.bases[0].base} is in ${ws}`);
          }),
          { numRuns: 300 },
        );
      });

      it('judges the whole workspace, a missing path and an outside path by its rules', async () => {
        const ctx = disk.context(ws);
        assert.deepStrictEqual(await decide(undefined, ctx), { kind: 'granted', bases: [{ root: ws, base: ws, folderIndex: 0 }] });
        // A missing file below a denied directory answers as denied: no existence oracle for secrets.
        assert.strictEqual((await decide(flavour.join(ws, '.ssh', 'nothing'), ctx)).kind, 'denied');
        const outside = await decide(flavour.join(platform.home, 'notes'), ctx);
        assert.strictEqual(outside.kind, 'pending');
        assert.strictEqual((await decide(flavour.join(platform.home, '.ssh', 'config'), ctx)).kind, 'denied');
      });

      it('a missing path is reported with the nearest existing directory, spelled by the flavour', async () => {
        const ctx = disk.context(ws);
        const missing = flavour.join(ws, 'src', 'lib', 'nothing.ts');
        const decision = await decide(missing, ctx);
        assert.strictEqual(decision.kind, 'invalid');
        assert.ok(
          'message' in decision && decision.message.includes(`The nearest existing directory is ${flavour.join(ws, 'src')}.`),
          JSON.stringify(decision),
        );
        // The workspace folder itself is not offered, however the call spells it.
        const folderSpelled = platform.recased ?? ws;
        const hint = await notFoundHint(flavour.join(folderSpelled, 'nothing'), {
          folders: ctx.folders,
          kind: ctx.kind,
          hidden: () => false,
          flavour,
          realPath: ctx.realPath,
        });
        assert.strictEqual(hint, '');
      });

      it('the hint of a missing path lists the fake file system, and never names or reveals a denied file reached through a link', async () => {
        const ctx = disk.context(ws);
        const message = async (path: string) => {
          const decision = await decide(path, ctx);
          assert.strictEqual(decision.kind, 'invalid', `${path}: ${decision.kind}`);
          return 'message' in decision ? decision.message : '';
        };
        // Misspelled ordinary names are corrected, through a link to an ordinary folder too: the entries are the fake disk's.
        assert.ok((await message(flavour.join(ws, 'src', 'a.tss'))).includes(` Did you mean ${flavour.join(ws, 'src', 'a.ts')}?`));
        assert.ok((await message(flavour.join(ws, 'alias', 'a.tx'))).includes(` Did you mean ${flavour.join(ws, 'alias', 'a.ts')}?`));
        assert.ok((await message(flavour.join(ws, 'lib', 'index.ts'))).includes(` Did you mean ${flavour.join(ws, 'pkg', 'lib', 'index.ts')} (a file)?`));
        // A close name that is a link to the denied .env, a path ending below a link out of the workspace
        // (pkg/lib/keys leads to ~/.ssh), a misspelled name there: none is named, nor what is behind it.
        const refused = [
          ['lnk.txt', 'link.txt'],
          ['lib/keys/config', 'keys'],
          ['pkg/lib/kes/config', 'keys'],
          ['doc/token.txt', 'docs'],
        ];
        for (const [missing, leak] of refused) {
          const text = await message(flavour.join(ws, ...missing.split('/')));
          // The hint: what follows the path as the call wrote it and where it resolved.
          const hint = text.slice(text.indexOf(').') + 2, text.indexOf(' Check the path'));
          for (const word of [leak, 'token', 'config', '.env', '.ssh']) assert.ok(!hint.includes(word), `${missing}: the hint "${hint}" names ${word}`);
        }
        if (platform.recased !== undefined) {
          // The same, spelled with another case, as Windows and macOS name them.
          const src = flavour.join(platform.recased, 'SRC');
          assert.ok((await message(flavour.join(src, 'a.tss'))).includes(` Did you mean ${flavour.join(src, 'a.ts')}?`));
          const text = await message(flavour.join(platform.recased, 'LNK.TXT'));
          assert.ok(!text.slice(text.indexOf(').')).includes('link.txt'), text);
        }
      });

      it('an untitled editor is found by the path it will be saved to, and judged by the rules there', async () => {
        const document = (path: string): UntitledDocument => ({ uri: `untitled:${path}`, name: flavour.basename(path), associatedPath: path, text: () => 'x' });
        const draft = document(flavour.join(ws, 'src', 'new.ts'));
        const secret = document(flavour.join(ws, '.ENV'));
        const written = platform.recased !== undefined ? flavour.join(platform.recased, 'src', 'NEW.ts') : flavour.join(ws, 'src', 'new.ts');
        assert.strictEqual(untitledAt(written, [draft], flavour), draft);
        const ctx = disk.context(ws, [draft, secret]);
        assert.strictEqual((await decide(written, ctx)).kind, 'untitled');
        assert.strictEqual((await decide(secret.uri, ctx)).kind, 'denied');
      });

      it('an absolute glob names its base by the flavour; an include glob cannot be absolute', async () => {
        // The base is spelled as the flavour spells paths, however the glob wrote its separators.
        const base = (...segments: string[]) => (platform.windows ? `C:\\${segments.join('\\')}` : `/${segments.join('/')}`);
        const drive = platform.windows ? 'C:' : '';
        assert.deepStrictEqual(globRequest(`${drive}/*.ts`, undefined, 'glob', flavour), { pattern: '*.ts', path: base() });
        assert.deepStrictEqual(globRequest(`${drive}/Users/dev/ws/src/**/*.ts`, undefined, 'glob', flavour), {
          pattern: '**/*.ts',
          path: base('Users', 'dev', 'ws', 'src'),
        });
        if (platform.windows) {
          assert.deepStrictEqual(globRequest('C:\\Users\\dev\\ws\\src\\*.ts', undefined, 'glob', flavour), {
            pattern: '*.ts',
            path: 'C:\\Users\\dev\\ws\\src',
          });
          assert.deepStrictEqual(globRequest('C:\\ws\\*.ts', 'c:\\WS', 'glob', flavour), { pattern: '*.ts', path: 'C:\\ws' });
          for (const glob of ['C:/Users/**', 'c:\\src\\*.ts', '\\\\server\\share\\**']) {
            assert.throws(
              () => checkSearchGlob(glob, 'include', flavour),
              (error: Error) => error instanceof InputError && /include glob/.test(error.message),
              glob,
            );
          }
          assert.throws(() => checkSearchGlob('C:/Users/**', 'include', flavour), /cannot name an absolute location/);
        }
        for (const glob of ['/etc/**', '~/.ssh/*']) assert.throws(() => checkSearchGlob(glob, 'exclude', flavour), /cannot name an absolute location/);
        checkSearchGlob('src/**/*.ts', 'include', flavour);
        // The confirmation of a glob call names the base the glob does, judged by the guard's rules.
        const prepared = await prepareMessages('glob', { pattern: flavour.join(ws, '.ssh', '*') }, disk.context(ws));
        assert.strictEqual(prepared.decision, 'denied');
      });
    });
  }

  it('macOS: a path spelled in another case, or another Unicode normalization, names the workspace folder; .SSH is denied', async () => {
    const disk = new FakeDisk(darwinPath, {}, true);
    disk.add('/Users/a/ws/src/a.ts', 'file').add('/Users/a/ws/.ssh/id_rsa', 'file').add('/Users/a/Caf\u00e9/notes.md', 'file');
    const ctx = { ...disk.context('/Users/a/ws'), folders: [{ name: 'ws', path: '/Users/a/ws' }] };
    assert.deepStrictEqual(await decide('/users/A/WS/src', ctx), {
      kind: 'granted',
      bases: [{ root: '/Users/a/ws', base: '/users/A/WS/src', folderIndex: 0 }],
    });
    for (const path of ['/users/A/WS/.SSH', '/Users/a/ws/.SSH/ID_RSA', '.Ssh/id_rsa']) assert.strictEqual((await decide(path, ctx)).kind, 'denied', path);
    // Plain POSIX rules call it outside the folder: only a real path that gives the stored case would bring it back.
    assert.strictEqual(isInside('/users/A/WS/src', '/Users/a/ws', nodePath.posix), false);
    assert.strictEqual(isInside('/users/A/WS/src', '/Users/a/ws', darwinPath), true);
    // A folder whose name the file system stores decomposed (NFD, HFS+) is the one a call names composed (NFC).
    const accented = { ...ctx, folders: [{ name: 'Café', path: '/Users/a/Cafe\u0301' }] };
    assert.strictEqual((await decide('/Users/a/Caf\u00e9/notes.md', accented)).kind, 'granted');
    assert.strictEqual(darwinPath.relative('/Users/a/Cafe\u0301', '/USERS/A/CAF\u00c9/x/Y.md'), 'x/Y.md');
    assert.strictEqual(darwinPath.relative('/Users/a/ws', '/Users/b/ws'), '../../b/ws');
    // The name crosses to the workers as data, and comes back as the same rules.
    const scope = { granted: ['/Users/a/ws'], denied: [...DEFAULT_DENIED_PATHS], flavour: flavourName(darwinPath) };
    assert.strictEqual(scope.flavour, 'darwin');
    assert.strictEqual(flavourNamed('darwin'), darwinPath);
    assert.strictEqual(judgeReal('/users/a/WS/src/a.ts', scope, false), undefined);
    assert.strictEqual(judgeReal('/users/a/WS/.SSH/id_rsa', scope, false), 'denied');
    assert.strictEqual(judgeReal('/users/a/WS/src/a.ts', { ...scope, flavour: 'posix' }, false), 'outside_workspace');
  });

  it('a read scope names its flavour as data (it crosses to the worker threads), and the real paths are judged by it', () => {
    const scope = { granted: ['C:\\Users\\dev\\ws'], denied: [...DEFAULT_DENIED_PATHS] };
    assert.strictEqual(judgeReal('c:\\users\\dev\\WS\\.ENV', { ...scope, flavour: 'win32' }, false), 'denied');
    assert.strictEqual(judgeReal('C:\\Users\\dev\\ws\\src\\a.ts', { ...scope, flavour: 'win32' }, false), undefined);
    assert.strictEqual(judgeReal('C:\\Users\\dev\\other\\a.ts', { ...scope, flavour: 'win32' }, false), 'outside_workspace');
    // Under POSIX rules a backslash is part of a name: nothing below the granted root is named.
    assert.strictEqual(judgeReal('C:\\Users\\dev\\ws\\src\\a.ts', { ...scope, flavour: 'posix' }, false), 'outside_workspace');
    assert.strictEqual(judgeReal('/home/dev/ws/.ssh/id', { granted: ['/home/dev/ws'], denied: [...DEFAULT_DENIED_PATHS], flavour: 'posix' }, false), 'denied');
  });
});
