/**
 * The security table (docs/security.md): every way a call might reach outside the granted scope, run through the
 * public entry points (answerGrep / answerGlob) with an instrumented environment that records every file
 * opened and every directory listed. For each case the record proves what was and was not touched, and
 * that nothing outside the granted scope was opened or listed at all.
 *
 * The granted scope is judged here independently of the engine: a path is in scope when its real path
 * lies in a workspace folder (or a confirmed outside base) and neither it nor a directory above it
 * matches a denied rule (case-insensitively).
 */
import { readAnswer, type GlobAnswer, type GrepAnswer } from '../support/answers';
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { minimatch } from 'minimatch';
import { DEFAULT_DENIED_PATHS } from '../../src/engine/api/config';
import { answerGlob } from '../../src/engine/answer/globAnswer';
import { parseGlobInput, parseGrepInput } from '../../src/engine/input/schema';
import { type SearchEnvironment } from '../../src/engine/run/environment';
import { answerGrep } from '../../src/engine/answer/grepAnswer';
import { printGlob, printGrep } from '../../src/engine/answer/printer';
import { Fixture, folders, makeEnv, type EnvOptions } from '../unit/fixture';
import { FsRecorder } from '../unit/recorder';

interface Row {
  name: string;
  tool: 'grep' | 'glob';
  input: Record<string, unknown>;
  /** Workspace folders (paths below the fixture root); default ['ws']. */
  folders?: string[];
  env?: EnvOptions;
  /** Confirmed outside bases that are granted too (below the fixture root). */
  grantedAlso?: string[];
  /** The call fails with this message. */
  error?: RegExp;
  /** ...and the message names nothing hidden (a denied or outside name it might suggest). */
  errorNever?: RegExp;
  /** A "not found" error may list workspace directories for its hint (still checked against the scope). */
  mayList?: boolean;
  /** Exactly these files (below the fixture root) are opened; for an error, nothing is opened or listed. */
  opens?: string[];
  /** grep: files reported; glob: files listed (below the fixture root). */
  reports?: string[];
  skipped?: Partial<Record<'denied' | 'outside_workspace' | 'unreadable' | 'binary' | 'too_large', number>>;
  /** Never opened nor listed, whatever else happens (below the fixture root). */
  untouched?: string[];
}

/** Denied files, one or more per default rule, in every case and with unicode and spaces (below the fixture root). */
const SECRET_FILES = [
  'ws/.env',
  'ws/config/.env.local',
  'ws/config/.ENV',
  'ws/certs/server.pem',
  'ws/certs/X.PEM',
  'ws/certs/tls.key',
  'ws/home/id_rsa',
  'ws/home/id_rsa.pub',
  'ws/home/id_ed25519',
  'ws/.ssh/config',
  'ws/upper/.SSH/known_hosts',
  'ws/upper/Secrets/db.txt',
  'ws/secrets/db.txt',
  'ws/.aws/credentials',
  'ws/.netrc',
  'ws/.git/config',
  'ws/pkg/.git/HEAD',
  'ws/ключи/ключ.pem',
  'ws/spaced dir/.env',
];
/** Everything a search must never open or list: the denied files, denied directories, and links to them. */
const SECRETS = [...SECRET_FILES, 'ws/.ssh', 'ws/upper/.SSH', 'ws/upper/Secrets', 'ws/secrets', 'ws/.git', 'ws/pkg/.git', 'ws/link-env.txt', 'ws/link-ssh'];
const OUTSIDE = [
  'outside',
  'outside/secret.txt',
  'outside/sub',
  'outside/sub/deeper.txt',
  'outside/.ssh',
  'outside/.ssh/id',
  'elsewhere',
  'elsewhere/x.txt',
  'ws/link-file.txt',
  'ws/link-dir',
  'ws/lïnk óut',
  'ws/link-other',
  'other',
  'other/o.ts',
];
const READABLE = [
  'ws/.aws/config',
  'ws/dir with spaces/ünïcødé notes.txt',
  'ws/loop/l.txt',
  'ws/pkg/index.ts',
  'ws/src/app.ts',
  'ws/upper/readme.txt',
  'ws/ключи/заметка.txt',
];

