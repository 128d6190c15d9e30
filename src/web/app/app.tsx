import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { RouterProvider } from "react-router";
import { Toaster } from "sonner";
import { createQueryClient } from "../lib/query-client.ts";
import { router } from "./router.tsx";

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* At the bottom: at the top a toast sat over the header's Sign out for its five seconds. */}
      <Toaster position="bottom-right" visibleToasts={1} duration={5000} richColors closeButton />
    </QueryClientProvider>
  );
}
