/** Engine settings: the `grepTools.*` settings (README, Settings), plus the excludes VS Code applies by default. */
export interface EngineConfig {
  maxResults: number;
  maxResultsCap: number;
  maxFileSize: number;
  maxOutputBytes: number;
  maxLineLength: number;
  timeoutSeconds: number;
  deniedPaths: string[];
  allowedPaths: string[];
  respectGitignore: boolean;
  /** Content answers name the definitions enclosing each line and mark the lines that define the name (grepTools.definitions.enabled). */
  definitions: boolean;
}

export const DEFAULT_DENIED_PATHS: readonly string[] = [
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/id_ecdsa*',
  '**/id_dsa*',
  '**/.ssh/**',
  '**/secrets/**',
  '**/.aws/credentials',
  '**/.netrc',
  '**/*.p12',
  '**/*.pfx',
  '**/*.ppk',
  '**/*.jks',
  '**/*.keystore',
  '**/*.kdbx',
  '**/.gnupg/**',
  '**/.git-credentials',
  '**/.pgpass',
  '**/.pypirc',
  '**/.npmrc',
  '**/.docker/config.json',
  '**/.kube/config',
  '**/*.tfstate',
  '**/*.tfstate.*',
  '**/.git/**',
];

export const DEFAULT_CONFIG: Readonly<EngineConfig> = Object.freeze({
  maxResults: 100,
  maxResultsCap: 1000,
  maxFileSize: 1048576,
  maxOutputBytes: 51200,
  maxLineLength: 500,
  timeoutSeconds: 30,
  deniedPaths: [...DEFAULT_DENIED_PATHS],
  allowedPaths: [],
  respectGitignore: true,
  definitions: true,
});

/** VS Code's default `files.exclude` and `search.exclude` globs; the CLI applies them as VS Code would. */
export const DEFAULT_EXCLUDES: readonly string[] = [
  '**/.git',
  '**/.svn',
  '**/.hg',
  '**/.DS_Store',
  '**/Thumbs.db',
  '**/node_modules',
  '**/bower_components',
  '**/*.code-search',
];

/**
 * The size up to which a file over maxFileSize is still searched when an answer is empty or cut, to say
 * whether the pattern occurs in it (diagnostics.ts); the content index reads files up to this size too,
 * so that check usually needs no read.
 */
export const LARGE_FILE_CHECK_MAX_BYTES = 32 * 1024 * 1024;

/** The size of the largest file a search with this maxFileSize, or its large-file check, may read. */
export function checkedFileSize(maxFileSize: number): number {
  return Math.max(maxFileSize, LARGE_FILE_CHECK_MAX_BYTES);
}
