/**
 * Short names for two conditions that share a long prefix (`hf/google/gemma-2-2b-it
 * steering.feature_id=4521 …` vs `… feature_id=4522 …`): the words both share go to `shared`,
 * each side keeps the words that tell it apart. Names with nothing in common stay whole.
 */
export function shortPair(
  reference: string,
  candidate: string,
): { reference: string; candidate: string; shared: string } {
  const a = reference.split(' ');
  const b = candidate.split(' ');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const ownA = a.slice(head, a.length - tail).join(' ');
  const ownB = b.slice(head, b.length - tail).join(' ');
  if (ownA === '' || ownB === '') return { reference, candidate, shared: '' };
  const shared = [...a.slice(0, head), ...(tail > 0 ? ['…', ...a.slice(a.length - tail)] : [])]
    .join(' ')
    .trim();
  return { reference: ownA, candidate: ownB, shared };
}
