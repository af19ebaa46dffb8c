// Values baked in at build time from BANK_NAME and DEMO_MODE (see vite.config.ts).
export const BANK_NAME: string = __BANK_NAME__;
export const DEMO_MODE: boolean = __DEMO_MODE__;
