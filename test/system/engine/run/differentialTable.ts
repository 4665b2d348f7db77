/**
 * The differential table: a tree with nested .gitignore files, binary files, BOM and UTF-16 files, CRLF
 * line ends, long lines and unicode, and the patterns and flags searched in it (against ripgrep in
 * differential.test.ts, with and without the index in index/indexDifferential.test.ts).
 */
import type { GrepInput } from '../../../../src/engine/api/types';
import type { Fixture } from '../../../unit/fixture';

export function writeDifferentialTree(fx: Fixture): void {
  const utf16 = (text: string, bigEndian = false) => {
    const le = Buffer.from(text, 'utf16le');
    if (bigEndian) for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
    return Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), le]);
  };
  fx.files({
    '.gitignore': 'build/\n*.log\n!keep.log\n',
    'src/.gitignore': 'generated/\n',
    'src/app.ts': 'import { needle } from "./lib";\n// a needle in the code\nconst NEEDLE = needle + 1;\nexport function needled() {}\n',
    'src/lib.ts': 'export const needle = 42; // needle needle\nexport const haystack = "no match here";\n',
    'src/generated/out.ts': 'needle generated\n',
    'src/crlf.ts': 'line one needle;\r\nline two;\r\nend;\r\nneedle at end;\r\n',
    'src/long.js': `${'x'.repeat(3000)}needle${'y'.repeat(3000)}\nshort needle\n`,
    'src/unicode.txt': 'café needle\nnaïve NEEDLE résumé\nÜber needle straße\n日本語 needle テキスト\n',
    'src/bom.txt': '\ufeffneedle after a BOM\nsecond line\n',
    'src/utf16le.txt': utf16('needle in utf-16 le\nanother line\nNEEDLE again\n'),
    'src/utf16be.txt': utf16('needle in utf-16 be\nlast\n', true),
    // Word boundaries at Unicode word characters: a mark (U+FE0F, U+0301), a joiner (U+200D), a letter
    // number (U+2160), and non-word numbers (superscript two, one half) next to the word.
    'src/words.txt': '\ufe0fimport x\nimport\u0301 y\n\u200dimport z\n\u2160import w\n\u00b2import v\nimport\u00bd u\nplain import t\n',
    'src/multi.txt': 'start of block\nmiddle needle\nend of block\nstart again end\n',
    'data/blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3]), Buffer.from('needle\n')]),
    'app.log': 'needle in a log\n',
    'keep.log': 'needle kept\n',
    'build/out.js': 'needle built\n',
    // build/ hides build/ only: git and ripgrep on Linux match .gitignore names with their case.
    'Build/Out.ts': 'needle built by another name\n',
    '.hidden/config.txt': 'needle in a hidden dir\n',
    '.env': 'needle secret\n',
    'node_modules/pkg/index.js': 'needle in node_modules\n',
    'big.txt': `needle\n${'z'.repeat(1100 * 1024)}\n`,
  });
}

export const DIFFERENTIAL_TABLE: readonly GrepInput[] = [
  { pattern: 'needle' },
  { pattern: 'NEEDLE', case_insensitive: true },
  { pattern: '(?i)needle' },
  { pattern: 'needle', word: true },
  { pattern: 'import', word: true },
  { pattern: 'need\\w*' },
  { pattern: 'ne+dle\\b' },
  { pattern: 'needle + 1', fixed_strings: true },
  { pattern: 'café|naïve|straße' },
  { pattern: '[\\p{Script=Han}]+' },
  { pattern: '^export' },
  { pattern: 'end;$' },
  { pattern: 'start.*?end', multiline: true },
  { pattern: 'needle', invert_match: true },
  { pattern: 'needle', include: '*.ts' },
  { pattern: '\\d+' },
];
