// The editor's preview: the server makes the mail readers will get from the words as they stand
// (the mail layout, book cards, the footer with the postal address), a moment after the author
// stops typing, and the frame shows it at a desktop's or a phone's width.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Monitor, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { NEWSLETTERS_KEY, previewNewsletter } from "./newsletters-api.ts";

/** The preview's widths: the desktop one, and a phone's. */
const WIDTHS = [
  { name: "desktop", label: "Desktop", icon: Monitor },
  { name: "phone", label: "Phone", icon: Smartphone },
] as const;
type Width = (typeof WIDTHS)[number]["name"];

/** `value` once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function NewsletterPreview({ subject, content }: { subject: string; content: string }) {
  const [width, setWidth] = useState<Width>("desktop");
  const draft = useSettled({ subject, content }, 400);
  const preview = useQuery({
    queryKey: [...NEWSLETTERS_KEY, "preview", draft.subject, draft.content],
    queryFn: () => previewNewsletter(draft),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Card>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-slate-900">Preview</h2>
          <fieldset className="flex gap-2">
            <legend className="sr-only">Preview width</legend>
            {WIDTHS.map(({ name, label, icon: Icon }) => (
              <Button
                key={name}
                size="sm"
                variant={width === name ? "primary" : "secondary"}
                aria-pressed={width === name}
                onClick={() => setWidth(name)}
              >
                <Icon aria-hidden="true" className="h-4 w-4" /> {label}
              </Button>
            ))}
          </fieldset>
        </div>
        {preview.isError ? <Alert tone="error">{errorMessage(preview.error)}</Alert> : null}
        <div className="overflow-x-auto rounded-xl bg-stone-100 p-3">
          <iframe
            title="Newsletter preview"
            sandbox=""
            aria-busy={preview.isFetching}
            className={cn(
              "mx-auto block h-[32rem] rounded-lg border border-slate-200 bg-white",
              width === "phone" ? "w-[360px] max-w-full" : "w-full",
            )}
            srcDoc={preview.data ?? ""}
          />
        </div>
      </CardContent>
    </Card>
  );
}
