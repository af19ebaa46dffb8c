import { Fragment } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  /** Omit on the last crumb: it is the current page. */
  to?: string;
}

/**
 * "Home / Users / name / Edit" as an ordered list; the current page is marked for screen readers.
 * Only on pages below one of the menu's pages (a customer, a journal entry): a page the menu opens
 * is marked there, and a trail of "Home / Journal" would repeat it.
 */
export function Breadcrumb({ trail }: { trail: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-700">
      <ol className="flex flex-wrap gap-1">
        {trail.map((crumb, index) => (
          <Fragment key={`${index}-${crumb.label}`}>
            <li aria-current={crumb.to ? undefined : 'page'}>
              {crumb.to ? (
                <Link to={crumb.to} className="hover:underline">
                  {crumb.label}
                </Link>
              ) : (
                crumb.label
              )}
              {index < trail.length - 1 ? ' /' : null}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
