// The questions `npm run bench:host` asks of both sides, and `bench/settingCost.mjs` of ours alone.

/** [id, what it asks, our call, Copilot's call]. Copilot's maxResults is what its chat side passes by default. */
export const HOST_QUESTIONS = [
  [
    'rare-literal',
    'rare literal',
    ['grep', { pattern: 'MAX_SAFE_INTEGER', fixed_strings: true }],
    ['copilot_findTextInFiles', { query: 'MAX_SAFE_INTEGER', isRegexp: false, maxResults: 100 }],
  ],
  [
    'frequent-literal',
    'frequent literal',
    ['grep', { pattern: 'TODO', fixed_strings: true }],
    ['copilot_findTextInFiles', { query: 'TODO', isRegexp: false, maxResults: 100 }],
  ],
  [
    'ignore-case',
    'literal, ignore case',
    ['grep', { pattern: 'deprecated', fixed_strings: true, case_insensitive: true }],
    ['copilot_findTextInFiles', { query: 'deprecated', isRegexp: false, maxResults: 100 }],
  ],
  [
    'regex-literal',
    'regex `\\w+Error\\(`',
    ['grep', { pattern: '\\w+Error\\(' }],
    ['copilot_findTextInFiles', { query: '\\w+Error\\(', isRegexp: true, maxResults: 100 }],
  ],
  [
    'regex-class',
    'regex `[A-Z][a-z]+Error`',
    ['grep', { pattern: '[A-Z][a-z]+Error' }],
    ['copilot_findTextInFiles', { query: '[A-Z][a-z]+Error', isRegexp: true, maxResults: 100 }],
  ],
  [
    'include-ts',
    'literal with include `**/*.ts`',
    ['grep', { pattern: 'export declare function', fixed_strings: true, include: '**/*.ts' }],
    ['copilot_findTextInFiles', { query: 'export declare function', isRegexp: false, includePattern: '**/*.ts', maxResults: 100 }],
  ],
  [
    'zero-result',
    'literal with no match',
    ['grep', { pattern: 'zq_no_such_identifier_qz', fixed_strings: true }],
    ['copilot_findTextInFiles', { query: 'zq_no_such_identifier_qz', isRegexp: false, maxResults: 100 }],
  ],
  ['glob-dts', 'glob `**/*.d.ts`', ['glob', { pattern: '**/*.d.ts', max_results: 100 }], ['copilot_findFiles', { query: '**/*.d.ts', maxResults: 100 }]],
  [
    'glob-package',
    'glob `**/package.json`',
    ['glob', { pattern: '**/package.json', max_results: 100 }],
    ['copilot_findFiles', { query: '**/package.json', maxResults: 100 }],
  ],
  ['glob-dir', 'glob `lodash/*.js`', ['glob', { pattern: 'lodash/*.js', max_results: 100 }], ['copilot_findFiles', { query: 'lodash/*.js', maxResults: 100 }]],
];
