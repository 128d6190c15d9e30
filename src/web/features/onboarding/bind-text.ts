// A step's text input bound to one wizard value: shown, changed, and marked invalid while the
// step's check (Next) names it.
import type { ChangeEvent } from "react";
import type { Issue, WizardValues } from "./wizard-model.ts";

type TextKey = "name" | "email" | "websiteName" | "ownDomain";

export function bindText(
  step: { values: WizardValues; issue: Issue | null; onChange: (patch: Partial<WizardValues>) => void },
  key: TextKey,
) {
  return {
    value: step.values[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => step.onChange({ [key]: e.target.value }),
    "aria-invalid": step.issue?.field === key ? true : undefined,
  };
}
