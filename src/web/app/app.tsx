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
      <Toaster position="top-right" visibleToasts={1} duration={5000} richColors closeButton />
    </QueryClientProvider>
  );
}
