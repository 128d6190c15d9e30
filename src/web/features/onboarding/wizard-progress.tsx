import { Check } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import { STEPS, type Step } from "./wizard-model.ts";

/** 'Step N of 3' with a bar and the three steps named, done ones ticked. */
export function WizardProgress({ step }: { step: Step }) {
  const percent = Math.round((step / STEPS.length) * 100);
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between text-sm">
        <p className="font-semibold text-brand-700" data-testid="step-indicator">
          Step {step} of {STEPS.length}
        </p>
        <p className="text-slate-500">{percent}% complete</p>
      </div>
      <div
        role="progressbar"
        aria-label="Setup progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-600 transition-[width] duration-500"
          style={{ width: `${percent}%` }}
        />
      </div>
      <ol className="grid grid-cols-3 gap-2 text-xs sm:text-sm">
        {STEPS.map((s) => {
          const done = s.step < step;
          const current = s.step === step;
          return (
            <li
              key={s.step}
              aria-current={current ? "step" : undefined}
              className={cn(
                "flex items-center gap-2",
                current ? "font-semibold text-slate-900" : done ? "text-brand-700" : "text-slate-400",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold",
                  done && "border-brand-600 bg-brand-600 text-white",
                  current && "border-brand-600 bg-white text-brand-700 ring-4 ring-brand-100",
                  !done && !current && "border-slate-300 bg-white text-slate-400",
                )}
              >
                {done ? <Check className="h-3.5 w-3.5" /> : s.step}
              </span>
              <span className="truncate">{s.label}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
