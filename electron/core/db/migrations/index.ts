import { m001Initial } from './001-initial';
import { m002Comparisons } from './002-comparisons';
import { m003Findings } from './003-findings';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Ordered; a migration's version is its position. Never edit a shipped migration: add one. */
export const migrations: Migration[] = [m001Initial, m002Comparisons, m003Findings];

export const latestVersion = migrations.length;
