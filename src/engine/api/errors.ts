/** The two errors every layer may raise: bad input (its message names the problem and the fix) and a cancelled search. */

/** Input a tool refuses: the message is written for the model, and says what to change. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** The caller cancelled the search (a VS Code CancellationToken, or a closed quick pick). */
export class CancelledError extends Error {
  constructor() {
    super('The search was cancelled.');
    this.name = 'CancelledError';
  }
}
