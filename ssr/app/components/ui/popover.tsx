// A popover on the native popover attribute: the button opens and closes it
// without JavaScript, Escape and a click outside close it, and it sits in the
// top layer (nothing clips it).
import { useId } from "react";
import { buttonClass, type ButtonVariant } from "./button";

export interface PopoverProps {
  triggerLabel: string;
  title: string;
  text: string;
  variant?: ButtonVariant;
}

export function Popover({ triggerLabel, title, text, variant = "secondary" }: PopoverProps) {
  const id = useId();
  return (
    <>
      <button type="button" popoverTarget={id} className={buttonClass(variant, "md")}>
        {triggerLabel}
      </button>
      <div
        id={id}
        popover="auto"
        role="dialog"
        aria-label={title}
        className="m-auto w-[min(22rem,calc(100vw-2rem))] rounded-xl bg-white p-5 text-sm text-gray-700 shadow-xl ring-1 ring-gray-200 dark:bg-gray-900 dark:text-gray-300 dark:ring-white/10"
      >
        <p className="font-semibold text-gray-900 dark:text-white">{title}</p>
        <p className="mt-2">{text}</p>
        <button type="button" popoverTarget={id} popoverTargetAction="hide" className={`mt-4 ${buttonClass("ghost", "sm")}`}>
          Close
        </button>
      </div>
    </>
  );
}
