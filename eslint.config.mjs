// General lint of the sources and tests (npm run lint runs it after the dependency rule of .dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/fixtures/**', '.test-artifacts/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore marks a value left out on purpose (`const { offset: _offset, ...rest } = input`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Type-checked rules that find real bugs for little time: a promise nobody awaits or handles, an await of a non-promise.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // A function of the product reads on one screen (tests, whose cases are long lists of steps, are not held to it).
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 50, skipBlankLines: true, skipComments: true }] },
  },
);
