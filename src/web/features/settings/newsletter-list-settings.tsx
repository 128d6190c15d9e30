// Settings → Newsletter: the site's web archive of sent newsletters and the postal address under
// every newsletter and release alert (ADR 071).

import { useQuery } from "@tanstack/react-query";
import {
  LIST_SETTINGS_MESSAGES,
  type ListSettings,
  listSettingsSchema,
  POSTAL_ADDRESS_LIMITS,
} from "../../../shared/schemas/newsletter-list-settings.ts";
import { SwitchField } from "../../components/switch-field.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Textarea } from "../../components/ui/input.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { client, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { useSaveSettings } from "./settings-screen.tsx";

const LIST_SETTINGS_KEY = ["newsletter-list-settings"] as const;

export function NewsletterListSettings() {
  const settings = useQuery({ queryKey: LIST_SETTINGS_KEY, queryFn: () => read(client.newsletter.settings.$get()) });
  return (
    <SettingsLoader query={settings} height="h-64">
      {(data) => <ListSettingsForm initial={data} />}
    </SettingsLoader>
  );
}

/** The text box holds "" for no address (saved as none). */
const asForm = (v: ListSettings) => ({ ...v, postalAddress: v.postalAddress ?? "" });

function ListSettingsForm({ initial }: { initial: ListSettings }) {
  const form = useZodForm(listSettingsSchema, asForm(initial));
  const save = useSaveSettings({
    queryKey: LIST_SETTINGS_KEY,
    save: (body: ListSettings) => read(client.newsletter.settings.$put({ json: body })),
    messages: LIST_SETTINGS_MESSAGES,
    form,
    onSaved: (saved) => form.reset(asForm(saved)),
  });
  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={form.handleSubmit((data) => save.mutate(data))} className="space-y-4">
          <SwitchField
            control={form.control}
            name="archiveEnabled"
            label="Show a web archive of my past newsletters"
            description="On: your site lists every newsletter you have sent at /newsletter/archive, each on its own page. Drafts and scheduled ones never show."
          />
          <Field
            label="Postal address (optional)"
            hint={`Shown at the foot of your newsletters and release alerts; mailing laws in many countries ask for one. Up to ${POSTAL_ADDRESS_LIMITS.lines} lines.`}
            error={form.formState.errors.postalAddress?.message}
          >
            <Textarea rows={4} maxLength={POSTAL_ADDRESS_LIMITS.chars + 50} {...form.register("postalAddress")} />
          </Field>
          <div className="flex justify-end">
            <SaveButton busy={save.isPending}>Save Archive and Address</SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
