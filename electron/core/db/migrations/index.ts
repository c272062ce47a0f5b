import { m001Initial } from './001-initial';
import { m002Comparisons } from './002-comparisons';
import { m003Findings } from './003-findings';
import { m004ExplorerIndexes } from './004-explorer-indexes';
import { m005FtsDetailColumn } from './005-fts-detail-column';
import { m006ExplorerSortIndexes } from './006-explorer-sort-indexes';
import { m007BulkFts } from './007-bulk-fts';
import { m008CompactPairRows } from './008-compact-pair-rows';
import { m009OverridesUndo } from './009-overrides-undo';
import { m010ExampleTraces } from './010-example-traces';
import { m011PairDeltas } from './011-pair-deltas';
import { m012PairArrays } from './012-pair-arrays';
import { m013RunColumns } from './013-run-columns';
import { m014SearchCache } from './014-search-cache';
import { m015FtsDetailNone } from './015-fts-detail-none';
import { m016ObjectSources } from './016-object-sources';
import { m017DropFieldsHash } from './017-drop-fields-hash';
import { m018RunTexts } from './018-run-texts';
import { m019KeysNotRows } from './019-keys-not-rows';
import { m020PairFiles } from './020-pair-files';
import { m021UnarchivedBlocks } from './021-unarchived-blocks';
import { m022WholeNumberIds } from './022-whole-number-ids';
import { m023NumberedIds } from './023-numbered-ids';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Ordered; a migration's version is its position. Never edit a shipped migration: add one. */
export const migrations: Migration[] = [
  m001Initial,
  m002Comparisons,
  m003Findings,
  m004ExplorerIndexes,
  m005FtsDetailColumn,
  m006ExplorerSortIndexes,
  m007BulkFts,
  m008CompactPairRows,
  m009OverridesUndo,
  m010ExampleTraces,
  m011PairDeltas,
  m012PairArrays,
  m013RunColumns,
  m014SearchCache,
  m015FtsDetailNone,
  m016ObjectSources,
  m017DropFieldsHash,
  m018RunTexts,
  m019KeysNotRows,
  m020PairFiles,
  m021UnarchivedBlocks,
  m022WholeNumberIds,
  m023NumberedIds,
];

export const latestVersion = migrations.length;
