// 'My Writing Journey' on the Bio screen: cards of year, title and a line, added, edited in
// place, reordered and removed; saved with the bio. None: the About page shows no journey.
import { Plus } from "lucide-react";
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray } from "react-hook-form";
import type { ProfileUpdateInput } from "../../../shared/schemas/profile.ts";
import { PROFILE_LIMITS } from "../../../shared/schemas/profile.ts";
import { Button } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/input.tsx";
import { RowControls, RowError, RowField, RowInput } from "../../components/ui/row-controls.tsx";

type Props = {
  control: Control<ProfileUpdateInput>;
  register: UseFormRegister<ProfileUpdateInput>;
  errors: FieldErrors<ProfileUpdateInput>["writingJourney"];
};

export function JourneyEditor({ control, register, errors }: Props) {
  const { fields, append, remove, move } = useFieldArray({ control, name: "writingJourney", keyName: "key" });
  const full = fields.length >= PROFILE_LIMITS.journeyEntries;
  const listError = errors?.message ?? errors?.root?.message;
  return (
    <div className="space-y-3">
      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
          No milestones yet. Your About page shows this section once you add one.
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Writing journey">
          {fields.map((f, i) => {
            const e = errors?.[i];
            const n = i + 1;
            return (
              <li key={f.key} className="rounded-lg border border-slate-200 bg-slate-50 p-3">
                <div className="flex flex-wrap items-start gap-2">
                  <RowInput
                    id={`${f.key}-year`}
                    label={`Year ${n}`}
                    className="w-28"
                    placeholder="2019"
                    maxLength={PROFILE_LIMITS.journeyYear}
                    aria-invalid={Boolean(e?.year) || undefined}
                    {...register(`writingJourney.${i}.year`)}
                  />
                  <RowInput
                    id={`${f.key}-title`}
                    label={`Milestone ${n}`}
                    className="min-w-48 flex-1"
                    placeholder="First short story published"
                    maxLength={PROFILE_LIMITS.journeyTitle}
                    aria-invalid={Boolean(e?.title) || undefined}
                    {...register(`writingJourney.${i}.title`)}
                  />
                  <div className="self-end">
                    <RowControls what="milestone" index={i} count={fields.length} move={move} remove={remove} />
                  </div>
                </div>
                <RowField id={`${f.key}-description`} label={`Description ${n}`} className="mt-2">
                  <textarea
                    id={`${f.key}-description`}
                    rows={2}
                    placeholder="Optional: a line or two about it"
                    className={controlClass("editor")}
                    maxLength={PROFILE_LIMITS.journeyDescription}
                    aria-invalid={Boolean(e?.description) || undefined}
                    {...register(`writingJourney.${i}.description`)}
                  />
                </RowField>
                {(e?.year || e?.title || e?.description) && (
                  <RowError className="mt-1">
                    {e?.year?.message ?? e?.title?.message ?? e?.description?.message}
                  </RowError>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          look="editor"
          variant="secondary"
          disabled={full}
          onClick={() => append({ year: "", title: "", description: "" }, { shouldFocus: true })}
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> Add Milestone
        </Button>
        {full && <span className="text-xs text-slate-500">At most {PROFILE_LIMITS.journeyEntries} milestones.</span>}
      </div>
      {listError && <RowError>{listError}</RowError>}
    </div>
  );
}
