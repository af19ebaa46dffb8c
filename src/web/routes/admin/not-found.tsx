import { Link, useLocation } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { staffPageTitle } from '../../lib/title';
import { paths } from '../../paths';

export function meta() {
  return [{ title: staffPageTitle('Not Found') }];
}

// An /admin/ address no page has (a typo, an old bookmark): answered inside the back office's frame,
// with its menu, so staff stay where they work (the layout still sends a visitor to the staff login).
// Unknown paths are answered with the SPA fallback page: a client loader makes the first client
// render match it, as the public not-found page does.
export function clientLoader() {
  return null;
}

export default function AdminNotFound() {
  const { pathname } = useLocation();
  return (
    <div className="space-y-6">
      <PageTitle>Not Found</PageTitle>
      <Card>
        <p className="break-words text-slate-800">
          No back-office page has the address <span className="font-mono">{pathname}</span>. Choose a page from the menu, or go to the{' '}
          <Link to={paths.adminDashboard} className="font-semibold text-brand-800 hover:underline">
            dashboard
          </Link>
          .
        </p>
      </Card>
    </div>
  );
}
