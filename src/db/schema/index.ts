export * from "./auth.ts";
export * from "./billing.ts";
export * from "./books.ts";
export * from "./content.ts";
export * from "./magnets.ts";
export * from "./operations.ts";
export * from "./sites.ts";
