import { useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { Dialog } from '../../components/Dialog';
import { counted } from '../../format';
import { useApp } from '../../store';
import { useAction } from '../../useAction';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

type Removal = RequestOutput<'library:folderRemoval'>;

/** "Remove" on a folder: says what would leave the library (and what stays), then asks. */
export function RemoveFolder({ path }: { path: string }) {
  const toast = useApp((s) => s.toast);
  const [plan, setPlan] = useState<Removal | null>(null);
  const send = useRequest();
  const [busy, act] = useAction();
  const { locked } = useReadOnly();
  const ask = () => send('library:folderRemoval', { path }, setPlan);
  const remove = () =>
    act(async () => {
      const { runs, kept } = await request('library:removeFolder', { path });
      toast(
        'info',
        `Removed ${path}: ${counted(runs, 'run')} left the library` +
          (kept
            ? `, ${counted(kept, 'run')} ${kept === 1 ? 'stays' : 'stay'} (another folder provides ${kept === 1 ? 'it' : 'them'}).`
            : '.'),
      );
      setPlan(null);
    });
  return (
    <>
      <button className="link" {...locked} onClick={ask}>
        Remove
      </button>
      {plan ? (
        <Dialog
          title="Remove this folder?"
          confirm={`Remove folder and ${counted(plan.runs, 'run')}`}
          danger
          busy={busy}
          onConfirm={remove}
          onCancel={() => setPlan(null)}
        >
          <p className="mono">{plan.path}</p>
          <p>
            Pairwise stops watching it, and {counted(plan.runs, 'run')} from{' '}
            {counted(plan.sources, 'file')} {plan.runs === 1 ? 'leaves' : 'leave'} the library. The
            files on disk are not touched, and findings keep their own snapshots.
          </p>
          {plan.kept > 0 ? (
            <p>
              {counted(plan.kept, 'run')} {plan.kept === 1 ? 'stays' : 'stay'}:{' '}
              {plan.keptBy.join(', ')} also provides {plan.kept === 1 ? 'its' : 'their'} files.
            </p>
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}
