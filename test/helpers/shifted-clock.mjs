// Preloaded into a spawned `ds-mirror` (`node --import ./test/helpers/shifted-clock.mjs bin/ds-mirror.js`)
// to run it as if started DS_TEST_CLOCK_SHIFT_HOURS later: `Date.now()` and `new Date()` move, timers do
// not. The product reads no such variable; a test walks the mirror's time through the door a user opens
// (a run six hours later) without waiting six hours. Dates built from a value are left as they are.
const shiftMs = Number(process.env.DS_TEST_CLOCK_SHIFT_HOURS ?? 0) * 3_600_000;
if (!Number.isFinite(shiftMs)) throw new Error('DS_TEST_CLOCK_SHIFT_HOURS must be a number of hours');
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + shiftMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + shiftMs;
  }
}
globalThis.Date = ShiftedDate;
