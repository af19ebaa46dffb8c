import { PageTitle } from './card';

/** Temporary page body for a route whose feature is still being built. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <div>
      <PageTitle>{title}</PageTitle>
      <p className="text-slate-700">This page is being built.</p>
    </div>
  );
}
