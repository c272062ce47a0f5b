/** Markers around the coverage table in docs/benchmarks.md, shared by both benchmarks. */
export const COVERAGE_START = '<!-- coverage:start -->';
export const COVERAGE_END = '<!-- coverage:end -->';
