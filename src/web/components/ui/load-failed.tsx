import type { ReactNode } from "react";
import { Alert } from "./alert.tsx";
import { Button } from "./button.tsx";

/** Why a screen's data could not be loaded (`children`), with Try again (`retry`: the query's refetch). */
export function LoadFailed({ retry, children }: { retry: () => void; children: ReactNode }) {
  return (
    <Alert tone="error">
      {children}
      <Button className="mt-3" size="sm" variant="secondary" onClick={retry}>
        Try again
      </Button>
    </Alert>
  );
}