describe('security table: nothing outside the granted scope is opened or listed', () => {
  let fx: Fixture;
  const at = (relative: string) => fx.path(relative);

  before(() => {
    fx = new Fixture('grep-tools-security-');
    const files: Record<string, string> = {};
    for (const path of [...READABLE, 'outside/secret.txt', 'outside/sub/deeper.txt', 'outside/.ssh/id', 'elsewhere/x.txt', 'other/o.ts'])
      files[path] = `TOKEN ${path}\n`;
    for (const path of SECRET_FILES) files[path] = `TOKEN secret ${path}\n`;
    fx.files(files);
    fx.symlink(at('outside/secret.txt'), 'ws/link-file.txt');
    fx.symlink(at('outside'), 'ws/link-dir');
    fx.symlink(at('outside'), 'ws/lïnk óut');
    fx.symlink('.env', 'ws/link-env.txt');
    fx.symlink('.ssh', 'ws/link-ssh');
    fx.symlink(at('other'), 'ws/link-other');
    fx.symlink('.', 'ws/loop/self');
    fx.symlink('b', 'ws/loop/a');
    fx.symlink('a', 'ws/loop/b');
    fx.symlink(at('elsewhere'), 'outside/escape');
  });

  after(() => fx.remove());

  it('the fixture holds every secret and outside file the table must never touch', () => {
    for (const path of [...SECRETS, ...OUTSIDE, ...READABLE]) assert.ok(fs.existsSync(at(path)) || fs.lstatSync(at(path)).isSymbolicLink(), path);
  });

  const rows: Row[] = [
    // Every default rule, case variants, unicode and spaces, symlinked files and directories, loops.
    {
      name: 'grep over the whole workspace reads only the readable files',
      tool: 'grep',
      input: { pattern: 'TOKEN', output_mode: 'files_with_matches' },
      opens: READABLE,
      reports: READABLE,
      // 13 denied files; .ssh, secrets, .git, upper/.SSH, upper/Secrets, pkg/.git, link-env.txt, link-ssh;
      // link-file.txt, link-dir, lïnk óut and link-other lead outside.
      skipped: { denied: 21, outside_workspace: 4, unreadable: 0 },
    },
    {
      name: 'glob over the whole workspace lists only the readable files and opens none',
      tool: 'glob',
      input: { pattern: '**' },
      opens: [],
      reports: READABLE,
      skipped: { denied: 21, outside_workspace: 4 },
    },
    {
      name: 'include_ignored changes nothing for denied paths',
      tool: 'grep',
      input: { pattern: 'TOKEN', include_ignored: true, output_mode: 'files_with_matches' },
      opens: READABLE,
      reports: READABLE,
    },
    // ../ escapes.
    {
      name: '"../outside" is outside the workspace',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '../outside' },
      error: /^Path "\.\.\/outside" resolves to .*\/outside, which is outside every workspace folder/,
    },
    {
      name: '"src/../../outside" is resolved before it is judged',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'src/../../outside' },
      error: /outside every workspace folder/,
    },
    {
      name: '"src/../.env" is the denied .env',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'src/../.env' },
      error: /^permission denied by policy: "src\/\.\.\/\.env" matches "\*\*\/\.env"/,
    },
    {
      name: 'glob "../outside/*" cannot climb out',
      tool: 'glob',
      input: { pattern: '../outside/*' },
      error: /^Invalid glob "\.\.\/outside\/\*": '\.\.' cannot climb out of the search path/,
    },
    {
      name: 'include "../outside/*" cannot climb out',
      tool: 'grep',
      input: { pattern: 'TOKEN', include: '../outside/*' },
      error: /^Invalid include glob .*'\.\.' cannot climb out/,
    },
    {
      name: 'include "{..,src}/*" cannot climb out through a brace',
      tool: 'grep',
      input: { pattern: 'TOKEN', include: '{..,src}/*' },
      error: /'\.\.' cannot climb out/,
    },
    // Absolute paths.
    {
      name: 'an absolute path outside is refused without confirmation',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/outside' },
      error: /outside every workspace folder/,
    },
    {
      name: 'an absolute glob outside is refused without confirmation',
      tool: 'glob',
      input: { pattern: '<root>/outside/**' },
      error: /outside every workspace folder/,
    },
    {
      name: 'an absolute path to a denied file inside is denied',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/ws/.env' },
      error: /^permission denied by policy: .* matches "\*\*\/\.env"/,
    },
    {
      name: 'an absolute include glob is refused',
      tool: 'grep',
      input: { pattern: 'TOKEN', include: '/etc/*' },
      error: /^Invalid include glob "\/etc\/\*": it is matched relative to the search path/,
    },
    {
      name: '"~/.ssh" is denied before anything is looked at',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '~/.ssh' },
      error: /^permission denied by policy: "~\/\.ssh" matches "\*\*\/\.ssh\/\*\*"/,
    },
    // Symlinked files and directories.
    {
      name: 'a symlinked file that leads outside, named as path',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'link-file.txt' },
      error: /^Path "link-file\.txt" resolves to .*\/outside\/secret\.txt, which is outside every workspace folder/,
    },
    {
      name: 'a symlinked directory that leads outside, named as path',
      tool: 'glob',
      input: { pattern: '**', path: 'link-dir' },
      error: /resolves to .*\/outside, which is outside every workspace folder/,
    },
    {
      name: 'a unicode, spaced symlink that leads outside',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'lïnk óut/' },
      error: /^Path "lïnk óut\/" resolves to .*\/outside/,
    },
    {
      name: 'a symlink to a denied file, named as path',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'link-env.txt' },
      error: /^permission denied by policy: "link-env\.txt" \(it leads to .*\/ws\/\.env\) matches "\*\*\/\.env"/,
    },
    {
      name: 'a symlink to a denied directory, named as path',
      tool: 'glob',
      input: { pattern: '**', path: 'link-ssh' },
      error: /^permission denied by policy: "link-ssh" \(it leads to .*\/ws\/\.ssh\) matches "\*\*\/\.ssh\/\*\*"/,
    },
    {
      name: "a symlink loop ends, and reads the loop's own file once",
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'loop' },
      opens: ['ws/loop/l.txt'],
      reports: ['ws/loop/l.txt'],
    },
    // Denied files by each default rule, and denied directories, named as path.
    ...(
      [
        ['.env', '**/.env'],
        ['config/.env.local', '**/.env.*'],
        ['certs/server.pem', '**/*.pem'],
        ['certs/tls.key', '**/*.key'],
        ['home/id_rsa.pub', '**/id_rsa*'],
        ['home/id_ed25519', '**/id_ed25519*'],
        ['.ssh', '**/.ssh/**'],
        ['.ssh/config', '**/.ssh/**'],
        ['secrets', '**/secrets/**'],
        ['.aws/credentials', '**/.aws/credentials'],
        ['.netrc', '**/.netrc'],
        ['.git', '**/.git/**'],
        ['pkg/.git/HEAD', '**/.git/**'],
        ['upper/Secrets', '**/secrets/**'],
      ] as const
    ).map(([path, rule]): Row => ({
      name: `path "${path}" is denied by ${rule}`,
      tool: 'grep',
      input: { pattern: 'TOKEN', path },
      error: new RegExp(`^permission denied by policy: ${escape(JSON.stringify(path))} matches ${escape(JSON.stringify(rule))}`),
    })),
    // Case variants.
    {
      name: 'path ".ENV" is denied (rules ignore case)',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'config/.ENV' },
      error: /^permission denied by policy: "config\/\.ENV" matches "\*\*\/\.env"/,
    },
    {
      name: 'path "upper/.SSH/known_hosts" is denied',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'upper/.SSH/known_hosts' },
      error: /matches "\*\*\/\.ssh\/\*\*"/,
    },
    {
      name: 'path "CERTS/X.PEM" is denied before it is looked up',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'CERTS/X.PEM' },
      error: /matches "\*\*\/\*\.pem"/,
    },
    {
      name: 'upper-case denied directories are neither listed nor read',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'upper' },
      opens: ['ws/upper/readme.txt'],
      reports: ['ws/upper/readme.txt'],
      skipped: { denied: 2 },
    },
    // Include globs that try to reach denied files.
    ...[
      '.env',
      '**/.env*',
      '{.env,*.pem,*.PEM,*.key,id_rsa*}',
      '.git/**',
      'secrets/**',
      'upper/Secrets/*',
      '**/credentials',
      '.ssh/*',
      '**/*.PEM',
      '.netrc',
    ].map((include): Row => ({
      name: `include "${include}" reaches no denied file`,
      tool: 'grep',
      input: { pattern: 'TOKEN', include },
      opens: [],
      reports: [],
    })),
    ...['.env*', '**/.env*', '**/*.pem', '.git/*', '**/id_*', 'secrets/**'].map((pattern): Row => ({
      name: `glob "${pattern}" lists no denied file`,
      tool: 'glob',
      input: { pattern },
      opens: [],
      reports: [],
    })),
    // Unicode and spaces.
    {
      name: 'a path with spaces and unicode',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'dir with spaces' },
      opens: ['ws/dir with spaces/ünïcødé notes.txt'],
      reports: ['ws/dir with spaces/ünïcødé notes.txt'],
    },
    {
      name: 'a unicode directory: its denied file stays closed',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'ключи' },
      opens: ['ws/ключи/заметка.txt'],
      reports: ['ws/ключи/заметка.txt'],
      skipped: { denied: 1 },
    },
    {
      name: 'a spaced directory: its .env stays closed',
      tool: 'glob',
      input: { pattern: '*', path: 'spaced dir' },
      opens: [],
      reports: [],
      skipped: { denied: 1 },
    },
    // A confirmed search outside: its own links and secrets stay out.
    {
      name: 'a confirmed outside search reads that directory only, not its .ssh nor where its links lead',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/outside', output_mode: 'files_with_matches' },
      env: { allowOutside: true },
      grantedAlso: ['outside'],
      opens: ['outside/secret.txt', 'outside/sub/deeper.txt'],
      reports: ['outside/secret.txt', 'outside/sub/deeper.txt'],
      skipped: { denied: 1, outside_workspace: 1 },
    },
    {
      name: 'a confirmed outside search of a denied directory is still denied',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/outside/.ssh' },
      env: { allowOutside: true },
      error: /^permission denied by policy: .* matches "\*\*\/\.ssh\/\*\*"/,
    },
    // A link into another workspace folder is followed: that real location is granted.
    {
      name: 'a symlink into another workspace folder is followed',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'ws/link-other' },
      folders: ['ws', 'other'],
      opens: ['ws/link-other/o.ts'],
      reports: ['ws/link-other/o.ts'],
    },
    // The allow-list.
    {
      name: 'allowedPaths keeps everything else closed',
      tool: 'grep',
      input: { pattern: 'TOKEN', output_mode: 'files_with_matches' },
      env: { config: { allowedPaths: ['src/**'] } },
      opens: ['ws/src/app.ts'],
      reports: ['ws/src/app.ts'],
    },
    {
      name: 'allowedPaths refuses a path that cannot hold an allowed file',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'ключи' },
      env: { config: { allowedPaths: ['src/**'] } },
      error: /^permission denied by policy: "ключи" \(.*\) is not covered by grepTools\.allowedPaths \("src\/\*\*"\)/,
    },
    // A path that does not exist: the error's hint never names a denied or outside entry.
    {
      name: 'a misspelled denied file is not suggested',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'certs/server.pe' },
      error: /^Path not found: "certs\/server\.pe"/,
      errorNever: /server\.pem/,
      mayList: true,
    },
    {
      name: 'a misspelled file behind an outside link is not suggested',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'link-dir/secrte.txt' },
      error: /^Path not found|outside every workspace folder/,
      errorNever: /secret\.txt/,
      mayList: true,
    },
    {
      name: 'a missing file in a denied directory is denied, not looked up',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'upper/Secrets/nope.txt' },
      error: /^permission denied by policy: .* matches "\*\*\/secrets\/\*\*"/,
    },
    // No workspace open.
    {
      name: 'no workspace: a relative path needs a folder',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'src' },
      folders: [],
      error: /^Relative "path" "src" needs an open workspace folder: open a folder, or pass an absolute path\.$/,
    },
    {
      name: 'no workspace: an absolute path needs confirmation',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/ws/src' },
      folders: [],
      error: /outside every workspace folder \(none open\)/,
    },
    {
      name: 'no workspace, confirmed: an absolute path is searched',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/ws/src' },
      folders: [],
      env: { allowOutside: true },
      grantedAlso: ['ws/src'],
      opens: ['ws/src/app.ts'],
      reports: ['ws/src/app.ts'],
    },
  ];

  for (const row of rows)
    it(`${row.tool}: ${row.name}`, () =>
      checkRow(row, fx, [...SECRETS, ...(row.grantedAlso?.includes('outside') ? ['outside/.ssh', 'outside/.ssh/id', 'elsewhere/x.txt'] : OUTSIDE)]));
});

