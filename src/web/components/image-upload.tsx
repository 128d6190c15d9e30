// An uploaded picture on a settings screen (the author photo, the hero image): preview, choose a
// file (uploaded at once; the server stores it as WebP in sizes), remove. The server judges the
// bytes; the quick checks here only save a round trip.
import { ImagePlus, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { quickImageProblem } from "../../shared/schemas/uploads.ts";
import { errorMessage } from "../lib/api.ts";
import { cn } from "../lib/utils.ts";
import { Button } from "./ui/button.tsx";

export function ImageUpload(props: {
  label: string;
  hint: string;
  /** What is shown now: an upload's address or an https link (null: none). */
  currentUrl: string | null;
  shape: "square" | "wide";
  maxBytes: number;
  upload: (file: File) => Promise<void>;
  remove: () => Promise<void>;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(kind: "upload" | "remove", work: () => Promise<void>) {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-wrap items-start gap-5">
      <div
        className={cn(
          "flex shrink-0 items-center justify-center overflow-hidden border-2 border-dashed border-slate-300 bg-slate-50",
          props.shape === "square" ? "h-28 w-28 rounded-full" : "h-28 w-60 rounded-lg",
          props.currentUrl && "border-solid border-slate-200",
        )}
      >
        {props.currentUrl ? (
          <img src={props.currentUrl} alt={`${props.label} preview`} className="h-full w-full object-cover" />
        ) : (
          <ImagePlus className="h-8 w-8 text-slate-400" aria-hidden="true" />
        )}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {props.label}
        </label>
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/*"
          disabled={busy !== null}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            const problem = quickImageProblem(file, props.maxBytes, props.label);
            if (problem) {
              setError(problem);
              e.target.value = "";
              return;
            }
            void run("upload", () => props.upload(file));
          }}
          className="block max-w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-indigo-100"
        />
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {busy === "upload" ? "Uploading..." : props.hint}
        </p>
        {error && (
          <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600">
            {error}
          </p>
        )}
        {props.currentUrl && (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700 hover:bg-red-50"
            disabled={busy !== null}
            onClick={() => void run("remove", props.remove)}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            {busy === "remove" ? "Removing..." : `Remove ${props.label.toLowerCase()}`}
          </Button>
        )}
      </div>
    </div>
  );
}
