import { X } from "lucide-react";
import { useState } from "react";
import { focusRing } from "../../components/ui/focus-ring.ts";
import { controlClass } from "../../components/ui/input.tsx";

/** Genres as tags: type and press Enter (or comma) to add; × removes. */
export function GenresInput({
  id,
  value,
  onChange,
}: {
  /** Given by the `Field` it stands in. */
  id?: string | undefined;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [draft, setDraft] = useState("");

  function add() {
    const genre = draft.trim().replace(/\s+/g, " ").slice(0, 50);
    setDraft("");
    if (!genre || value.some((g) => g.toLowerCase() === genre.toLowerCase())) return;
    onChange([...value, genre]);
  }

  return (
    <div>
      {value.length > 0 && (
        <ul className="mb-2 flex flex-wrap gap-2" aria-label="Genres">
          {value.map((g) => (
            <li
              key={g}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-sm font-medium text-brand-700"
            >
              {g}
              <button
                type="button"
                aria-label={`Remove genre ${g}`}
                onClick={() => onChange(value.filter((x) => x !== g))}
                className={`flex h-5 w-5 items-center justify-center rounded-full hover:bg-indigo-100 ${focusRing}`}
              >
                <X className="h-3.5 w-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        className={controlClass("editor")}
        value={draft}
        placeholder="Type a genre and press Enter"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === ",") {
            e.preventDefault();
            add();
          } else if (e.key === "Backspace" && draft === "" && value.length > 0) {
            onChange(value.slice(0, -1));
          }
        }}
        onBlur={add}
      />
    </div>
  );
}
