import { GENRES } from "../../../shared/genres.ts";
import { Field } from "../../components/ui/field.tsx";
import { Label } from "../../components/ui/label.tsx";
import { bindText } from "./bind-text.ts";
import type { Issue, WizardValues } from "./wizard-model.ts";

export function StepAbout({
  values,
  issue,
  onChange,
}: {
  values: WizardValues;
  issue: Issue | null;
  onChange: (patch: Partial<WizardValues>) => void;
}) {
  const step = { values, issue, onChange };
  return (
    <div className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          id="name"
          label="Full Name *"
          autoComplete="name"
          {...bindText(step, "name")}
          maxLength={100}
          placeholder="Jane Author"
        />
        <Field
          id="email"
          label="Email Address *"
          type="email"
          autoComplete="email"
          {...bindText(step, "email")}
          maxLength={254}
          placeholder="you@example.com"
          hint="Readers' messages from your site's contact form go here."
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="genre">
          Main genre <span className="font-normal text-slate-500">(optional)</span>
        </Label>
        <input
          id="genre"
          list="genre-suggestions"
          value={values.genre}
          maxLength={60}
          onChange={(e) => onChange({ genre: e.target.value })}
          placeholder="e.g. Psychological thriller"
          className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
        />
        <datalist id="genre-suggestions">
          {GENRES.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="bio">
          A few words about you <span className="font-normal text-slate-500">(optional)</span>
        </Label>
        <textarea
          id="bio"
          rows={4}
          maxLength={5000}
          value={values.bio}
          onChange={(e) => onChange({ bio: e.target.value })}
          placeholder="I write cosy mysteries set on the Cornish coast..."
          aria-describedby="bio-hint"
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
        />
        <p id="bio-hint" className="text-xs text-slate-500">
          This starts your About page. You can polish it any time from your dashboard.
        </p>
      </div>
    </div>
  );
}
