import { m001Initial } from './001-initial';
import { m002Comparisons } from './002-comparisons';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Ordered; a migration's version is its position. Never edit a shipped migration: add one. */
export const migrations: Migration[] = [m001Initial, m002Comparisons];

export const latestVersion = migrations.length;
