// CodeMirror 6 with Markdown (decision 0046), loaded only by the studio's
// editor once the page runs its scripts: a chunk of its own, never in a public
// page's bytes. It takes over a textarea (which stays the form's field, so a
// post without the editor's help still carries the text).
import { markdown } from "@codemirror/lang-markdown";
import { basicSetup, EditorView } from "codemirror";

export interface MountedEditor {
  insert(text: string): void;
  destroy(): void;
}

export function mountEditor(textarea: HTMLTextAreaElement, nonce: string | undefined, onChange: (text: string) => void): MountedEditor {
  const view: EditorView = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      markdown(),
      EditorView.lineWrapping,
      // The site's CSP admits a <style> only with the page's nonce.
      EditorView.cspNonce.of(nonce ?? ""),
      EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") ?? "Body (Markdown)" }),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        textarea.value = u.state.doc.toString();
        onChange(textarea.value);
      }),
    ],
  });
  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.classList.add("studio-codemirror");
  textarea.hidden = true;
  return {
    insert(text) {
      view.dispatch(view.state.replaceSelection(text));
      view.focus();
    },
    destroy() {
      view.destroy();
      textarea.hidden = false;
    },
  };
}
