/**
 * Preloaded (`node --require`) into a browser host started for screenshots, so that two runs
 * write the same bytes. The core stamps revisions, comparisons and jobs with the wall clock and
 * names findings and limitations with random UUIDs; here the clock stands still at
 * PAIRWISE_FIXED_CLOCK and each place that asks for a UUID gets its own counted sequence. A
 * sequence per call site (not one for the whole process) keeps a finding's id the same when a
 * comparison job happens to start before or after it.
 */
const nodeCrypto = require('node:crypto');

const fixed = Date.parse(process.env.PAIRWISE_FIXED_CLOCK ?? '');
if (Number.isNaN(fixed)) throw new Error('PAIRWISE_FIXED_CLOCK must be an ISO 8601 instant');

const RealDate = Date;
function FixedDate(...args) {
  if (!new.target) return new RealDate(fixed).toString();
  return Reflect.construct(RealDate, args.length > 0 ? args : [fixed], new.target);
}
FixedDate.prototype = RealDate.prototype;
Object.setPrototypeOf(FixedDate, RealDate);
FixedDate.now = () => fixed;
globalThis.Date = FixedDate;

const counts = new Map();
/** The caller's function and position in its bundle: stable for one build, on any checkout. */
function callSite() {
  const frame = (new Error().stack ?? '').split('\n')[3] ?? '';
  return frame.replace(/\(?[^()\s]*[\\/]/, '').trim();
}
nodeCrypto.randomUUID = () => {
  const site = callSite();
  const n = (counts.get(site) ?? 0) + 1;
  counts.set(site, n);
  const hex = nodeCrypto.createHash('sha256').update(`${site}#${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
