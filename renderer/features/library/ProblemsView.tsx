import { counted } from '../../format';
import { useApp } from '../../store';

export function ProblemsView() {
  const problems = useApp((s) => s.problems);
  if (problems.length === 0)
    return <p className="muted pad">No problems: every recognised file was indexed.</p>;
  return (
    <section className="problems">
      <header className="toolbar">
        <h2>Problems</h2>
        <span className="muted">
          {counted(problems.length, 'file')} could not be indexed; everything else was.
        </span>
      </header>
      <ul className="problem-list">
        {problems.map((p) => (
          <li key={p.path}>
            <div className="mono path">{p.path}</div>
            <div>{p.message}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}
