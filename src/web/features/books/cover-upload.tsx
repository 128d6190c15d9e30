import { ImagePlus, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { BOOK_MESSAGES, COVER_MAX_BYTES } from "../../../shared/schemas/book.ts";
import { Button } from "../../components/ui/button.tsx";

/** Picks a cover image and previews it; the page uploads it once the book is saved. */
export function CoverUpload({
  currentUrl,
  file,
  onFile,
  removed,
  onRemovedChange,
}: {
  currentUrl: string | null;
  file: File | null;
  onFile: (file: File | null) => void;
  /** The current cover is to be removed on save. */
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const shown = preview ?? (removed ? null : currentUrl);

  return (
    <div className="flex items-start gap-5">
      <div className="flex h-48 w-32 shrink-0 items-center justify-center overflow-hidden rounded-lg border-2 border-dashed border-slate-300 bg-slate-50">
        {shown ? (
          <img src={shown} alt="Cover preview" className="h-full w-full object-cover" data-testid="cover-preview" />
        ) : (
          <ImagePlus className="h-8 w-8 text-slate-400" aria-hidden="true" />
        )}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          Cover image
        </label>
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept="image/*"
          onChange={(e) => {
            const picked = e.target.files?.[0] ?? null;
            // The server judges the bytes; these are the quick answers it would give anyway.
            const problem = !picked
              ? null
              : !picked.type.startsWith("image/") || picked.type === "image/svg+xml"
                ? BOOK_MESSAGES.notImage
                : picked.size > COVER_MAX_BYTES
                  ? `Cover image must be ${COVER_MAX_BYTES / (1024 * 1024)} MB or smaller`
                  : null;
            if (problem) {
              setError(problem);
              e.target.value = "";
              onFile(null);
              return;
            }
            setError(null);
            onFile(picked);
          }}
          className="block w-full max-w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-indigo-100"
        />
        <p className="text-xs text-slate-500">JPEG, PNG, WebP or GIF. A 2:3 portrait image looks best.</p>
        {error && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {error}
          </p>
        )}
        {file && (
          <Button
            look="editor"
            variant="ghost"
            size="sm"
            onClick={() => {
              onFile(null);
              if (inputRef.current) inputRef.current.value = "";
            }}
          >
            <X className="h-4 w-4" aria-hidden="true" />
            Remove selected image
          </Button>
        )}
        {!file && currentUrl && !removed && (
          <Button look="editor" variant="ghost" size="sm" onClick={() => onRemovedChange(true)}>
            <X className="h-4 w-4" aria-hidden="true" />
            Remove cover
          </Button>
        )}
        {!file && currentUrl && removed && (
          <p className="flex items-center gap-2 text-xs text-slate-600" role="status">
            The cover will be removed when you save.
            <Button look="editor" variant="ghost" size="sm" onClick={() => onRemovedChange(false)}>
              Undo
            </Button>
          </p>
        )}
      </div>
    </div>
  );
}
