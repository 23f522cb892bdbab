// The body's field: a plain textarea (the form works without JavaScript),
// which CodeMirror takes over once scripts run, loaded on demand from its own
// chunk (codemirror.client.ts) so no other page carries it.
import { useEffect, useRef } from "react";
import type { MountedEditor } from "./codemirror.client";

export function MarkdownInput({
  defaultValue,
  invalid,
  describedBy,
  onChange,
  insertRef,
}: {
  defaultValue: string;
  invalid: boolean;
  describedBy?: string;
  onChange: (text: string) => void;
  insertRef: React.RefObject<((text: string) => void) | null>;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const change = useRef(onChange);
  change.current = onChange;
  useEffect(() => {
    let editor: MountedEditor | null = null;
    let cancelled = false;
    const textarea = area.current!;
    insertRef.current = (text) => {
      const at = textarea.selectionStart ?? textarea.value.length;
      textarea.setRangeText(text, at, textarea.selectionEnd ?? at, "end");
      change.current(textarea.value);
    };
    import("./codemirror.client")
      .then(({ mountEditor }) => {
        if (cancelled) return;
        // The page's CSP nonce: the nonce property of its own scripts (the
        // browser hides it from their attributes).
        const pageNonce = document.querySelector<HTMLElement>("script[nonce]")?.nonce;
        editor = mountEditor(textarea, pageNonce, (t) => change.current(t));
        insertRef.current = (text) => editor!.insert(text);
      })
      .catch(() => {
        /* the textarea stays: the editor works without CodeMirror */
      });
    return () => {
      cancelled = true;
      editor?.destroy();
    };
  }, [insertRef]);
  return (
    <textarea
      ref={area}
      id="field-body"
      name="body"
      aria-label="Body (Markdown)"
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      defaultValue={defaultValue}
      onChange={(e) => onChange(e.target.value)}
      rows={22}
      className="mt-1 block w-full rounded-md border border-gray-300 bg-white p-3 font-mono text-sm dark:border-gray-700 dark:bg-gray-900"
    />
  );
}
