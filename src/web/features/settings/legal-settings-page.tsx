// 'Legal': the text of the site's Privacy & Legal page (linked from every page's footer) and
// whether readers see it. Until the author saves their own, readers see a notice generated from
// what the site collects (ADR 052); the editor starts from it, and saving makes it the author's.
import { LEGAL_MESSAGES, type Legal, type LegalInput, legalSchema } from "../../../shared/schemas/legal.ts";
import { RichTextField } from "../../components/rich-text-field.tsx";
import { SwitchField } from "../../components/switch-field.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { client, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { SettingsScreen, useSaveSettings } from "./settings-screen.tsx";

const LEGAL_KEY = ["legal-settings"] as const;

export function LegalSettingsPage() {
  return (
    <SettingsScreen
      queryKey={LEGAL_KEY}
      queryFn={() => read(client.site.legal.$get())}
      height="h-64"
      heading={
        <PageHeading
          title="Privacy & Legal"
          description="Your privacy notice and legal information. Every page of your site links to it from the footer."
        />
      }
    >
      {(data) => <LegalForm initial={data} />}
    </SettingsScreen>
  );
}

function LegalForm({ initial }: { initial: Legal }) {
  const generated = initial.content === null;
  const form = useZodForm(legalSchema, { content: initial.content ?? initial.generated, isEnabled: initial.isEnabled });
  const { control, handleSubmit, formState, setValue } = form;
  // One message under the text, whichever part was refused (only the text can be, in practice).
  const firstError = Object.values(formState.errors)[0];
  const error = firstError ? (firstError.message ?? LEGAL_MESSAGES.failed) : null;

  const save = useSaveSettings({
    queryKey: LEGAL_KEY,
    save: (body: LegalInput) => read(client.site.legal.$put({ json: body })),
    messages: LEGAL_MESSAGES,
    onSaved: (saved) => setValue("content", saved.content ?? saved.generated),
  });

  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-5">
          <SwitchField
            control={control}
            name="isEnabled"
            label="Show the Privacy & Legal page"
            description="Off: your footer has no Privacy & Legal link and the page answers 'not found'."
          />
          {generated ? (
            <p
              role="note"
              data-testid="legal-generated"
              className="rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900"
            >
              Readers now see this notice, written for you from what your site collects (newsletter sign-ups, contact
              messages, visit counts). Read it, change anything you like, and save: from then on it is your text, and it
              no longer follows your settings.
            </p>
          ) : null}
          <RichTextField
            control={control}
            name="content"
            alert
            id="legal-content"
            label="Page text"
            hint="For example: what you collect (the contact form and newsletter keep names and email addresses), why, for how long, and how readers can reach you."
            error={error ?? undefined}
            minHeight="min-h-64"
          />
          <div className="flex justify-end">
            <SaveButton busy={save.isPending}>Save</SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
