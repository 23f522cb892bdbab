// A modal dialog on the native <dialog>: showModal() makes the rest of the
// page inert, traps focus, closes on Escape and returns focus to the button
// that opened it. Without JavaScript the button is disabled (a dialog cannot
// open), and the content is still in the page for readers of the source.
import { useId, useRef } from "react";
import { useHydrated } from "~/components/auth/form-parts";
import { buttonClass, type ButtonVariant } from "./button";

export interface ModalProps {
  triggerLabel: string;
  title: string;
  body: string[];
  closeLabel?: string;
  /** An optional confirming action (a link). */
  action?: { label: string; to: string };
  variant?: ButtonVariant;
}

export function Modal({ triggerLabel, title, body, closeLabel = "Close", action, variant = "primary" }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();
  return (
    <>
      <button type="button" disabled={!hydrated} onClick={() => dialog.current?.showModal()} className={buttonClass(variant, "md")}>
        {triggerLabel}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        onClick={(event) => event.target === dialog.current && dialog.current.close()}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-gray-900 shadow-2xl ring-1 ring-gray-200 backdrop:bg-gray-950/60 dark:bg-gray-900 dark:text-gray-100 dark:ring-white/10"
      >
        <div className="p-6">
          <h2 id={titleId} className="text-xl font-semibold">
            {title}
          </h2>
          {body.map((p) => (
            <p key={p} className="mt-3 text-gray-600 dark:text-gray-300">
              {p}
            </p>
          ))}
          <form method="dialog" className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="submit" className={buttonClass("secondary", "md")}>
              {closeLabel}
            </button>
            {action && (
              <a href={action.to} className={buttonClass("primary", "md")}>
                {action.label}
              </a>
            )}
          </form>
        </div>
      </dialog>
    </>
  );
}
