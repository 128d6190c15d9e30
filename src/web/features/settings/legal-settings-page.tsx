// 'Legal': the text of the site's Privacy & Legal page (linked from every page's footer) and
// whether readers see it. Until the author saves their own, readers see a notice generated from
// what the site collects (ADR 052); the editor starts from it, and saving makes it the author's.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Controller } from "react-hook-form";
import { toast } from "sonner";
import { LEGAL_MESSAGES, type Legal, type LegalInput, legalSchema } from "../../../shared/schemas/legal.ts";
import { RichTextField } from "../../components/rich-text-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { client, errorMessage, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

const LEGAL_KEY = ["legal-settings"] as const;

export function LegalSettingsPage() {
  const legal = useQuery({ queryKey: LEGAL_KEY, queryFn: () => read(client.site.legal.$get()) });
  return (
    <>
      <SettingsTabs />
      <div className="space-y-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Privacy &amp; Legal</h1>
          <p className="mt-1 text-sm text-slate-600">
            Your privacy notice and legal information. Every page of your site links to it from the footer.
          </p>
        </div>
        <SettingsLoader query={legal} height="h-64">
          {(data) => <LegalForm initial={data} />}
        </SettingsLoader>
      </div>
    </>
  );
}

function LegalForm({ initial }: { initial: Legal }) {
  const qc = useQueryClient();
  const generated = initial.content === null;
  const form = useZodForm(legalSchema, { content: initial.content ?? initial.generated, isEnabled: initial.isEnabled });
  const { control, handleSubmit, formState, setValue } = form;
  // One message under the text, whichever part was refused (only the text can be, in practice).
  const firstError = Object.values(formState.errors)[0];
  const error = firstError ? (firstError.message ?? LEGAL_MESSAGES.failed) : null;

  const save = useMutation({
    mutationFn: (body: LegalInput) => read(client.site.legal.$put({ json: body })),
    onSuccess: (saved) => {
      qc.setQueryData(LEGAL_KEY, saved);
      setValue("content", saved.content ?? saved.generated);
      toast.success(LEGAL_MESSAGES.saved);
    },
    onError: (err) => toast.error(LEGAL_MESSAGES.failed, { description: errorMessage(err) }),
  });

  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-5">
          <Controller
            control={control}
            name="isEnabled"
            render={({ field }) => (
              <Switch
                label="Show the Privacy & Legal page"
                description="Off: your footer has no Privacy & Legal link and the page answers 'not found'."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
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
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving..." : "Save"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
