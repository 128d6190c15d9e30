import { Plus, Star, Trash2 } from "lucide-react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { Button } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/input.tsx";
import { RowError, RowField, RowInput } from "../../components/ui/row-controls.tsx";
import { authorLocale, datePattern } from "../../lib/date-input.ts";
import type { BookFormValues } from "./book-form-values.ts";

/** Reader reviews shown on the book page: each can be edited in place or removed. */
export function ReviewsEditor() {
  const { control, register, formState, getFieldState } = useFormContext<BookFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "reviews", keyName: "key" });
  // Adding a review validates the list at once; a review just added must not greet the author
  // with 'Review text is required' before they have had a chance to type it.
  const errorOf = (i: number, key: "reviewText" | "rating" | "reviewDate") => {
    const state = getFieldState(`reviews.${i}.${key}`, formState);
    return state.isTouched || formState.isSubmitted ? state.error?.message : undefined;
  };

  return (
    <div className="space-y-3">
      {fields.length === 0 && <p className="text-sm text-slate-500">No reviews yet.</p>}
      <ol className="space-y-3" aria-label="Reviews">
        {fields.map((f, i) => (
          <li key={f.key} className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4" data-testid="review">
            <div className="flex items-center justify-between">
              <span className="flex items-center gap-1.5 text-sm font-medium text-slate-700">
                <Star className="h-4 w-4 text-amber-500" aria-hidden="true" />
                Review {i + 1}
              </span>
              <Button
                look="editor"
                variant="dangerGhost"
                size="sm"
                onClick={() => remove(i)}
                aria-label={`Remove review ${i + 1}`}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
                Remove
              </Button>
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <RowInput id={`${f.key}-reviewer`} label="Reviewer" {...register(`reviews.${i}.reviewerName`)} />
              <RowInput
                id={`${f.key}-rating`}
                label="Rating (0–5)"
                type="number"
                min={0}
                max={5}
                step={0.1}
                aria-invalid={Boolean(errorOf(i, "rating"))}
                {...register(`reviews.${i}.rating`)}
              />
              <RowInput
                id={`${f.key}-date`}
                label="Review date"
                type="text"
                inputMode="numeric"
                placeholder={datePattern(authorLocale())}
                aria-invalid={Boolean(errorOf(i, "reviewDate"))}
                {...register(`reviews.${i}.reviewDate`)}
              />
            </div>
            <RowField id={`${f.key}-text`} label="Review text">
              <textarea
                id={`${f.key}-text`}
                rows={3}
                className={controlClass("editor")}
                aria-invalid={Boolean(errorOf(i, "reviewText"))}
                {...register(`reviews.${i}.reviewText`)}
              />
            </RowField>
            {(errorOf(i, "reviewText") || errorOf(i, "rating") || errorOf(i, "reviewDate")) && (
              <RowError>{errorOf(i, "reviewText") ?? errorOf(i, "rating") ?? errorOf(i, "reviewDate")}</RowError>
            )}
          </li>
        ))}
      </ol>
      <Button
        look="editor"
        variant="secondary"
        onClick={() => append({ rating: "", reviewerName: "", reviewText: "", reviewDate: "" }, { shouldFocus: true })}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add Review
      </Button>
    </div>
  );
}
