// The editor's picture tool: a file to upload or an https address, and the words a screen reader
// says instead of the picture (alt text, required: a post is read by people who cannot see it).
import { clsx } from "clsx";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { POST_IMAGE_MAX_BYTES, quickImageProblem } from "../../shared/schemas/uploads.ts";

export type InsertImage = { src: string; alt: string; width?: number; height?: number };

const focusRing =
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2";
const input =
  "h-8 min-w-0 rounded border border-slate-300 px-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-500";

export function ImageBar(props: {
  upload: (file: File) => Promise<InsertImage>;
  onInsert: (img: InsertImage) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [address, setAddress] = useState("");
  const [alt, setAlt] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function insert() {
    const description = alt.trim();
    if (!file && !address.trim()) return setError("Choose an image file or enter its address");
    if (!description) return setError("Please describe the image for readers who cannot see it");
    if (file) {
      const problem = quickImageProblem(file, POST_IMAGE_MAX_BYTES, "Image");
      if (problem) return setError(problem);
      setBusy(true);
      try {
        const img = await props.upload(file);
        props.onInsert({ ...img, alt: description });
      } catch (err) {
        setError(err instanceof Error ? err.message : "The image could not be uploaded. Please try again.");
      } finally {
        setBusy(false);
      }
      return;
    }
    const src = address.trim();
    if (!/^https:\/\/[^\s"'<>]+$/i.test(src)) return setError("Please enter an address starting with https://");
    props.onInsert({ src, alt: description });
  }

  const onKey = (e: KeyboardEvent) => {
    // Enter must not submit the surrounding form.
    if (e.key === "Enter") {
      e.preventDefault();
      void insert();
    } else if (e.key === "Escape") {
      e.preventDefault();
      props.onCancel();
    }
  };

  return (
    <fieldset className="space-y-2 border-b border-slate-200 bg-white px-2 py-2" aria-busy={busy || undefined}>
      <legend className="sr-only">Insert image</legend>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-file`} className="text-xs font-medium text-slate-700">
          Upload
        </label>
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept="image/*"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setError("");
          }}
          className="max-w-full text-xs text-slate-600 file:mr-2 file:rounded file:border-0 file:bg-indigo-50 file:px-2 file:py-1 file:text-xs file:font-medium file:text-brand-700"
        />
        <span className="text-xs text-slate-500">or</span>
        <label htmlFor={`${id}-url`} className="text-xs font-medium text-slate-700">
          Image address
        </label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://"
          value={address}
          disabled={file !== null}
          onChange={(e) => {
            setAddress(e.target.value);
            setError("");
          }}
          onKeyDown={onKey}
          className={clsx(input, "flex-1 disabled:bg-slate-100")}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-alt`} className="text-xs font-medium text-slate-700">
          Alt text
        </label>
        <input
          id={`${id}-alt`}
          value={alt}
          maxLength={300}
          placeholder="What the picture shows"
          aria-invalid={error.startsWith("Please describe") || undefined}
          onChange={(e) => {
            setAlt(e.target.value);
            setError("");
          }}
          onKeyDown={onKey}
          className={clsx(input, "flex-1")}
        />
        <button
          type="button"
          disabled={busy}
          onClick={() => void insert()}
          className={clsx(
            "h-8 rounded bg-brand-600 px-3 text-xs font-semibold text-white hover:bg-brand-700 disabled:opacity-60",
            focusRing,
          )}
        >
          {busy ? "Uploading..." : "Insert"}
        </button>
        <button
          type="button"
          onClick={props.onCancel}
          className={clsx("h-8 rounded px-3 text-xs font-semibold text-slate-700 hover:bg-slate-100", focusRing)}
        >
          Cancel
        </button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