/** Round 2: names that lead to denied or outside places (links, a confirmed outside base), the allow-list through links, the new default rules. */
const NEW_SECRET_FILES = [
  'ws/keys/id_ecdsa',
  'ws/keys/id_dsa.pub',
  'ws/keys/client.p12',
  'ws/keys/client.PFX',
  'ws/keys/putty.ppk',
  'ws/keys/release.jks',
  'ws/keys/debug.keystore',
  'ws/keys/vault.kdbx',
  'ws/.gnupg/pubring.kbx',
  'ws/.git-credentials',
  'ws/.pgpass',
  'ws/.pypirc',
  'ws/.npmrc',
  'ws/.docker/config.json',
  'ws/.kube/config',
  'ws/infra/terraform.tfstate',
  'ws/infra/terraform.tfstate.backup',
  'ws/.aws/credentials',
];
const ROUND2_SECRETS = [...NEW_SECRET_FILES, 'ws/.gnupg', 'home/.aws/credentials', 'home/.ssh', 'home/.ssh/id'];

describe('security table, round 2: whatever name leads to a denied place, it stays closed and unlisted', () => {
  let fx: Fixture;
  before(() => {
    fx = new Fixture('grep-tools-security2-');
    const files: Record<string, string> = {};
    for (const path of NEW_SECRET_FILES) files[path] = `TOKEN secret ${path}\n`;
    for (const path of ['ws/.aws/config', 'ws/src/s.ts', 'ws/private/p.txt', 'ws/infra/main.tf', 'home/.aws/notes.txt', 'home/.ssh/id'])
      files[path] = `TOKEN ${path}\n`;
    fx.files(files);
    fx.symlink('.aws', 'ws/awsdir');
    fx.symlink('.docker', 'ws/dock');
    fx.symlink('../private', 'ws/src/priv');
    fx.symlink('credentials', 'home/.aws/creds.txt');
    fx.write('home/.aws/credentials', 'TOKEN aws secret\n');
    fx.symlink('../home/.ssh', 'ws/sshlink');
  });
  after(() => fx.remove());

  const rows: Row[] = [
    // Finding 4: a linked directory does not list what its real path denies (one segment, or a multi-segment rule).
    {
      name: 'glob "**/credentials" lists nothing through a link to .aws',
      tool: 'glob',
      input: { pattern: '**/credentials' },
      opens: [],
      reports: [],
      skipped: { denied: 2 },
    },
    {
      name: 'glob "**/config.json" lists nothing through a link to .docker',
      tool: 'glob',
      input: { pattern: '**/config.json' },
      opens: [],
      reports: [],
      skipped: { denied: 2 },
    },
    {
      name: 'glob "**" lists the linked directory\'s allowed files only',
      tool: 'glob',
      input: { pattern: 'awsdir/**' },
      opens: [],
      reports: ['ws/awsdir/config'],
      skipped: { denied: 1 },
    },
    {
      name: 'grep through a link to .aws reads config, never credentials',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'awsdir' },
      opens: ['ws/awsdir/config'],
      reports: ['ws/awsdir/config'],
      skipped: { denied: 1 },
    },
    {
      name: 'a misspelled name behind a link to .aws is not suggested',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'awsdir/credentialz' },
      error: /^Path not found: "awsdir\/credentialz"/,
      errorNever: /credentials/,
      mayList: true,
    },
    {
      name: 'a misspelled name behind a link to .docker is not suggested',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'dock/config.jsn' },
      error: /^Path not found/,
      errorNever: /config\.json/,
      mayList: true,
    },
    // Finding 2: the allow-list judges where a link leads.
    {
      name: 'allowedPaths ["src/**"] does not reach ../private through src/priv',
      tool: 'grep',
      input: { pattern: 'TOKEN', output_mode: 'files_with_matches' },
      env: { config: { allowedPaths: ['src/**'] } },
      opens: ['ws/src/s.ts'],
      reports: ['ws/src/s.ts'],
      untouched: ['ws/private/p.txt'],
    },
    {
      name: 'allowedPaths ["src/**"] refuses src/priv named as path',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: 'src/priv' },
      env: { config: { allowedPaths: ['src/**'] } },
      error: /^permission denied by policy: "src\/priv" \(.*\/ws\/private\) is not covered by grepTools\.allowedPaths/,
      untouched: ['ws/private/p.txt'],
    },
    // Finding 6: a confirmed outside base keeps the denied rules, judged from '/'.
    {
      name: 'a confirmed ~/.aws: a link to credentials inside it is not read',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/home/.aws', output_mode: 'files_with_matches' },
      env: { allowOutside: true },
      grantedAlso: ['home/.aws'],
      opens: ['home/.aws/notes.txt'],
      reports: ['home/.aws/notes.txt'],
      skipped: { denied: 2 },
    },
    {
      name: 'a confirmed ~/.aws: the link named as path is denied',
      tool: 'grep',
      input: { pattern: 'TOKEN', path: '<root>/home/.aws/creds.txt' },
      env: { allowOutside: true },
      error: /^permission denied by policy: .*creds\.txt" \(it leads to .*\/home\/\.aws\/credentials\) matches "\*\*\/\.aws\/credentials"/,
    },
    // Finding 8: the new default rules, named as path and through include and glob.
    ...NEW_SECRET_FILES.map((file): Row => ({
      name: `path "${file.slice(3)}" is denied`,
      tool: 'grep',
      input: { pattern: 'TOKEN', path: file.slice(3) },
      error: /^permission denied by policy/,
    })),
    {
      name: 'grep of the whole workspace reads none of the new secrets',
      tool: 'grep',
      input: { pattern: 'TOKEN', output_mode: 'files_with_matches' },
      opens: ['ws/.aws/config', 'ws/awsdir/config', 'ws/infra/main.tf', 'ws/private/p.txt', 'ws/src/priv/p.txt', 'ws/src/s.ts'],
      reports: ['ws/.aws/config', 'ws/awsdir/config', 'ws/infra/main.tf', 'ws/private/p.txt', 'ws/src/priv/p.txt', 'ws/src/s.ts'],
    },
    ...['**/id_*', '**/*.{p12,pfx,PFX,ppk,jks,keystore,kdbx}', '**/.*', '**/config*', '**/*tfstate*'].map((pattern): Row => ({
      name: `glob "${pattern}" lists no new secret`,
      tool: 'glob',
      input: { pattern },
      opens: [],
      untouched: ROUND2_SECRETS,
    })),
  ];
  for (const row of rows)
    it(`${row.tool}: ${row.name}`, () =>
      checkRow(
        row,
        fx,
        ROUND2_SECRETS.filter((path) => !(row.grantedAlso ?? []).some((granted) => path.startsWith(`${granted}/`)) || path === 'home/.aws/credentials'),
      ));
});

