import { Card, PageTitle } from '../../components/ui/card';
import { PageLink } from '../../components/ui/page-link';
import { statementCalendarQuery } from '../../features/statements/api/statement-calendar';
import { statementsQuery } from '../../features/statements/api/list-statements';
import { ExportForm } from '../../features/statements/components/export-form';
import { InterimStatements, StatementList } from '../../features/statements/components/statement-list';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(statementsQuery(), statementCalendarQuery());
}

export function meta() {
  return [{ title: pageTitle('Statements') }];
}

export default function StatementsPage() {
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Monthly statements, signed by the bank, and your transactions as CSV or OFX.">Statements</PageTitle>
      <Card title="Monthly statements">
        <StatementList />
        <p className="mt-4 text-sm text-slate-600">
          Anyone you give a statement to (a landlord, a lender) can check that it is genuine and unchanged at{' '}
          <PageLink to={paths.verifyStatement} className="font-semibold text-brand-800 underline">
            Verify a statement
          </PageLink>
          .
        </p>
      </Card>
      <Card title="This month so far">
        <InterimStatements />
      </Card>
      <Card title="Export transactions">
        <ExportForm />
      </Card>
    </div>
  );
}
