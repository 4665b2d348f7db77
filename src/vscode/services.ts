/**
 * The extension's services, built once in activate() and handed to the tools and commands: the pool of
 * search workers (started at activation, in the background, so the first search does not wait for its
 * threads), the resident listings (made by the first listing: the workspace's as the window opens, or the
 * first search's where that is off), the keeper of the content index, and the confirmations
 * of outside paths a chat gave (prepareInvocation → invoke). Disposed with the extension.
 */
import type * as vscode from 'vscode';
import { Confirmations } from '../engine/guard/confirmations';
import { SearchPool } from '../engine/pool/pool';
import type { WorkspaceIndexer } from './index/workspaceIndexer';
import { ResidentListings } from './sources/residentListing';
import type { ListingStore } from './sources/storedListing';

/**
 * The grammars the search workers load as they start: a window's first page of definitions in these
 * languages waits for no grammar (about 10-20 ms and a first parse each); others load when first met.
 */
const WARMED_GRAMMARS = ['typescript', 'tsx', 'javascript', 'python'];

export class Services implements vscode.Disposable {
  /** What the person confirmed per tool call (prepareInvocation → invoke), shared by both tools. */
  readonly confirmations = new Confirmations();
  /** The content index's keeper, once started (activate()). */
  indexer?: WorkspaceIndexer;
  private pool?: SearchPool;
  private listings?: ResidentListings;

  constructor(
    /** Where whole workspace folders' listings are kept for the next window (the workspace's storage), if anywhere. */
    private readonly listingStore?: ListingStore,
    /** The extension's log (why a resident listing is made again). */
    private readonly log?: (line: string) => void,
  ) {}

  /**
   * The pool of search workers: its threads run in the background, below the extension host's main thread.
   * With definitions on, each loads the commonest grammars as it starts (WARMED_GRAMMARS).
   */
  searchPool(definitions = true): SearchPool {
    this.pool ??= new SearchPool(undefined, { background: true, grammars: definitions ? WARMED_GRAMMARS : [] });
    return this.pool;
  }

  /** The folders' listings kept between searches; a listing whose directories the watched index watches is not statted again while its shape holds. */
  residentListings(): ResidentListings {
    this.listings ??= new ResidentListings(() => this.indexer?.listingWatch(), undefined, this.listingStore, this.log);
    return this.listings;
  }

  /** Runs a search, counted as under way while it runs (the index's build then waits: WorkspaceIndexer.runSearch). */
  runSearch<T>(search: () => Promise<T>): Promise<T> {
    return this.indexer ? this.indexer.runSearch(search) : search();
  }

  dispose(): void {
    this.pool?.dispose();
    this.pool = undefined;
    this.listings?.dispose();
    this.listings = undefined;
    this.indexer?.dispose();
    this.indexer = undefined;
  }
}