/**
 * Runs one row through answerGrep / answerGlob with every open and listing recorded, and checks the record:
 * nothing outside the granted scope, none of `never` (below the fixture root), and what the row expects.
 */
async function checkRow(row: Row, fx: Fixture, never: readonly string[]): Promise<void> {
  const at = (relative: string) => fx.path(relative);
  const root = fx.root;
  const fill = (value: unknown): unknown => (typeof value === 'string' ? value.replace('<root>', root) : value);
  const input = Object.fromEntries(Object.entries(row.input).map(([key, value]) => [key, fill(value)]));
  const workspace = folders(...(row.folders ?? ['ws']).map(at));
  const recorder = new FsRecorder();
  const env: SearchEnvironment = recorder.instrument(makeEnv(workspace, row.env));
  let output: { files: unknown[]; skipped: Record<string, number> } | undefined;
  let failure: Error | undefined;
  await recorder.record(async () => {
    try {
      const text = row.tool === 'grep' ? printGrep(await answerGrep(parseGrepInput(input), env)) : printGlob(await answerGlob(parseGlobInput(input), env));
      output = readAnswer<GrepAnswer | GlobAnswer>(text);
    } catch (error) {
      failure = error as Error;
    }
  });
  const relative = (paths: string[]) => paths.map((path) => nodePath.relative(root, path).split(nodePath.sep).join('/')).sort();

  // 1. Nothing outside the granted scope, whatever the case.
  const granted = [...workspace.map((folder) => folder.path), ...(row.grantedAlso ?? []).map(at)].map((path) => fs.realpathSync(path));
  const violations = recorder.accesses.filter((access) => !inScope(access.path, granted, access.op)).map((a) => `${a.op} ${a.path} (${a.via})`);
  assert.deepStrictEqual(violations, [], 'opened or listed outside the granted scope');
  for (const path of [...never, ...(row.untouched ?? [])]) {
    if (row.folders?.includes('other') && (path.startsWith('other') || path === 'ws/link-other')) continue;
    assert.ok(!recorder.accesses.some((access) => access.path === at(path)), `${path} was touched`);
  }

  // 2. What the case expects.
  if (row.error) {
    assert.ok(failure, `expected an error, got ${JSON.stringify(output)}`);
    assert.match(failure.message, row.error);
    if (row.errorNever) assert.doesNotMatch(failure.message, row.errorNever);
    if (row.mayList) assert.deepStrictEqual(recorder.opened(), [], 'a refused call opens nothing');
    else assert.deepStrictEqual(recorder.accesses, [], 'a refused call opens and lists nothing');
    return;
  }
  assert.ok(!failure, `unexpected error: ${failure?.message}`);
  assert.ok(output);
  // .gitignore files hold rules, not content to search (the walker reads them where it walks): in scope, checked above.
  const searched = recorder.opened().filter((path) => nodePath.basename(path) !== '.gitignore');
  if (row.opens) assert.deepStrictEqual(relative(searched), [...row.opens].sort(), 'files opened');
  if (row.reports) {
    const reported = output.files.map((file) => (typeof file === 'string' ? file : (file as { file: string }).file));
    assert.deepStrictEqual(relative(reported), [...row.reports].sort(), 'files reported');
  }
  for (const [key, value] of Object.entries(row.skipped ?? {})) assert.strictEqual(output.skipped[key], value, `skipped.${key}`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether an opened or listed path lies in the granted scope: its real path is inside a granted root and
 * neither it nor a directory above it matches a denied rule (a listed directory must not be one a rule hides).
 */
function inScope(path: string, granted: readonly string[], op: 'open' | 'list'): boolean {
  let real: string;
  try {
    real = fs.realpathSync(path);
  } catch {
    real = path;
  }
  const roots = granted.filter((root) => real === root || real.startsWith(root + nodePath.sep));
  if (roots.length === 0) return false;
  const root = roots.reduce((a, b) => (b.length > a.length ? b : a));
  const segments = nodePath.relative(root, real).split(nodePath.sep).filter(Boolean);
  for (let i = 1; i <= segments.length; i++) {
    const prefix = segments.slice(0, i).join('/');
    const denied = (candidate: string) => DEFAULT_DENIED_PATHS.some((rule) => minimatch(candidate, rule, { dot: true, nocase: true }));
    if (denied(prefix) || ((op === 'list' || i < segments.length) && denied(`${prefix}/x`))) return false;
  }
  return true;
}
