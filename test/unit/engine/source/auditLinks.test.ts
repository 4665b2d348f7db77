/**
 * The audit of a listing made by someone else meets symbolic links: with `search.followSymlinks` off,
 * nothing reached through a link is kept (as ripgrep without --follow); with an allow-list, a link is
 * followed only where the list allows what it leads to; a link to a granted place outside the folder is
 * followed.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { auditListing, type AuditOptions } from '../../../../src/engine/source/audit';
import type { PrunedEntry } from '../../../../src/engine/source/fileSource';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { Fixture } from '../../fixture';

describe('engine/source/audit through symbolic links', () => {
  const fx = new Fixture('grep-tools-audit-links-');
  let ws: string;
  before(() => {
    ws = fx.mkdir('ws');
    fx.files({ 'ws/src/a.ts': 'a\n', 'ws/docs/d.md': 'd\n', 'shared/s.ts': 's\n' });
    fx.symlink(fx.path('ws/docs'), 'ws/src/docs-link');
    fx.symlink(fx.path('ws/docs/d.md'), 'ws/src/d-link.md');
    fx.symlink(fx.path('shared'), 'ws/shared-link');
  });
  after(() => fx.remove());

  // As findFiles, following links, lists the folder.
  const listing = ['docs/d.md', 'shared-link/s.ts', 'src/a.ts', 'src/d-link.md', 'src/docs-link/d.md'];
  const audit = async (options: Partial<AuditOptions>) => {
    const pruned: PrunedEntry[] = [];
    const files = listing.map((relative) => ({ path: nodePath.join(ws, ...relative.split('/')), relative }));
    const kept = await auditListing({ root: ws, base: ws, folderIndex: 0 }, 0, files, {
      granted: [],
      denied: DEFAULT_DENIED_PATHS,
      excluded: () => false,
      pruned,
      ...options,
    });
    return { kept: kept.map((file) => file.relative), pruned: pruned.map((entry) => `${entry.reason} ${entry.relative}`).sort() };
  };

  it('follows links within the folder, and refuses one leading out of it', async () => {
    assert.deepStrictEqual(await audit({}), {
      kept: ['docs/d.md', 'src/a.ts', 'src/d-link.md', 'src/docs-link/d.md'],
      pruned: ['outside_workspace shared-link'],
    });
  });

  it('follows a link to a place granted beside the folder (a confirmed path outside it)', async () => {
    assert.deepStrictEqual((await audit({ granted: [fx.path('shared')] })).kept, listing);
  });

  it('with followSymlinks off, keeps nothing reached through a link, and counts none of them', async () => {
    assert.deepStrictEqual(await audit({ followSymlinks: false }), { kept: ['docs/d.md', 'src/a.ts'], pruned: [] });
  });

  it('with an allow-list, follows a link only where the list allows what it leads to', async () => {
    const result = await audit({ allowed: ['src/**'] });
    assert.deepStrictEqual(result.kept, ['docs/d.md', 'src/a.ts']);
    assert.deepStrictEqual(result.pruned, ['denied src/d-link.md', 'denied src/docs-link', 'outside_workspace shared-link']);
  });

  it("gives the same verdicts with its directories listed in the pool's workers (VS Code's listing)", async () => {
    const pool = new SearchPool(2);
    try {
      for (const options of [{}, { granted: [fx.path('shared')] }, { followSymlinks: false }, { allowed: ['src/**'] }]) {
        assert.deepStrictEqual(await audit({ ...options, listDirectories: pool.listDirectories }), await audit(options), JSON.stringify(options));
      }
    } finally {
      pool.dispose();
    }
  });
});
