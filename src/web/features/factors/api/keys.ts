// One key factory for the signed-in user's second factors (every call under api/ uses it).
export const factorKeys = {
  all: ['auth', 'factors'] as const,
  summary: () => [...factorKeys.all, 'summary'] as const,
  passkeys: () => [...factorKeys.all, 'passkeys'] as const,
};
