/** The id under which a comparison of two chosen runs is cached, announced and shown. */
export function pairExperimentId(baseline: string, candidate: string): string {
  return `pair:${baseline}..${candidate}`;
}
