/** Test helper (Linux): the scheduling niceness of each thread of a process, read from /proc. */
import * as fs from 'fs';

/** The niceness of each thread of `pid` (this process by default); a thread that ended since the listing is left out. */
export function threadNiceness(pid: number | 'self' = 'self'): number[] {
  const niceness: number[] = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that exited since the listing (a terminated worker)
    }
    niceness.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])); // field 19: nice
  }
  return niceness;
}
