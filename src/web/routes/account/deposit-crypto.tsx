import { Link } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { CryptoDeposit } from '../../features/deposits/components/crypto-deposit';
import { paths } from '../../paths';
import { cryptoOptionsQuery } from '../../features/deposits/api';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(cryptoOptionsQuery());
}

export function meta() {
  return [{ title: pageTitle('Crypto Deposit') }];
}

export default function CryptoDepositPage() {
  return (
    <div>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to={paths.accountDeposit} className="font-medium text-brand-800 hover:underline">
          Deposit
        </Link>{' '}
        / Crypto
      </nav>
      <PageTitle subtitle="Choose a currency to see its deposit address.">Crypto Deposit</PageTitle>
      <CryptoDeposit />
    </div>
  );
}
