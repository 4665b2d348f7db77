/** The JSON the model receives from each tool (SPEC §3, §4), as the tests read it. */

export interface GrepContentMatch {
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

export type SkipCountsJson = { binary: number; too_large: number; denied: number; unreadable: number; outside_workspace: number };

/** What both tools' answers carry. */
interface AnswerCommon {
  pattern: string;
  base_path: string | string[];
  truncated: boolean;
  next_offset?: number;
  skipped: SkipCountsJson;
  timed_out?: boolean;
  elapsed_ms: number;
  notes: string[];
}

/** grep's answer: the union of the three output modes' fields. */
export interface GrepAnswer extends AnswerCommon {
  output_mode: string;
  /** content: {file, matches}; count: {file, count}; files_with_matches: paths. */
  files: Array<{ file: string; matches?: GrepContentMatch[]; count?: number } | string>;
  total_matches?: number;
  returned_matches?: number;
  returned_files?: number;
  files_searched: number;
  files_matched: number;
}

export interface GlobAnswer extends AnswerCommon {
  mode: string;
  files: string[];
  count: number;
  total: number;
}
