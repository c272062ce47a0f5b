import { useState, type DragEvent, type ReactNode } from 'react';
import { isDesktop, pathForFile, request, uploadFiles } from '../../api';
import { useApp } from '../../store';
import { droppedFiles, type DroppedEntry } from './droppedFiles';
import { READ_ONLY_TITLE, useReadOnly } from '../../useReadOnly';

/**
 * Desktop: dropped files and folders are indexed where they are. Browser host: the page cannot
 * see paths, so dropped files are uploaded into a managed folder under the data folder, dropped
 * folders with their structure.
 */
export function DropZone({ children }: { children: ReactNode }) {
  const [over, setOver] = useState(false);
  const toast = useApp((s) => s.toast);
  const { readOnly } = useReadOnly();

  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (readOnly) return toast('error', `${READ_ONLY_TITLE}: files cannot be added here.`);
    const files = [...event.dataTransfer.files];
    // Entries must be taken before the first await: the drop's data is gone after it.
    const entries = isDesktop
      ? []
      : [...event.dataTransfer.items].map(
          (item) => item.webkitGetAsEntry() as unknown as DroppedEntry | null,
        );
    if (files.length === 0 && entries.length === 0) return;
    try {
      if (isDesktop) {
        for (const file of files) {
          const path = pathForFile(file);
          if (path) await request('library:addFolder', { path, watch: true });
        }
      } else {
        const folder = await uploadFiles(await droppedFiles(entries, files));
        await request('library:addFolder', { path: folder, watch: false });
      }
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  return (
    <div
      className={over ? 'drop-zone over' : 'drop-zone'}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      {children}
      {over ? <div className="drop-hint">Drop run files to index them</div> : null}
    </div>
  );
}
