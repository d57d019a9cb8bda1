// What comparing each webhook delivery with the envelope's shape costs the receiver's HTTP thread
// (src/receiver/delivery-shape.ts): in one run, parseEnvelope over the same deliveries (decode, parse,
// the shape's walk, the envelope check), and the walk alone over their parsed bodies. The share is the
// second time over the first, the median of the rounds.
//   npx tsx bench/delivery-shape-cost.ts [--deliveries 2000] [--rounds 7]
import { parseArgs } from 'node:util';
import { deliveryChanges } from '../src/receiver/delivery-shape.js';
import { parseEnvelope } from '../src/receiver/parse-envelope.js';
import { makeEnvelope } from '../test/receiver/webhook-fixtures.js';

const { values } = parseArgs({ options: { deliveries: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '7' } } });
const bodies = Array.from({ length: Number(values.deliveries) }, () => Buffer.from(JSON.stringify(makeEnvelope())));
const parsed = bodies.map((b) => JSON.parse(b.toString('utf8')) as unknown);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const whole: number[] = [];
const walk: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  let started = performance.now();
  for (const body of bodies) parseEnvelope(body);
  whole.push(((performance.now() - started) * 1000) / bodies.length);
  started = performance.now();
  for (const json of parsed) deliveryChanges(json);
  walk.push(((performance.now() - started) * 1000) / bodies.length);
}
const [w, s] = [median(whole), median(walk)];
console.log(`parseEnvelope ${w.toFixed(1)} µs a delivery, the shape's walk ${s.toFixed(2)} µs of it: ${((100 * s) / w).toFixed(1)}%`);
