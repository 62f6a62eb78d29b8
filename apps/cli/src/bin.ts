// The slashi binary entry.
export {};
