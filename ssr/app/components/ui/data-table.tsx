// A data table with a caption. `layout: "scroll"` keeps the table and scrolls
// it sideways on narrow screens; `"stack"` (the flexible table) turns each row
// into a card of label/value pairs below the sm breakpoint.
export interface DataTableProps {
  caption: string;
  columns: string[];
  rows: string[][];
  layout?: "scroll" | "stack";
}

export function DataTable({ caption, columns, rows, layout = "scroll" }: DataTableProps) {
  const stack = layout === "stack";
  return (
    <div className={stack ? "" : "overflow-x-auto"} tabIndex={stack ? undefined : 0} role={stack ? undefined : "region"} aria-label={stack ? undefined : caption}>
      <table className={`w-full text-left text-sm ${stack ? "" : "min-w-xl"}`}>
        <caption className="pb-3 text-left text-base font-semibold text-gray-900 dark:text-white">{caption}</caption>
        <thead className={stack ? "sr-only sm:not-sr-only" : ""}>
          <tr className="border-b border-gray-300 dark:border-white/20">
            {columns.map((c) => (
              <th key={c} scope="col" className="py-2 pr-4 font-semibold text-gray-900 dark:text-white">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.join("|")} className={`border-b border-gray-200 dark:border-white/10 ${stack ? "block py-3 sm:table-row sm:py-0" : ""}`}>
              {row.map((cell, i) => (
                <td key={columns[i]} className={`text-gray-700 dark:text-gray-300 ${stack ? "flex justify-between gap-4 py-1 sm:table-cell sm:py-2 sm:pr-4" : "py-2 pr-4 align-top"}`}>
                  {stack && (
                    <span aria-hidden="true" className="font-medium text-gray-900 sm:hidden dark:text-white">
                      {columns[i]}
                    </span>
                  )}
                  <span>{cell}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
