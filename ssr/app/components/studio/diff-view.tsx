// Two revisions compared: the fields that differ, and the body line by line.
import type { Diff } from "~/lib/studio";

export function DiffView({ diff }: { diff: Diff }) {
  return (
    <section aria-labelledby="diff-title" className="mt-8" data-diff>
      <h2 id="diff-title" className="text-xl font-semibold">
        Revision {diff.from.number} → revision {diff.to.number}
      </h2>
      {diff.fields.length > 0 && (
        <table className="mt-3 w-full text-left text-sm">
          <thead>
            <tr>
              <th className="pr-3">Field</th>
              <th className="pr-3">Was</th>
              <th>Is</th>
            </tr>
          </thead>
          <tbody>
            {diff.fields.map((f) => (
              <tr key={f.name} className="align-top">
                <td className="pr-3 font-medium">{f.name}</td>
                <td className="pr-3 break-all text-red-800 line-through dark:text-red-300">{f.from}</td>
                <td className="break-all text-green-800 dark:text-green-300">{f.to}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <pre className="mt-3 overflow-x-auto rounded-md border border-gray-200 p-3 text-sm whitespace-pre-wrap dark:border-gray-800">
        {diff.body.map((p, i) =>
          p.op === "equal" ? (
            <span key={i}>{p.text}</span>
          ) : p.op === "insert" ? (
            <ins key={i} className="bg-green-100 text-green-900 no-underline dark:bg-green-950 dark:text-green-100">
              {p.text}
            </ins>
          ) : (
            <del key={i} className="bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100">
              {p.text}
            </del>
          ),
        )}
      </pre>
    </section>
  );
}
