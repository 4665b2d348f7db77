/** fold.ts's foldText without folding: the bench's planner over literals in their own case (`--case`). */
export function foldText(text: string): string {
  return text;
}
