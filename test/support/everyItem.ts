import { TimeSlices } from '../../src/engine/source/timeSlices';

/** Time slices that end after every item: a loop given them gives the event loop a turn each time, counted in `pauses`. */
export class EveryItem extends TimeSlices {
  pauses = 0;

  constructor(private readonly onPause: () => void = () => undefined) {
    super();
  }

  override due(): boolean {
    return true;
  }

  override async pause(): Promise<void> {
    this.pauses++;
    await super.pause();
    this.onPause();
  }
}
