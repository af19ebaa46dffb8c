import { PageTitle } from '../../components/ui/card';
import { BeneficiaryList } from '../../features/beneficiaries/components/beneficiary-list';
import { beneficiariesQuery } from '../../features/beneficiaries/api';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(beneficiariesQuery());
}

export function meta() {
  return [{ title: pageTitle('Beneficiaries') }];
}

export default function BeneficiariesPage() {
  return (
    <div>
      <PageTitle subtitle="Payees you saved after a transfer. Use one to fill the transfer form.">Beneficiaries</PageTitle>
      <BeneficiaryList />
    </div>
  );
}
