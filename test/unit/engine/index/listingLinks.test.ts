/**
 * A recorded listing meets symbolic links: a link retargeted further along its chain, outside every
 * listed directory, changes nothing those directories show, yet the listing is stale; so is one whose
 * dangling link comes to lead somewhere. A listing whose links still lead where they led stays fresh.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { linksFresh, listingFresh, recordListing } from '../../../../src/engine/index/listing';
import type { FileQuery } from '../../../../src/engine/source/fileSource';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture } from '../../fixture';
import { age } from './age';

describe('engine/index/listing through symbolic links', () => {
  let fx: Fixture;
  let ws: string;
  beforeEach(() => {
    fx = new Fixture('grep-tools-listing-links-');
    ws = fx.mkdir('ws');
    fx.mkdir('outside');
    fx.files({ 'ws/data/a.txt': 'a\n', 'ws/data/b.txt': 'b\n', 'ws/sub/c.txt': 'c\n' });
    // ws/current.txt -> outside/current -> ws/data/a.txt: the middle link lies in no listed directory.
    fx.symlink(fx.path('ws/data/a.txt'), 'outside/current');
    fx.symlink(fx.path('outside/current'), 'ws/current.txt');
    fx.symlink('nowhere', 'ws/sub/later');
    age(ws);
  });
  afterEach(() => fx.remove());

  const record = () => {
    const query: FileQuery = { bases: [{ root: ws, base: ws, folderIndex: 0 }], includeIgnored: false, respectGitignore: true, granted: [ws] };
    const { listing, files } = recordListing(new NodeFileSource(), query, DEFAULT_DENIED_PATHS, () => false, Date.now());
    assert.ok(listing, 'recorded');
    assert.deepStrictEqual(
      files.map(([, file]) => file.relative),
      ['current.txt', 'data/a.txt', 'data/b.txt', 'sub/c.txt'],
    );
    return listing;
  };

  it('stays fresh while every link leads where it led', () => {
    const listing = record();
    assert.ok(linksFresh(listing));
    assert.ok(listingFresh(listing));
  });

  it('a link retargeted further along its chain makes it stale, though no listed directory changed', () => {
    const listing = record();
    const next = fx.path('outside/next');
    fs.symlinkSync(fx.path('ws/data/b.txt'), next);
    fs.renameSync(next, fx.path('outside/current'));
    assert.strictEqual(linksFresh(listing), false);
    assert.strictEqual(listingFresh(listing), false);
  });

  it('a dangling link that comes to lead to a file makes it stale', () => {
    const listing = record();
    fx.write('ws/sub/nowhere', 'now here\n');
    assert.strictEqual(linksFresh(listing), false);
  });
});
