// An image for the body: the file and its alt text (required), sent to the
// edge (POST /api/v1/staff/images), which checks, re-encodes and stores it and
// answers the Markdown to insert; the article then shows it as a <picture>
// with every width and its size.
import { useState, type FormEvent } from "react";

export function ImageUpload({ onUploaded }: { onUploaded: (markdown: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function upload(event: FormEvent<HTMLFieldSetElement> | React.MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const set = (event.currentTarget as HTMLElement).closest("fieldset")!;
    const file = set.querySelector<HTMLInputElement>("input[type=file]")!.files?.[0];
    const alt = set.querySelector<HTMLInputElement>("input[name=alt]")!.value;
    if (!file) return setError("Choose an image file.");
    if (!alt.trim()) return setError("Describe the image for people who cannot see it (alt text).");
    const form = new FormData();
    form.set("alt", alt);
    form.set("file", file);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/staff/images", { method: "POST", body: form, credentials: "same-origin" });
      const json = (await res.json().catch(() => ({}))) as { data?: { markdown: string }; errorDetail?: string };
      if (!res.ok || !json.data) return setError(json.errorDetail ?? `The upload failed (${res.status}).`);
      onUploaded(json.data.markdown);
      set.querySelector<HTMLInputElement>("input[type=file]")!.value = "";
      set.querySelector<HTMLInputElement>("input[name=alt]")!.value = "";
    } catch {
      setError("The upload could not reach the server.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <fieldset className="mt-8 rounded-md border border-gray-300 p-4 dark:border-gray-700" data-image-upload>
      <legend className="px-1 text-sm font-medium">Add an image (with JavaScript)</legend>
      <label className="block text-sm">
        Image (JPEG, PNG, GIF or WebP, up to 15 MB)
        <input type="file" accept="image/jpeg,image/png,image/gif,image/webp" className="mt-1 block text-sm" />
      </label>
      <label className="mt-3 block text-sm">
        Alt text (what the image shows)
        <input name="alt" form="image-upload-none" className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900" />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <button type="button" onClick={upload} disabled={busy} className="mt-3 rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold dark:border-gray-700">
        {busy ? "Uploading…" : "Upload and insert"}
      </button>
    </fieldset>
  );
}
