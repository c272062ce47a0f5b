import { request } from '../../api';
import { counted, downloadText } from '../../format';
import { useApp } from '../../store';
import type { ExamplesFilter, LoadedReport } from '../../store/workbench';

/** Exports the examples as CSV: this view (pair and filters) or every pair; says how many. */
export function useExamplesCsv(
  loaded: LoadedReport | null,
  pair: number,
  filter: ExamplesFilter,
): (all: boolean) => Promise<void> {
  const toast = useApp((s) => s.toast);
  return async (all: boolean) => {
    if (!loaded) return;
    try {
      const file = await request(
        'export:examplesCsv',
        all ? { reportKey: loaded.key } : { reportKey: loaded.key, pair, filter },
      );
      downloadText(file.filename, file.content);
      toast('info', `Exported ${counted(file.examples, 'example')} to ${file.filename}.`);
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
}
