declare const __BANK_NAME__: string;
declare const __DEMO_MODE__: boolean;
