// 'Contact Settings': where the site's contact form sends messages, whether the form and its
// anti-spam are on, and the author's social links, one row per platform.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { SOCIAL_PLATFORMS } from "../../../shared/enums.ts";
import {
  CONTACT_MESSAGES,
  type ContactSettings,
  contactSettingsSchema,
  PLATFORM_LABELS,
} from "../../../shared/schemas/contact-settings.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { ApiError, api, errorMessage } from "../../lib/api.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

const CONTACT_KEY = ["contact-settings"] as const;

type Platform = (typeof SOCIAL_PLATFORMS)[number];
type Row = { platform: Platform; url: string; enabled: boolean };

/** Every platform gets a row; what the author never filled in stays off and empty. */
function rowsFrom(saved: ContactSettings["socialLinks"]): Row[] {
  return SOCIAL_PLATFORMS.map((platform) => {
    const found = saved.find((l) => l.platform === platform);
    return { platform, url: found?.url ?? "", enabled: found?.enabled ?? false };
  });
}

export function ContactSettingsPage() {
  return (
    <>
      <SettingsTabs />
      <ContactSettingsPageBody />
    </>
  );
}

function ContactSettingsPageBody() {
  const settings = useQuery({ queryKey: CONTACT_KEY, queryFn: () => api<ContactSettings>("/api/site/contact") });
  return (
    <SettingsLoader query={settings} height="h-96">
      {(data) => <ContactForm initial={data} />}
    </SettingsLoader>
  );
}

function ContactForm({ initial }: { initial: ContactSettings }) {
  const qc = useQueryClient();
  const [email, setEmail] = useState(initial.contactEmail ?? "");
  const [formOn, setFormOn] = useState(initial.enableContactForm);
  const [antispam, setAntispam] = useState(initial.antispamEnabled);
  const [rows, setRows] = useState<Row[]>(() => rowsFrom(initial.socialLinks));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const setRow = (i: number, patch: Partial<Row>) => {
    setRows((rs) => rs.map((r, k) => (k === i ? { ...r, ...patch } : r)));
    setErrors((e) => ({ ...e, [`socialLinks.${i}.url`]: "" }));
  };

  const save = useMutation({
    mutationFn: (body: ContactSettings) => api<ContactSettings>("/api/site/contact", { method: "PUT", json: body }),
    onSuccess: (saved) => {
      qc.setQueryData(CONTACT_KEY, saved);
      toast.success(CONTACT_MESSAGES.saved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field) setErrors({ [err.field]: err.message });
      toast.error(CONTACT_MESSAGES.failed, { description: errorMessage(err) });
    },
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // Rows left empty and off are not links; keep the rest, in the order shown.
    const socialLinks = rows.filter((r) => r.enabled || r.url.trim() !== "");
    const parsed = contactSettingsSchema.safeParse({
      contactEmail: email,
      enableContactForm: formOn,
      antispamEnabled: antispam,
      socialLinks,
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        let key = issue.path.join(".");
        // The row index in the sent list is not the row on screen: point at the platform's row.
        if (issue.path[0] === "socialLinks" && typeof issue.path[1] === "number") {
          const platform = socialLinks[issue.path[1]]?.platform;
          key = `socialLinks.${rows.findIndex((r) => r.platform === platform)}.url`;
        }
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    save.mutate(parsed.data);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Contact Settings</h1>
          <p className="mt-1 text-sm text-slate-600">How readers reach you from your site's Contact page.</p>
        </div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Contact Settings"}
        </Button>
      </div>

      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-base font-semibold text-slate-900">Messages</h2>
          <Field
            id="contact-email"
            type="email"
            label="Contact email"
            hint="Messages from your contact form go here; your account email is used when empty. Readers see it masked."
            value={email}
            maxLength={254}
            error={errors.contactEmail || undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors((er) => ({ ...er, contactEmail: "" }));
            }}
          />
          <div className="divide-y divide-slate-100">
            <Switch
              label="Contact form"
              description="Readers can send you a message from your site"
              checked={formOn}
              onChange={setFormOn}
            />
            <Switch
              label="Anti-spam"
              description="A hidden trap for bots and at most 5 messages an hour from one sender"
              checked={antispam}
              onChange={setAntispam}
            />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <h2 className="text-base font-semibold text-slate-900">Social links</h2>
          <p className="mt-1 text-sm text-slate-600">
            Switched-on links appear on your Contact page and in your site's footer.
          </p>
          {errors.socialLinks ? <p className="mt-2 text-sm text-red-700">{errors.socialLinks}</p> : null}
          <ul className="mt-4 space-y-3">
            {rows.map((row, i) => {
              const id = `social-${row.platform}`;
              const error = errors[`socialLinks.${i}.url`];
              return (
                <li key={row.platform} className="grid gap-2 sm:grid-cols-[8rem_1fr_auto] sm:items-start">
                  <label htmlFor={id} className="pt-2 text-sm font-medium text-slate-800">
                    {PLATFORM_LABELS[row.platform]}
                  </label>
                  <div>
                    <input
                      id={id}
                      value={row.url}
                      type={row.platform === "email" ? "email" : "url"}
                      placeholder={row.platform === "email" ? "you@example.com" : "https://"}
                      maxLength={500}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(e) => setRow(i, { url: e.target.value })}
                      className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-500"
                    />
                    {error ? (
                      <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                        {error}
                      </p>
                    ) : null}
                  </div>
                  <label className="flex items-center gap-2 pt-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={row.enabled}
                      onChange={(e) => setRow(i, { enabled: e.target.checked })}
                      className="h-4 w-4 accent-brand-600"
                      aria-label={`Show ${PLATFORM_LABELS[row.platform]}`}
                    />
                    Show
                  </label>
                </li>
              );
            })}
          </ul>
          <p className="mt-4 text-xs text-slate-500">
            Your email is never shown as a social button; readers use the contact form or the masked address.
          </p>
        </CardContent>
      </Card>
    </form>
  );
}
