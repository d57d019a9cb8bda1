// The sandbox's clock starts now unless pinned. Tests pin it to the start it had before (a seed and a
// start fix every byte), so no test depends on the day it runs: quota months, simulated months and
// advances of days stay where they were, in the past of the mirror's own clock.
export const PINNED_START = new Date('2025-06-01T12:00:00Z');
